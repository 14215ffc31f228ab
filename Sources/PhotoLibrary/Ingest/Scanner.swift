import Foundation
import GRDB
import Metadata
import Places
#if canImport(Glibc)
import Glibc
#endif

/// What a scan did, for the summary line and `scan --json`.
public struct ScanReport: Codable, Sendable {
    public var added = 0
    public var updated = 0
    public var moved = 0
    /// Assets that were missing and whose content came back (same id).
    public var returned = 0
    /// Assets whose file vanished: now `missing`, sidecar kept.
    public var removed = 0
    public var unchanged = 0
    public var duplicates = 0
    public var failed: [FileProblem] = []
    public var skipped: [FileProblem] = []
    public var warnings: [FileProblem] = []
    public var bytesRead: Int64 = 0
    public var seconds: Double = 0
    /// Why `Albums/` is not kept (a file system without symbolic links); nil when it is.
    public var albumsOff: String?
    /// Assets taken out of user albums because their links were deleted by hand.
    public var removedFromAlbums = 0

    public init() {}

    // snake_case like every JSON Shoebox prints.
    enum CodingKeys: String, CodingKey {
        case added, updated, moved, returned, removed, unchanged, duplicates, failed, skipped, warnings, seconds
        case bytesRead = "bytes_read", albumsOff = "albums_off", removedFromAlbums = "removed_from_albums"
    }
}

/// Progress of a scan: files handled of files to read, bytes read.
public struct ScanProgress: Sendable {
    public var done: Int
    public var total: Int
    public var bytes: Int64
}

/// Reconciles the index with the disk. Unchanged files (same size, mtime and inode) are not
/// opened; changed and new files are hashed and read; a new path whose content (or inode)
/// matches a vanished or missing asset is that asset, moved, with its id; vanished files make
/// their assets `missing`.
public final class Scanner {
    public struct Options: Sendable {
        /// Refuse to mark more than this share of the library missing in one scan (a vanished mount)…
        public var massDisappearanceShare = 0.5
        /// …when at least this many assets would go.
        public var massDisappearanceMinimum = 20
        /// The user confirmed that the files are really gone.
        public var allowMassRemoval = false
        public var workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
        /// Files per durable step: sidecars written, one file-system flush, one index transaction.
        public var batchSize = 256
        /// Days an item waits in `Recently Deleted/` (`[trash] retention_days`).
        public var trashRetentionDays = 30
        public init() {}
        /// The defaults with what the library's `config.toml` says.
        public init(settings: LibrarySettings) {
            massDisappearanceShare = settings.massDisappearanceShare
            trashRetentionDays = settings.trashRetentionDays
        }
    }

    let library: Library
    let index: Index
    let sidecars: SidecarStore
    let options: Options
    let now: Date
    /// Whole seconds, so that it reads back equal from the index and from a sidecar.
    var firstSeen: Date { Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)) }

    public init(library: Library, index: Index, options: Options = Options(), now: Date = ShoeboxClock.now()) {
        self.library = library
        self.index = index
        self.sidecars = SidecarStore(library: library)
        self.options = options
        self.now = now
    }

    /// Loads what the first new file would otherwise wait for (the gazetteer, ~0.1 s), so that a
    /// long-running watcher's first arrival is indexed as fast as the rest.
    public static func preload() { _ = Gazetteer.shared }

    public func scan(progress: (@Sendable (ScanProgress) -> Void)? = nil) throws -> ScanReport {
        let started = Date()
        var report = ScanReport()
        try ScanJournal(library: library).recover(into: index, sidecars: sidecars)
        for folder in [library.stateFolder.path, library.sidecarFolder.path, UserAlbums(library: library).folder.path,
                       recentlyDeleted().infoFolder] {
            AtomicFile.removeTemporariesOfDeadWriters(in: folder)
        }
        if try index.count() == 0 {
            // An empty index beside sidecars was deleted or lost: refill it, or every file would get a new id.
            let found = sidecars.all { report.failed.append(FileProblem(path: ".shoebox/sidecars", reason: $0)) }
            try index.load(found)
        }
        let walked = try LibraryWalker(library: library).walk()
        report.skipped = walked.skipped
        report.failed = walked.problems
        // Recently Deleted before the index is read, and after the walk: a file that went there (or
        // came back) is not a vanished one, and a file dragged out of it while the walk ran is seen
        // leaving (then found by its content, same id) before the walk's view of it is used — never
        // taken for new content while its asset still counts as trashed.
        try recentlyDeleted().reconcile()

        let records = try index.fileRecords()
        var presentByPath: [String: Index.FileRecord] = [:]
        var missingBySHA: [String: [Index.FileRecord]] = [:]
        for r in records {
            switch r.state {
            case .present:
                presentByPath[r.path] = r
            case .missing:
                missingBySHA[r.sha256, default: []].append(r)
            case .trashed:
                break
            }
        }

        var onDisk = Set<String>()
        onDisk.reserveCapacity(walked.files.count)
        var toRead: [LibraryWalker.Entry] = []
        for e in walked.files {
            if FileProbe.isKnownOther(e.path) { continue }
            onDisk.insert(e.path)
            if let r = presentByPath[e.path], r.size == e.stat.size, r.mtimeNS == e.stat.mtimeNS, r.inode == e.stat.inode {
                report.unchanged += 1
            } else {
                toRead.append(e)
            }
        }
        var vanished: [String: Index.FileRecord] = [:]
        let unknown = walked.unreadableFolders.map { $0 + "/" }
        for (path, r) in presentByPath where !onDisk.contains(path) && !unknown.contains(where: path.hasPrefix) {
            vanished[path] = r
        }

        // A file renamed or moved while nobody watched keeps its inode, size and mtime: that is
        // a move, found without reading a byte.
        var vanishedByInode: [UInt64: Index.FileRecord] = [:]
        for r in vanished.values { vanishedByInode[r.inode] = r }
        var changes: [Asset] = []
        var remaining: [LibraryWalker.Entry] = []
        for e in toRead {
            if presentByPath[e.path] == nil, let r = vanishedByInode[e.stat.inode],
               r.size == e.stat.size, r.mtimeNS == e.stat.mtimeNS, vanished[r.path] != nil,
               var asset = try index.asset(id: r.id) {
                vanished[r.path] = nil
                vanishedByInode[e.stat.inode] = nil
                asset.path = e.path
                asset.inode = e.stat.inode
                refreshNameDerivedFields(&asset)
                changes.append(asset)
                report.moved += 1
            } else {
                remaining.append(e)
            }
        }
        for r in vanished.values { missingBySHA[r.sha256, default: []].append(r) }

        // Read what changed on worker threads while this thread reconciles, in file order, and
        // commits in durable batches: the hashing never waits for the index.
        let probe = FileProbe(library: library, now: now)
        let total = remaining.count
        let pipeline = ProbePipeline(files: remaining, workers: options.workers, window: options.batchSize * 2) { done, bytes in
            progress?(ScanProgress(done: done, total: total, bytes: bytes))
        }
        pipeline.start(probe)
        defer { pipeline.stop() }
        var pending = changes
        while let outcome = pipeline.next() {
            switch outcome {
            case .ignored:
                break
            case .failed(let problem):
                report.failed.append(problem)
            case .indexed(let result):
                report.bytesRead += result.stat.size
                if let w = result.warning { report.warnings.append(FileProblem(path: result.path, reason: w)) }
                pending += try reconcile(result, presentByPath: presentByPath, vanished: &vanished,
                                         missingBySHA: &missingBySHA, report: &report)
            }
            if pending.count >= options.batchSize {
                try commit(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        try commit(pending)

        // What is still vanished is gone, unless so much went at once that a mount is the likelier story.
        let presentCount = presentByPath.count
        if !vanished.isEmpty {
            let share = Double(vanished.count) / Double(max(presentCount, 1))
            let mass = (vanished.count >= options.massDisappearanceMinimum && share >= options.massDisappearanceShare)
                || (vanished.count == presentCount && presentCount >= 5 && walked.files.isEmpty)
            if mass && !options.allowMassRemoval {
                throw ShoeboxError(.massDisappearance, """
                    \(vanished.count) of \(presentCount) files vanished at once from \(library.root.path) — an unmounted disk or a \
                    network share that is down? Nothing was marked missing; if they are really gone, run `shoebox scan --allow-mass-removal`
                    """)
            }
            var gone: [Asset] = []
            for r in vanished.values {
                guard var asset = try index.asset(id: r.id) else { continue }
                asset.state = .missing
                gone.append(asset)
                report.removed += 1
            }
            try commit(gone)
        }
        if report.added + report.moved + report.returned + report.removed + report.updated > 0 {
            try regroupDuplicates()
            try pairLivePhotos()
        }
        try rederiveIfOutdated()
        let albums = try AlbumLinker(library: library, index: index).sync()
        report.albumsOff = albums.off
        report.removedFromAlbums = albums.removedByHand.count
        report.warnings += albums.problems.map { FileProblem(path: AlbumLinker.folderName, reason: $0) }
        report.duplicates = try index.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset WHERE state = 'present' AND duplicate_of IS NOT NULL") ?? 0
        }
        report.failed.sort { $0.path < $1.path }
        report.skipped.sort { $0.path < $1.path }
        report.warnings.sort { $0.path < $1.path }
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// Decides what a freshly read file is: the same asset changed, a moved or returning one, or new.
    /// Returns every asset whose record changes.
    private func reconcile(_ r: FileProbe.Result, presentByPath: [String: Index.FileRecord],
                           vanished: inout [String: Index.FileRecord], missingBySHA: inout [String: [Index.FileRecord]],
                           report: inout ScanReport) throws -> [Asset] {
        var changed: [Asset] = []
        if let old = presentByPath[r.path], var asset = try index.asset(id: old.id) {
            let movedHere = old.sha256 != r.sha256
                ? missingBySHA[r.sha256]?.firstIndex { vanished[$0.path]?.id == $0.id } : nil
            if movedHere == nil {
                // Same path: an edit in place (or only a touch) keeps the id.
                if old.sha256 != r.sha256 { report.updated += 1 } else { report.unchanged += 1 }
                apply(r, to: &asset)
                return [asset]
            }
            // Another file was moved over this one: the mover keeps its id, this asset is gone.
            asset.state = .missing
            changed.append(asset)
            report.removed += 1
        }
        if var candidates = missingBySHA[r.sha256], !candidates.isEmpty {
            // Prefer the one that vanished in this scan (a move), then the most recently missing.
            let pick = candidates.firstIndex { vanished[$0.path]?.id == $0.id } ?? 0
            let old = candidates.remove(at: pick)
            missingBySHA[r.sha256] = candidates
            if var asset = try index.asset(id: old.id) {
                if vanished[old.path]?.id == old.id {
                    vanished[old.path] = nil
                    report.moved += 1
                } else {
                    report.returned += 1
                }
                apply(r, to: &asset)
                return changed + [asset]
            }
        }
        var asset = Asset(id: AssetID(), path: r.path, state: .present, size: r.stat.size, mtimeNS: r.stat.mtimeNS,
                          inode: r.stat.inode, sha256: r.sha256, kind: .photo, metadata: r.metadata,
                          place: nil, duplicateOf: nil, livePhotoOf: nil, firstSeen: firstSeen, score: nil,
                          isUtility: false, similarGroup: nil)
        apply(r, to: &asset)
        report.added += 1
        return changed + [asset]
    }

    func apply(_ r: FileProbe.Result, to asset: inout Asset) {
        asset.path = r.path
        asset.state = .present
        asset.size = r.stat.size
        asset.mtimeNS = r.stat.mtimeNS
        asset.inode = r.stat.inode
        asset.sha256 = r.sha256
        asset.metadata = r.metadata
        asset.trash = nil
        refreshNameDerivedFields(&asset)
    }

    /// Kind and place depend on the name and metadata: recompute after a move or an edit.
    func refreshNameDerivedFields(_ asset: inout Asset) {
        let m = asset.metadata
        asset.kind = AssetClassifier.kind(of: m, name: asset.name)
        // XMP/IPTC city and country first; else the GPS position through the bundled gazetteer.
        if m.city != nil || m.country != nil {
            asset.place = Place(city: m.city, country: m.country)
        } else if let gps = m.gps, let p = Gazetteer.shared.place(near: gps.lat, lon: gps.lon) {
            asset.place = Place(city: p.city, country: p.country)
        } else {
            asset.place = nil
        }
        asset.isUtility = asset.kind == .screenshot
    }

    func recentlyDeleted() -> RecentlyDeleted {
        RecentlyDeleted(library: library, index: index, retentionDays: options.trashRetentionDays, now: now)
    }

    /// After assets changed state or place: duplicates and Live Photos regrouped, albums rewritten.
    @discardableResult
    func afterMembershipChange() throws -> AlbumSyncReport {
        try regroupDuplicates()
        try pairLivePhotos()
        return try AlbumLinker(library: library, index: index).sync()
    }

    /// Bumped when the rules for name- and metadata-derived fields (kind, place, utility) change;
    /// 2: places from the gazetteer.
    static let derivationVersion = "2"

    /// Assets indexed under older rules get today's kind and place, without reading their files.
    func rederiveIfOutdated() throws {
        guard try index.meta("derivation") != Scanner.derivationVersion else { return }
        var changed: [Asset] = []
        for var asset in try index.allAssets() {
            let before = asset
            refreshNameDerivedFields(&asset)
            if asset != before { changed.append(asset) }
            if changed.count >= options.batchSize {
                try commit(changed)
                changed.removeAll(keepingCapacity: true)
            }
        }
        try commit(changed)
        try index.setMeta("derivation", Scanner.derivationVersion)
    }

    /// Sidecars first (the truth), then one flush, then the index; a journal names the batch so a
    /// crash between the two is repaired from the sidecars at the next start.
    func commit(_ assets: [Asset]) throws {
        guard !assets.isEmpty else { return }
        let journal = ScanJournal(library: library)
        try journal.begin(assets.map(\.id))
        try sidecars.writeBatch(assets)
        try index.save(assets)
        journal.end()
    }

    /// Byte-identical present files: the first seen (then first by path) is the original, every
    /// other points to it. Recomputed after changes, so an edited or vanished original hands over.
    func regroupDuplicates() throws {
        let rows = try index.read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, sha256, duplicate_of FROM asset
                WHERE state = 'present' AND (duplicate_of IS NOT NULL OR sha256 IN (
                    SELECT sha256 FROM asset WHERE state = 'present' GROUP BY sha256 HAVING COUNT(*) > 1))
                ORDER BY sha256, first_seen, path, id
                """)
        }
        var originalOf: [String: String] = [:]
        var changed: [Asset] = []
        for r in rows {
            let id: String = r[0], sha: String = r[1], current: String? = r[2]
            let want: String?
            if let original = originalOf[sha] { want = original } else { originalOf[sha] = id; want = nil }
            if want != current, var asset = try index.asset(id: AssetID(trusted: id)) {
                asset.duplicateOf = want.map(AssetID.init(trusted:))
                changed.append(asset)
            }
        }
        try commit(changed)
    }

    /// The video half of a Live Photo (a MOV with the same folder and stem as a HEIC/JPEG) belongs to the photo.
    func pairLivePhotos() throws {
        let rows = try index.read { db in
            try PairRow.fetch(db)
        }
        var photoByStem: [String: AssetID] = [:]
        for r in rows where r.format == .heic || r.format == .jpeg {
            photoByStem[r.stemKey] = r.id
        }
        var changed: [Asset] = []
        for r in rows where r.format == .mov {
            let partner = photoByStem[r.stemKey]
            if partner != r.livePhotoOf, var asset = try index.asset(id: r.id) {
                asset.livePhotoOf = partner
                changed.append(asset)
            }
        }
        try commit(changed)
    }
}

struct PairRow {
    var id: AssetID
    var path: String
    var format: MediaFormat
    var livePhotoOf: AssetID?

    var stemKey: String { ((path as NSString).deletingPathExtension).lowercased() }

    static func fetch(_ db: Database) throws -> [PairRow] {
        try Row.fetchAll(db, sql: """
            SELECT id, path, format, live_photo_of FROM asset
            WHERE state = 'present' AND format IN ('heic', 'jpeg', 'mov')
            """).compactMap { r in
            guard let f = MediaFormat(rawValue: r[2]) else { return nil }
            return PairRow(id: AssetID(trusted: r[0]), path: r[1], format: f,
                           livePhotoOf: (r[3] as String?).map(AssetID.init(trusted:)))
        }
    }
}
