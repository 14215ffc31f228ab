import Foundation
import GRDB
import Metadata
#if canImport(Glibc)
import Glibc
#endif

/// Applies what a watcher saw — files that arrived, moved or went — to the index, with the
/// scanner's rules and its write discipline (sidecars first, journal, one flush, then the index),
/// so that the result is the one a scan of the same disk would give.
///
/// The caller holds the library's writer lock while `apply` runs.
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

    public init(library: Library, index: Index, options: Options = Options()) {
        self.library = library
        self.index = index
        self.options = options
    }

    /// Applies `changes` in order. Throws `.massDisappearance` (having changed nothing for the
    /// removals of this call) when the removals would take too large a share of the library.
    public func apply(_ changes: [Change]) throws -> Report {
        var report = Report()
        let scanner = Scanner(library: library, index: index, options: options, now: ShoeboxClock.now())
        try ScanJournal(library: library).recover(into: index, sidecars: scanner.sidecars)
        var arrivals: [String] = []
        var removals: [(path: String, isFolder: Bool)] = []
        var changedSomething = false

        func flushArrivals() throws {
            guard !arrivals.isEmpty else { return }
            // Later events for the same path supersede earlier ones.
            var seen = Set<String>()
            let unique = arrivals.reversed().filter { seen.insert($0).inserted }.reversed()
            arrivals.removeAll()
            if try ingest(Array(unique), scanner: scanner, report: &report) { changedSomething = true }
        }

        for change in changes {
            switch change {
            case .arrived(let path):
                if Library.isIndexable(relativePath: path) { arrivals.append(path) }
            case .folderArrived(let folder):
                arrivals += filesUnder(folder, problems: &report.failed)
            case .moved(let from, let to):
                try flushArrivals()
                if try move(from: from, to: to, scanner: scanner, report: &report) {
                    changedSomething = true
                } else {
                    arrivals.append(to)
                }
            case .folderMoved(let from, let to):
                try flushArrivals()
                if try moveFolder(from: from, to: to, scanner: scanner, report: &report) { changedSomething = true }
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
        if try remove(removals, scanner: scanner, report: &report) { changedSomething = true }
        // A file dragged into or out of Recently Deleted shows here as a removal or an arrival.
        if changedSomething || !removals.isEmpty {
            let trash = try scanner.recentlyDeleted().reconcile()
            if trash.changed { changedSomething = true }
            let trashedIDs = Set(trash.trashed.map(\.id))
            report.entries.removeAll { if case .removed(let id, _) = $0 { return trashedIDs.contains(id) } else { return false } }
            report.entries += trash.trashed.map { .trashed($0.id, path: $0.path) }
        }
        if changedSomething {
            report.albums = try scanner.afterMembershipChange()
        }
        return report
    }

    // MARK: Arrivals

    /// Reads the files that arrived (in parallel, like a scan) and decides what each one is.
    /// Returns whether anything changed.
    private func ingest(_ paths: [String], scanner: Scanner, report: inout Report) throws -> Bool {
        var toRead: [LibraryWalker.Entry] = []
        for path in paths {
            if FileProbe.knownOtherExtensions.contains((path as NSString).pathExtension.lowercased()) { continue }
            // Gone again (a temporary file renamed away) or not a file: nothing arrived.
            guard let st = lstatFile(path), st.isRegular else { continue }
            if let present = try index.presentAsset(path: path), present.size == st.size,
               present.mtimeNS == st.mtimeNS, present.inode == st.inode {
                continue
            }
            toRead.append(LibraryWalker.Entry(path: path, stat: st))
        }
        guard !toRead.isEmpty else { return false }
        let probe = FileProbe(library: library, now: scanner.now)
        let pipeline = ProbePipeline(files: toRead, workers: options.workers, window: options.batchSize * 2) { _, _ in }
        pipeline.start(probe)
        defer { pipeline.stop() }
        var pending: [Asset] = []
        var pendingEntries: [Entry] = []
        var claimed = Set<AssetID>()
        var changed = false
        while let outcome = pipeline.next() {
            switch outcome {
            case .ignored:
                break
            case .failed(let problem):
                if problem.stillBeingWritten {
                    report.stillBeingWritten.append(problem.path)
                } else if lstatFile(problem.path) != nil {
                    report.failed.append(problem)
                }
            case .indexed(let result):
                if let w = result.warning { report.warnings.append(FileProblem(path: result.path, reason: w)) }
                let (assets, entry) = try reconcile(result, scanner: scanner, claimed: &claimed)
                pending += assets
                if let entry { pendingEntries.append(entry) }
            }
            if pending.count >= options.batchSize {
                try scanner.commit(pending)
                report.entries += pendingEntries
                pending.removeAll(keepingCapacity: true)
                pendingEntries.removeAll(keepingCapacity: true)
                changed = true
            }
        }
        if !pending.isEmpty {
            try scanner.commit(pending)
            report.entries += pendingEntries
            changed = true
        }
        return changed
    }

    /// The same path edited keeps its id; content that matches an asset whose file is gone
    /// (moved, missing or trashed) is that asset; anything else is new.
    private func reconcile(_ r: FileProbe.Result, scanner: Scanner, claimed: inout Set<AssetID>) throws -> ([Asset], Entry?) {
        if var asset = try index.presentAsset(path: r.path) {
            let edited = asset.sha256 != r.sha256
            scanner.apply(r, to: &asset)
            claimed.insert(asset.id)
            // Only touched (same content): the record follows the new mtime, nothing worth a log line.
            return ([asset], edited ? .updated(asset.id, path: r.path) : nil)
        }
        let candidates = try index.assets(sha256: r.sha256).filter { !claimed.contains($0.id) }
        // A present asset whose file is no longer there was moved without a cookie pair (out and
        // back in, across a file system, or its removal is still being held); then missing, then trashed.
        let vanished = candidates.first { $0.state == .present && lstatFile($0.path) == nil }
        if var asset = vanished ?? candidates.first(where: { $0.state == .missing }) ?? candidates.first(where: { $0.state == .trashed }) {
            let from = asset.path
            let was = asset.state
            scanner.apply(r, to: &asset)
            claimed.insert(asset.id)
            switch was {
            case .present: return ([asset], .moved(asset.id, from: from, to: r.path))
            case .trashed: return ([asset], .restored(asset.id, path: r.path))
            case .missing: return ([asset], .returned(asset.id, path: r.path, from: from))
            }
        }
        var asset = Asset(id: AssetID(), path: r.path, state: .present, size: r.stat.size, mtimeNS: r.stat.mtimeNS,
                          inode: r.stat.inode, sha256: r.sha256, kind: .photo, metadata: r.metadata,
                          place: nil, duplicateOf: nil, livePhotoOf: nil, firstSeen: scanner.firstSeen, score: nil,
                          isUtility: false, similarGroup: nil)
        scanner.apply(r, to: &asset)
        claimed.insert(asset.id)
        return ([asset], .added(asset.id, path: r.path))
    }

    // MARK: Moves

    /// A file renamed within the library: its asset takes the new path, nothing is read.
    /// Returns false when no asset lived at `from` (the file was never indexed): then it is an arrival.
    private func move(from: String, to: String, scanner: Scanner, report: inout Report) throws -> Bool {
        guard var asset = try index.presentAsset(path: from) else { return false }
        var changed: [Asset] = []
        // A file renamed over another: the one it replaced is gone.
        if var replaced = try index.presentAsset(path: to), replaced.id != asset.id {
            replaced.state = .missing
            changed.append(replaced)
            report.entries.append(.removed(replaced.id, path: to))
        }
        asset.path = to
        if let st = lstatFile(to) { asset.inode = st.inode }
        scanner.refreshNameDerivedFields(&asset)
        changed.append(asset)
        try scanner.commit(changed)
        report.entries.append(.moved(asset.id, from: from, to: to))
        return true
    }

    /// A folder renamed within the library: every asset under it moves in one durable step.
    private func moveFolder(from: String, to: String, scanner: Scanner, report: inout Report) throws -> Bool {
        let assets = try index.presentAssets(under: from)
        guard !assets.isEmpty else { return false }
        var changed: [Asset] = []
        changed.reserveCapacity(assets.count)
        for var asset in assets {
            asset.path = to + asset.path.dropFirst(from.count)
            scanner.refreshNameDerivedFields(&asset)
            changed.append(asset)
        }
        try scanner.commit(changed)
        report.entries.append(.folderMoved(from: from, to: to, assets: changed.count))
        return true
    }

    // MARK: Removals

    /// Files and folders that went. What is back on disk by now is left alone; the rest becomes
    /// `missing` — unless so much went at once that an unmounted disk is the likelier story.
    private func remove(_ removals: [(path: String, isFolder: Bool)], scanner: Scanner, report: inout Report) throws -> Bool {
        guard !removals.isEmpty else { return false }
        guard library.looksPresent else {
            throw ShoeboxError(.massDisappearance, "the library folder \(library.root.path) is gone or unmounted; nothing was marked missing")
        }
        var gone: [AssetID: Asset] = [:]
        for (path, isFolder) in removals {
            let assets = try isFolder ? index.presentAssets(under: path) : index.presentAsset(path: path).map { [$0] } ?? []
            for a in assets where lstatFile(a.path) == nil { gone[a.id] = a }
        }
        guard !gone.isEmpty else { return false }
        let presentCount = try index.count(state: .present)
        let share = Double(gone.count) / Double(max(presentCount, 1))
        if gone.count >= options.massDisappearanceMinimum && share >= options.massDisappearanceShare {
            throw ShoeboxError(.massDisappearance, """
                \(gone.count) of \(presentCount) files vanished at once from \(library.root.path) — an unmounted disk or a \
                network share that is down? Nothing was marked missing
                """)
        }
        var changed: [Asset] = []
        for var asset in gone.values.sorted(by: { $0.path < $1.path }) {
            asset.state = .missing
            changed.append(asset)
            report.entries.append(.removed(asset.id, path: asset.path))
        }
        try scanner.commit(changed)
        return true
    }

    // MARK: Disk

    func lstatFile(_ path: String) -> FileStat? {
        var st = stat()
        guard lstat(library.url(for: path).path, &st) == 0 else { return nil }
        return FileStat(st)
    }

    /// Indexable regular files under a folder, without following links (by the scanner's walk's
    /// rule, `LibraryLayout`).
    func filesUnder(_ folder: String, problems: inout [FileProblem]) -> [String] {
        guard LibraryLayout.isIndexable(folder: folder) else { return [] }
        var out: [String] = []
        var stack = [folder]
        while let dir = stack.popLast() {
            guard let handle = opendir(library.url(for: dir).path) else { continue }
            defer { closedir(handle) }
            while let ent = readdir(handle) {
                let nameBytes = withUnsafeBytes(of: ent.pointee.d_name) { raw in
                    Array(raw.prefix { $0 != 0 })
                }
                guard let name = String(validating: nameBytes, as: UTF8.self) else {
                    if nameBytes.first != UInt8(ascii: ".") {
                        problems.append(FileProblem(path: displayPath(bytes: Array((dir + "/").utf8) + nameBytes), reason: FileProblem.nameNotUTF8))
                    }
                    continue
                }
                guard !LibraryLayout.isHidden(name) else { continue }  // ".", ".." and hidden entries
                let path = dir + "/" + name
                guard let st = lstatFile(path) else { continue }
                let isFolder = (st.mode & S_IFMT) == S_IFDIR
                guard LibraryLayout.admits(name, isFolder: isFolder, atRoot: dir.isEmpty) else { continue }
                if isFolder {
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
    /// The asset whose file is at `path` now.
    func presentAsset(path: String) throws -> Asset? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT \(Index.columns) FROM asset WHERE path = ? AND state = 'present'",
                             arguments: [path]).map(Index.asset(from:))
        }
    }

    /// Present assets under a folder, at any depth.
    func presentAssets(under folder: String) throws -> [Asset] {
        let prefix = folder + "/"
        return try read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(Index.columns) FROM asset WHERE state = 'present' AND substr(path, 1, ?) = ? ORDER BY path
                """, arguments: [prefix.unicodeScalars.count, prefix]).map(Index.asset(from:))
        }
    }

    /// Every asset with this content, most recently seen first.
    func assets(sha256: String) throws -> [Asset] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Index.columns) FROM asset WHERE sha256 = ? ORDER BY first_seen DESC, id",
                             arguments: [sha256]).map(Index.asset(from:))
        }
    }
}
