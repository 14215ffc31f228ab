import Foundation
import GRDB
import MetadataCore
#if canImport(Glibc)
import Glibc
#endif

/// Applies what a watcher saw — files that arrived, moved or went — to the index, with the
/// scanner's rules (`FileIdentity`) through the same writer, so that the result is the one a
/// scan of the same disk would give.
///
/// Keep one updater for the life of a watcher: it holds the index's file records in memory
/// (`KnownFiles`) between batches, follows its own writes, and reloads them only when another
/// process wrote the index meanwhile. The caller holds the library's writer lock while `apply` runs.
public final class LiveUpdater {
    /// One thing that happened to the library, in event order. Paths are relative to the root.
    public enum Change: Equatable, Sendable {
        /// A file closed after writing, or renamed into place from a temporary or outside name.
        case arrived(String)
        /// A folder created or moved in from outside: everything under it is new.
        case folderArrived(String)
        /// A file renamed or moved within the library (an inotify cookie pair): same id, no re-hash.
        case moved(from: String, to: String)
        /// A folder renamed or moved within the library: every asset under it, in one step.
        case folderMoved(from: String, to: String)
        /// A file deleted or moved out of the library.
        case removed(String)
        /// A folder deleted or moved out of the library.
        case folderRemoved(String)
    }

    /// What `apply` did, one entry per asset (or folder) for the log.
    public enum Entry: Equatable, Sendable {
        case added(AssetID, path: String)
        case updated(AssetID, path: String)
        /// A missing or trashed asset whose content came back.
        case returned(AssetID, path: String, from: String)
        case moved(AssetID, from: String, to: String)
        case folderMoved(from: String, to: String, assets: Int)
        case removed(AssetID, path: String)
        /// A trashed asset dragged back out of `Recently Deleted/files/`.
        case restored(AssetID, path: String)
        /// A file dragged into `Recently Deleted/files/` by hand: trashed, as `shoebox trash` would.
        case trashed(AssetID, path: String)
    }

    public struct Report: Sendable {
        public var entries: [Entry] = []
        /// Files still being written (growing, or without their end yet): re-check them later.
        public var stillBeingWritten: [String] = []
        public var failed: [FileProblem] = []
        public var warnings: [FileProblem] = []
        /// The album sync after the changes, when anything changed.
        public var albums: AlbumSyncReport?
        public init() {}
    }

    /// The scanner's options: the same mass-disappearance guard, workers and batch size.
    public typealias Options = Scanner.Options

    let library: Library
    let index: Index
    let options: Options
    public let writer: AssetWriter
    private var known: KnownFiles?

    public init(library: Library, index: Index, options: Options = Options()) {
        self.library = library
        self.index = index
        self.options = options
        self.writer = AssetWriter(library: library, index: index)
        writer.didCommit = { [unowned self] in known?.update(with: $0) }
        writer.didForget = { [unowned self] in known?.forget($0) }
    }

    /// Applies `changes` in order. Throws `.massDisappearance` (having changed nothing for the
    /// removals of this call) when the removals would take too large a share of the library.
    public func apply(_ changes: [Change]) throws -> Report {
        var report = Report()
        try writer.recoverUnfinishedBatch()
        try loadKnownFilesIfStale()
        let now = ShoeboxClock.now()
        var arrivals: [String] = []
        // Photos read again because their XMP sidecar changed, though they did not.
        var sidecarPhotos = Set<String>()
        var removals: [(path: String, isFolder: Bool)] = []
        var changedSomething = false

        func flushArrivals() throws {
            guard !arrivals.isEmpty else { return }
            // Later events for the same path supersede earlier ones.
            var seen = Set<String>()
            let unique = arrivals.reversed().filter { seen.insert($0).inserted }.reversed()
            arrivals.removeAll()
            if try ingest(Array(unique), forced: sidecarPhotos, now: now, report: &report) { changedSomething = true }
            sidecarPhotos.removeAll()
        }

        for change in changes {
            if let sidecar = change.xmpSidecarPath {
                let photos = try photos(ofSidecar: sidecar)
                sidecarPhotos.formUnion(photos)
                arrivals += photos
                continue
            }
            switch change {
            case .arrived(let path):
                if Library.isIndexable(relativePath: path) { arrivals.append(path) }
            case .folderArrived(let folder):
                arrivals += filesUnder(folder, problems: &report.failed)
            case .moved(let from, let to):
                try flushArrivals()
                if try move(from: from, to: to, report: &report) {
                    changedSomething = true
                } else {
                    arrivals.append(to)
                }
            case .folderMoved(let from, let to):
                try flushArrivals()
                if try moveFolder(from: from, to: to, report: &report) { changedSomething = true }
                // Files under it that were never indexed (still being written, say) are looked at now;
                // the moved ones are unchanged and cost one lookup each.
                arrivals += filesUnder(to, problems: &report.failed)
            case .removed(let path):
                removals.append((path, false))
            case .folderRemoved(let folder):
                removals.append((folder, true))
            }
        }
        try flushArrivals()
        if try remove(removals, report: &report) { changedSomething = true }
        // A file dragged into or out of Recently Deleted shows here as a removal or an arrival.
        if changedSomething || !removals.isEmpty {
            let trash = try RecentlyDeleted(library: library, index: index, retentionDays: options.trashRetentionDays, now: now,
                                             writer: writer)
                .reconcile()
            if trash.changed { changedSomething = true }
            let trashedIDs = Set(trash.trashed.map(\.id))
            report.entries.removeAll { if case .removed(let id, _) = $0 { return trashedIDs.contains(id) } else { return false } }
            report.entries += trash.trashed.map { .trashed($0.id, path: $0.path) }
        }
        if changedSomething {
            report.albums = try writer.afterChange()
        }
        return report
    }

    /// The index's file records, read again only when someone else wrote the index since this
    /// updater's last write (a CLI command between two batches, or the first batch).
    private func loadKnownFilesIfStale() throws {
        let generation = try index.generation()
        if known != nil, let mine = writer.generationAfterLastWrite, generation == mine { return }
        // The generation is read before the records: a write between the two makes the next
        // batch read them again (never a view older than it claims).
        known = KnownFiles(try index.fileRecords(includingTrashed: true))
        writer.viewRead(atGeneration: generation)
    }

    // MARK: Arrivals

    /// Reads the files that arrived (in parallel, like a scan) and decides what each one is.
    /// Returns whether anything changed.
    private func ingest(_ paths: [String], forced: Set<String> = [], now: Date, report: inout Report) throws -> Bool {
        var toRead: [LibraryWalker.Entry] = []
        for path in paths {
            if FileProbe.knownOtherExtensions.contains((path as NSString).pathExtension.lowercased()) { continue }
            // Gone again (a temporary file renamed away) or not a file: nothing arrived.
            guard let st = lstatFile(path), st.isRegular else { continue }
            if let present = known?.present(at: path), present.sameFile(as: st), !forced.contains(path) { continue }
            toRead.append(LibraryWalker.Entry(path: path, stat: st))
        }
        var pendingEntries: [Entry] = []
        var claimed = Set<AssetID>()
        let firstSeen = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let loop = IngestLoop(writer: writer, workers: options.workers, batchSize: options.batchSize, now: now)
        return try loop.run(toRead, decide: { event in
            switch event {
            case .ignored: return []
            case .failed(let problem):
                if problem.stillBeingWritten {
                    report.stillBeingWritten.append(problem.path)
                } else if lstatFile(problem.path) != nil {
                    report.failed.append(problem)
                }
                return []
            case .read(let r):
                if let w = r.warning { report.warnings.append(FileProblem(path: r.path, reason: w)) }
                let (assets, entries) = try identify(r, claimed: &claimed, firstSeen: firstSeen)
                pendingEntries += entries
                return assets
            }
        }, committed: {
            report.entries += pendingEntries
            pendingEntries.removeAll()
        })
    }

    /// The same path edited keeps its id; content that matches an asset whose file is gone
    /// (moved, missing or trashed) is that asset; anything else is new.
    private func identify(_ r: FileProbe.Result, claimed: inout Set<AssetID>, firstSeen: Date) throws -> ([Asset], [Entry]) {
        guard let known else { return ([], []) }
        // A present asset whose file is no longer there was moved without a cookie pair (out and
        // back in, across a file system, or its removal is still being held).
        let (identity, displaced) = FileIdentity.resolve(path: r.path, sha256: r.sha256, in: known, claimed: claimed,
                                                         allowTrashed: true) { lstatFile($0.path) == nil }
        var assets: [Asset] = []
        var entries: [Entry] = []
        if let displaced, var replaced = try index.asset(id: displaced) {
            replaced.state = .missing
            claimed.insert(displaced)
            assets.append(replaced)
            entries.append(.removed(displaced, path: r.path))
        }
        switch identity {
        case .new:
            let asset = Asset(newFrom: r, firstSeen: firstSeen)
            claimed.insert(asset.id)
            return (assets + [asset], entries + [.added(asset.id, path: r.path)])
        case .samePath(let id, let edited):
            guard var asset = try index.asset(id: id) else { return (assets, entries) }
            let sidecarChanged = asset.metadata.xmpSidecar != r.metadata.xmpSidecar
            asset.take(r)
            claimed.insert(id)
            // Only touched (same content): the record follows the new mtime, nothing worth a log line.
            return (assets + [asset], entries + (edited || sidecarChanged ? [.updated(id, path: r.path)] : []))
        case .found(let id, let was):
            guard var asset = try index.asset(id: id) else { return (assets, entries) }
            let from = asset.path
            asset.take(r)
            claimed.insert(id)
            let entry: Entry
            switch was {
            case .vanished: entry = .moved(id, from: from, to: r.path)
            case .trashed: entry = .restored(id, path: r.path)
            case .missing: entry = .returned(id, path: r.path, from: from)
            }
            return (assets + [asset], entries + [entry])
        }
    }

    // MARK: Moves

    /// A file renamed within the library: its asset takes the new path, nothing is read.
    /// Returns false when no asset lived at `from` (the file was never indexed): then it is an arrival.
    private func move(from: String, to: String, report: inout Report) throws -> Bool {
        guard let record = known?.present(at: from), var asset = try index.asset(id: record.id) else { return false }
        var changed: [Asset] = []
        // A file renamed over another: the one it replaced is gone.
        if let other = known?.present(at: to), other.id != asset.id, var replaced = try index.asset(id: other.id) {
            replaced.state = .missing
            changed.append(replaced)
            report.entries.append(.removed(replaced.id, path: to))
        }
        asset.path = to
        if let st = lstatFile(to) { asset.inode = st.inode }
        Derivation.refresh(&asset)
        changed.append(asset)
        try writer.commit(changed)
        report.entries.append(.moved(asset.id, from: from, to: to))
        return true
    }

    /// A folder renamed within the library: every asset under it moves in one durable step.
    private func moveFolder(from: String, to: String, report: inout Report) throws -> Bool {
        let assets = try index.presentAssets(under: from)
        guard !assets.isEmpty else { return false }
        var changed: [Asset] = []
        changed.reserveCapacity(assets.count)
        for var asset in assets {
            asset.path = to + asset.path.dropFirst(from.count)
            Derivation.refresh(&asset)
            changed.append(asset)
        }
        try writer.commit(changed)
        report.entries.append(.folderMoved(from: from, to: to, assets: changed.count))
        return true
    }

    // MARK: Removals

    /// Files and folders that went. What is back on disk by now is left alone; the rest becomes
    /// `missing` — unless so much went at once that an unmounted disk is the likelier story.
    private func remove(_ removals: [(path: String, isFolder: Bool)], report: inout Report) throws -> Bool {
        guard !removals.isEmpty else { return false }
        guard library.looksPresent else {
            throw ShoeboxError(.massDisappearance, "the library folder \(library.root.path) is gone or unmounted; nothing was marked missing")
        }
        var gone: [AssetID: String] = [:]
        for (path, isFolder) in removals {
            let under = try isFolder ? index.presentAssets(under: path).map { ($0.id, $0.path) }
                : known?.present(at: path).map { [($0.id, $0.path)] } ?? []
            for (id, path) in under where lstatFile(path) == nil { gone[id] = path }
        }
        guard !gone.isEmpty else { return false }
        let presentCount = known?.presentByPath.count ?? 0
        if options.isMassDisappearance(gone: gone.count, of: presentCount) {
            throw ShoeboxError(.massDisappearance, """
                \(gone.count) of \(presentCount) files vanished at once from \(library.root.path) — an unmounted disk or a \
                network share that is down? Nothing was marked missing
                """)
        }
        let ids = gone.sorted { $0.value < $1.value }.map(\.key)
        let changed = try writer.update(ids) { $0.state = .missing }
        report.entries += changed.map { .removed($0.id, path: $0.path) }
        return !changed.isEmpty
    }

    // MARK: Disk

    func lstatFile(_ path: String) -> FileStat? { FileStat.lstat(library.url(for: path).path) }

    /// Indexable regular files under a folder, without following links (by the scanner's walk's
    /// rule, `LibraryLayout`).
    func filesUnder(_ folder: String, problems: inout [FileProblem]) -> [String] {
        guard LibraryLayout.isIndexable(folder: folder) else { return [] }
        var out: [String] = []
        var stack = [folder]
        while let dir = stack.popLast() {
            forEachDirectoryEntry(library.url(for: dir).path) { entry, _ in
                guard let name = entry.name else {
                    if entry.nameBytes.first != UInt8(ascii: ".") {
                        problems.append(FileProblem(path: displayPath(bytes: Array((dir + "/").utf8) + entry.nameBytes),
                                                    reason: FileProblem.nameNotUTF8))
                    }
                    return
                }
                guard !LibraryLayout.isHidden(name) else { return }
                let path = dir + "/" + name
                guard let st = lstatFile(path) else { return }
                guard LibraryLayout.admits(name, isFolder: st.isDirectory, atRoot: dir.isEmpty) else { return }
                if st.isDirectory {
                    stack.append(path)
                } else if st.isRegular {
                    out.append(path)
                }
            }
        }
        return out.sorted()
    }
}

extension Library {
    /// The root is a folder that still holds `.shoebox/`: not renamed away, deleted or unmounted
    /// (an unmounted disk leaves an empty mount point behind).
    public var looksPresent: Bool {
        var st = stat()
        return stat(stateFolder.path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }
}

extension Index {
    /// Present assets under a folder, at any depth.
    func presentAssets(under folder: String) throws -> [Asset] {
        let prefix = folder + "/"
        return try read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(Index.columns) FROM asset WHERE state = 'present' AND substr(path, 1, ?) = ? ORDER BY path
                """, arguments: [prefix.unicodeScalars.count, prefix]).map(Index.asset(from:))
        }
    }
}
