import Foundation
import MetadataCore

/// Reconciles the index with the disk. Unchanged files (same size, mtime and inode) are not
/// opened; changed and new files are hashed and read; a new path whose content (or inode)
/// matches a vanished or missing asset is that asset, moved, with its id; vanished files make
/// their assets `missing`. Every change goes through the library's `AssetWriter`.
public final class Scanner {
    /// Tunables shared with the live updater.
    public struct Options: Sendable {
        /// Refuse to mark more than this share of the library missing in one scan (a vanished mount)…
        public var massDisappearanceShare = 0.5
        /// …when at least this many assets would go.
        public var massDisappearanceMinimum = 20
        /// The user confirmed that the files are really gone.
        public var allowMassRemoval = false
        public var workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
        /// Files per durable step: sidecars written and flushed, one index transaction.
        public var batchSize = 256
        /// Days an item waits in `Recently Deleted/` (`[trash] retention_days`).
        public var trashRetentionDays = 30
        public init() {}
        /// The defaults with what the library's `config.toml` says.
        public init(settings: LibrarySettings) {
            massDisappearanceShare = settings.massDisappearanceShare
            trashRetentionDays = settings.trashRetentionDays
        }

        /// Whether losing `gone` of `present` assets at once looks like an unmounted disk.
        func isMassDisappearance(gone: Int, of present: Int) -> Bool {
            gone >= massDisappearanceMinimum && Double(gone) / Double(max(present, 1)) >= massDisappearanceShare
        }
    }

    let library: Library
    let index: Index
    let writer: AssetWriter
    let options: Options
    let now: Date
    /// Whole seconds, so that it reads back equal from the index and from a sidecar.
    var firstSeen: Date { Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)) }

    package init(library: Library, index: Index, options: Options = Options(), now: Date = ShoeboxClock.now()) {
        self.library = library
        self.index = index
        self.writer = AssetWriter(library: library, index: index)
        self.options = options
        self.now = now
    }

    /// Loads what the first new file would otherwise wait for (see `Derivation.preload`).
    public static func preload() { Derivation.preload() }

    /// `preload` on a thread of its own: a first scan reads every file, and the gazetteer
    /// (~10 ms of one core) is then loaded while the walk runs on this one, instead of in front
    /// of the first file's place while the readers want both cores. Signalled once loaded.
    static func preloadInBackground() -> DispatchSemaphore {
        let loaded = DispatchSemaphore(value: 0)
        let thread = Thread {
            preload()
            loaded.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
        return loaded
    }

    /// The background load of a first scan, waited for before the first file's place is derived:
    /// asleep on the semaphore, where the gazetteer's lazy initialiser (Swift's once, a priority-
    /// inheriting futex on Linux) makes the waiter spin on a core the readers want (~3 ms).
    private var gazetteerLoading: DispatchSemaphore?

    public func scan(progress: (@Sendable (ScanProgress) -> Void)? = nil) throws -> ScanReport {
        let started = Date()
        var report = ScanReport()
        try prepare(&report)
        let trashChanged = try ingest(&report, progress: progress)
        try followUp(&report, trashChanged: trashChanged)
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// Phases 2–5: the walk, moves, the changed files read, vanished ones settled. Returns
    /// whether the trash reconcile changed anything. What the walk found is let go on return,
    /// before the albums are written (a first scan's peak memory is the larger of the two).
    private func ingest(_ report: inout ScanReport, progress: (@Sendable (ScanProgress) -> Void)?) throws -> Bool {
        var merged = try WalkMerge(library: library, index: index).run()
        report.skipped = merged.walk.skipped
        report.neverIndexed = merged.neverIndexed
        report.failed += merged.walk.problems
        report.unchanged += merged.unchanged
        // Recently Deleted before the index is read for identities, and after the walk: a file that
        // went there (or came back) is not a vanished one, and a file dragged out of it while the
        // walk ran is seen leaving (then found by its content, same id) before the walk's view of
        // it is used — never taken for new content while its asset still counts as trashed.
        let trashChanged = try recentlyDeleted().reconcile().changed
        if trashChanged {
            // What the merge read is the index before the reconcile: keep what is still present there.
            var current: [AssetID: Index.FileRecord] = [:]
            for r in try index.fileRecords(ids: merged.vanished.values.map(\.id)) { current[r.id] = r }
            merged.vanished = merged.vanished.filter { current[$0.value.id] == $0.value }
            merged.replaced = []
            for start in stride(from: 0, to: merged.changed.count, by: 4096) {
                let paths = (start..<min(start + 4096, merged.changed.count)).map(merged.changed.path(at:))
                merged.replaced += try index.presentFileRecords(at: paths)
            }
        }

        var state = try ScanState(merged, index: index)
        let walkedFiles = merged.walk.fileCount
        let changed = merged.changed
        // The folders where the walk saw an XMP sidecar: elsewhere no photo is looked for one
        // (four failed opens a photo). One written after the walk is found by the next scan
        // (`XMPSidecarChanges`: a sidecar with no photo stamped by it).
        let sidecarFolders = Set(merged.sidecars.keys.map(LibraryPath.parent))
        merged = WalkMerge.Result()
        let unmoved = try pairMovesByInode(changed, &state, &report)
        try readChanged(unmoved, sidecarFolders: sidecarFolders, &state, &report, progress: progress)
        try settleVanished(&state, walkedFiles: walkedFiles, &report)
        return trashChanged
    }

    /// What one scan tracks between its phases.
    struct ScanState {
        /// Only what `FileIdentity.resolve` can pick for a changed file: the present records at
        /// the changed paths, the vanished ones, the missing ones (the scan never takes a trashed
        /// asset back). The same decisions as over every record, without a million in memory.
        var known: KnownFiles
        /// Present assets whose files are not on disk, by path: moved, or gone.
        var vanished: [String: Index.FileRecord]
        /// Assets given a file in this scan.
        var claimed = Set<AssetID>()
        /// Present assets in the index when the identities were decided.
        let presentCount: Int

        init(_ merged: WalkMerge.Result, index: Index) throws {
            vanished = merged.vanished
            var records: [AssetID: Index.FileRecord] = [:]
            for r in merged.replaced { records[r.id] = r }
            for r in merged.vanished.values { records[r.id] = r }
            for r in try index.fileRecords(state: .missing) { records[r.id] = r }
            known = KnownFiles(Array(records.values))
            presentCount = try index.count(state: .present)
        }
    }

    /// Phase 1: a crashed batch replayed, dead writers' temporaries removed, an empty index refilled.
    private func prepare(_ report: inout ScanReport) throws {
        let empty = try index.count() == 0
        if empty { gazetteerLoading = Scanner.preloadInBackground() }
        try writer.recoverUnfinishedBatch()
        for folder in [LibraryLayout.stateFolder, LibraryLayout.sidecarsFolder, UserAlbums.stateFolder,
                       RecentlyDeleted.folderName + "/info", LibraryLayout.collagesFolder] where library.files.exists(folder) {
            try library.files.withFolder(folder) { AtomicFile.removeTemporariesOfDeadWriters(inFolder: $0) }
        }
        // Counted again: the replayed batch may have put rows into an index that was empty.
        if empty, try index.count() == 0 {
            // An empty index beside sidecars was deleted or lost: refill it, or every file would get a new id.
            let (found, bad) = writer.sidecars.readAll()
            report.failed += bad.map { FileProblem(path: $0.path, reason: $0.reason) }
            try index.load(found)
        }
    }

    /// Phase 2 is the walk merged with the index (`WalkMerge`).
    /// Phase 3: a file renamed or moved while nobody watched keeps its inode, size and mtime: that
    /// is a move, found without reading a byte. Returns the files still to read.
    private func pairMovesByInode(_ changed: WalkedFiles, _ state: inout ScanState,
                                  _ report: inout ScanReport) throws -> WalkedFiles {
        // A first scan has nothing vanished: its list is read as it is, not copied.
        guard !state.vanished.isEmpty else { return changed }
        var vanishedByInode: [UInt64: Index.FileRecord] = [:]
        for r in state.vanished.values { vanishedByInode[r.inode] = r }
        var moved: [Asset] = []
        var toRead = WalkedFiles()
        for e in changed {
            if state.known.present(at: e.path) == nil, let r = vanishedByInode[e.stat.inode], r.sameFile(as: e.stat),
               state.vanished[r.path] != nil, var asset = try index.asset(id: r.id) {
                state.vanished[r.path] = nil
                vanishedByInode[e.stat.inode] = nil
                state.claimed.insert(r.id)
                asset.path = e.path
                asset.inode = e.stat.inode
                Derivation.refresh(&asset)
                moved.append(asset)
                report.moved += 1
            } else {
                toRead.append(e)
            }
        }
        try writer.commit(moved)
        return toRead
    }

    /// Phase 4: read what changed on worker threads while this thread decides, in file order,
    /// what each file is, committing in durable batches.
    private func readChanged(_ files: WalkedFiles, sidecarFolders: Set<String>, _ state: inout ScanState, _ report: inout ScanReport,
                             progress: (@Sendable (ScanProgress) -> Void)?) throws {
        var loop = IngestLoop(writer: writer, workers: options.workers, batchSize: options.batchSize, now: now)
        loop.sidecarFolders = sidecarFolders
        try loop.run(files, progress: progress, decide: { event in
            switch event {
            case .failed(let problem):
                report.failed.append(problem)
                return []
            case .ignored(let problem):
                report.neverIndexed.append(problem)
                return []
            case .read(let r):
                if let loading = gazetteerLoading {
                    loading.wait()
                    gazetteerLoading = nil
                }
                report.bytesRead += r.stat.size
                if let w = r.warning { report.warnings.append(FileProblem(path: r.path, reason: w)) }
                return try identify(r, &state, &report)
            }
        })
    }

    /// Decides what a freshly read file is; returns every asset whose record changes.
    private func identify(_ r: FileProbe.Result, _ state: inout ScanState, _ report: inout ScanReport) throws -> [Asset] {
        let vanished = state.vanished
        let (identity, displaced) = FileIdentity.resolve(path: r.path, sha256: r.sha256, in: state.known,
                                                         claimed: state.claimed, allowTrashed: false) { vanished[$0.path] != nil }
        var changed: [Asset] = []
        if let displaced, var asset = try index.asset(id: displaced) {
            // Another file was moved over this one: the mover keeps its id, this asset is gone.
            asset.state = .missing
            changed.append(asset)
            state.claimed.insert(displaced)
            report.removed += 1
        }
        var asset: Asset
        switch identity {
        case .samePath(let id, let edited):
            guard let found = try index.asset(id: id) else { return changed }
            // A photo read again for its XMP sidecar alone is updated too.
            if edited || found.metadata.xmpSidecar != r.metadata.xmpSidecar { report.updated += 1 } else { report.unchanged += 1 }
            asset = found
        case .found(let id, let was):
            guard let found = try index.asset(id: id) else { return changed }
            asset = found
            if was == .vanished {
                state.vanished[found.path] = nil
                report.moved += 1
            } else {
                report.returned += 1
            }
        case .new:
            report.added += 1
            return changed + [Asset(newFrom: r, firstSeen: firstSeen)]
        }
        state.claimed.insert(asset.id)
        asset.take(r)
        return changed + [asset]
    }

    /// Phase 5: what is still vanished is gone — unless so much went at once that an unmounted
    /// disk is the likelier story.
    private func settleVanished(_ state: inout ScanState, walkedFiles: Int, _ report: inout ScanReport) throws {
        let vanished = state.vanished.values.filter { !state.claimed.contains($0.id) }
        guard !vanished.isEmpty else { return }
        let presentCount = state.presentCount
        let mass = options.isMassDisappearance(gone: vanished.count, of: presentCount)
            || (vanished.count == presentCount && presentCount >= 5 && walkedFiles == 0)
        if mass && !options.allowMassRemoval {
            throw ShoeboxError(.massDisappearance, """
                \(vanished.count) of \(presentCount) files vanished at once from \(library.root.path) — an unmounted disk or a \
                network share that is down? Nothing was marked missing
                """, remedy: LibraryRemedy.scanAllowingMassRemoval)
        }
        let gone = try writer.update(vanished.map(\.id)) { $0.state = .missing }
        report.removed += gone.count
    }

    /// Phase 6: groupings when anything changed, derived fields under today's rules, albums, counts.
    private func followUp(_ report: inout ScanReport, trashChanged: Bool) throws {
        let changedAny = report.added + report.moved + report.returned + report.removed + report.updated > 0
        // Trash reconcile counts too: a Live Photo whose photo it found trashed (a `trash` killed
        // between its two files) leaves a video that must stop pointing at it, or `list` hides it.
        let outdated = try Derivation.isOutdated(writer.index)
        // Re-derived first (an index from before version 4 has its files' headers read again, so
        // Live Photo content identifiers are known), then regrouped: since version 3 Live Photos
        // need evidence, and an index made under older rules is regrouped once.
        try Derivation.rederiveIfOutdated(writer: writer, batchSize: options.batchSize, now: now)
        if changedAny || trashChanged || outdated { try Grouping(writer: writer).regroup() }
        let albums = try writer.afterChange(regroup: false)
        report.albumsOff = albums.off
        report.removedFromAlbums = albums.removedByHand.count
        report.warnings += albums.problems.map { FileProblem(path: AlbumLinker.folderName, reason: $0) }
        report.warnings += albums.movedAside.map { FileProblem(path: $0.from, reason: AlbumSyncReport.movedAsideReason(to: $0.to)) }
        report.duplicates = try index.count(AssetQuery.presentDuplicates)
        report.failed.sort { $0.path < $1.path }
        report.skipped.sort { $0.path < $1.path }
        report.neverIndexed.sort { $0.path < $1.path }
        report.warnings.sort { $0.path < $1.path }
    }

    func recentlyDeleted() -> RecentlyDeleted {
        RecentlyDeleted(library: library, index: index, retentionDays: options.trashRetentionDays, now: now, writer: writer)
    }
}
