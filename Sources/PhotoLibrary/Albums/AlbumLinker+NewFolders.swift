import Foundation

extension AlbumLinker {
    /// Writes the folders of `albums`, none of them on disk (every album of a first scan), on up
    /// to `threads` threads at once, and records each in `verified` as `verifyOrWrite` would.
    ///
    /// Why threads: a first scan's album pass ran on one thread after the last batch — ~8 % of the
    /// wall time of 1,000 camera photos, more on larger rolls, with the other core idle. Folders are
    /// independent, and creating links serialises only within a folder (the kernel holds the
    /// folder's lock while it allocates each link's inode), not across folders. Each thread keeps
    /// its own report; they are added up in the albums' order, as one thread would have made them.
    /// An album whose folder appeared meanwhile (another program) is left to `verifyOrWrite`, on
    /// this thread, afterwards. On an error the first one in the albums' order is thrown; folders
    /// written beside it are whole, unstamped, and verified by the next pass.
    func writeNewFolders(_ albums: [GeneratedAlbum], verified: inout [String: Verification],
                         _ report: inout AlbumSyncReport,
                         threads: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        guard !albums.isEmpty else { return }
        // The folders above them (`Years/`, `Places/`…) on this thread: no two threads make one.
        for parent in Set(albums.map { AlbumLinker.split($0.path).parent }) { _ = try makeFolder(parent) }
        let jobs = NewFolderJobs(linker: self, albums: albums)
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, albums.count))) { _ in jobs.work() }
        for (album, outcome) in zip(albums, jobs.outcomes) {
            switch outcome {
            case .written(let part, let verification):
                report.add(part)
                verified[album.path] = verification
            case .failed(let part, let error):
                report.add(part)
                throw error
            case .present, nil:
                verified[album.path] = try verifyOrWrite(album, stamp: nil, &report)
            }
        }
    }
}

/// What became of one new album folder on a worker thread.
enum NewFolderOutcome {
    /// Written; its own report, and when it was verified with its digest (nil: a link failed).
    case written(AlbumSyncReport, AlbumLinker.Verification?)
    case failed(AlbumSyncReport, any Error)
    /// Something is at its path now: `verifyOrWrite` decides, on the calling thread.
    case present
}

/// The albums shared out to the threads of `writeNewFolders`, one at a time, and their outcomes,
/// each written once under the lock into its own slot.
final class NewFolderJobs: @unchecked Sendable {
    let linker: AlbumLinker
    let albums: [GeneratedAlbum]
    private(set) var outcomes: [NewFolderOutcome?]
    private var next = 0
    private let lock = NSLock()

    init(linker: AlbumLinker, albums: [GeneratedAlbum]) {
        self.linker = linker
        self.albums = albums
        outcomes = Array(repeating: nil, count: albums.count)
    }

    /// Takes albums until none is left.
    func work() {
        while let i = take() {
            let outcome = write(albums[i])
            lock.lock()
            outcomes[i] = outcome
            lock.unlock()
        }
    }

    private func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < albums.count else { return nil }
        next += 1
        return next - 1
    }

    private func write(_ album: GeneratedAlbum) -> NewFolderOutcome {
        var part = AlbumSyncReport()
        part.albumsComputed += 1
        do {
            guard try linker.openFolder(album.path) == nil else { return .present }
            let at = Date().timeIntervalSince1970
            let digest = try linker.writeNewFolder(album, &part)
            return .written(part, part.problems.isEmpty ? (at, digest) : nil)
        } catch {
            return .failed(part, error)
        }
    }
}

extension AlbumSyncReport {
    /// Adds what `other` counted and found after what this one has.
    mutating func add(_ other: AlbumSyncReport) {
        foldersWritten += other.foldersWritten
        foldersRemoved += other.foldersRemoved
        albumsComputed += other.albumsComputed
        removedByHand += other.removedByHand
        movedAside += other.movedAside
        problems += other.problems
        if off == nil { off = other.off }
    }
}
