import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// What `rebuild` did; `RebuildReportJSON` is what `rebuild --json` prints.
public struct RebuildReport: Sendable {
    public var sidecars = 0
    /// Sidecars that gave no asset: each moved into `.shoebox/invalid-sidecars/` (or, written by
    /// a newer Shoebox, left in place), its reason saying which.
    public var badSidecars: [FileProblem] = []
    /// Sidecars that were missing or not valid, written again from the index being replaced.
    public var sidecarsFromIndex = 0
    public var scan = ScanReport()
}

extension Index {
    /// Fills the index from sidecars. If two sidecars claim one present path, the older keeps
    /// it and the other waits as missing (its content may turn up elsewhere).
    func load(_ sidecars: [Sidecar]) throws {
        let ordered = sidecars.map(\.asset).sorted { ($0.firstSeen, $0.id) < ($1.firstSeen, $1.id) }
        var taken = Set<String>()
        let assets = ordered.map { asset -> Asset in
            guard asset.state == .present else { return asset }
            var a = asset
            if !taken.insert(a.path).inserted { a.state = .missing }
            return a
        }
        try save(assets)
    }
}

extension Library {
    /// Deletes the index and recreates it from the sidecars (same ids, same metadata), then
    /// reconciles it with the files by a scan. The sidecars are the truth; the index only a cache,
    /// but one that still knows an asset whose sidecar is lost or damaged (`repairSidecars`).
    public func rebuild(options: Scanner.Options = Scanner.Options(), now: Date = ShoeboxClock.now(),
                        progress: (@Sendable (ScanProgress) -> Void)? = nil) throws -> RebuildReport {
        var report = RebuildReport()
        // Build beside the old index and swap, so a failed rebuild leaves the old index usable.
        let fresh = stateFolder.appendingPathComponent("index.rebuild.sqlite")
        try files.removeFiles(["", "-wal", "-shm"].map { fresh.lastPathComponent + $0 }, inFolder: LibraryLayout.stateFolder)
        let (all, problems, rewritten) = repairSidecars()
        report.badSidecars = problems
        report.sidecarsFromIndex = rewritten
        report.sidecars = all.count
        do {
            let index = try Index(library: self, path: fresh)
            try index.load(all)
            // Everything into the main file before it is renamed: the WAL is named after the old name.
            try index.close()
        }
        try replaceIndex(with: fresh)
        let index = try Index(library: self)
        report.scan = try Scanner(library: self, index: index, options: options, now: now).scan(progress: progress)
        return report
    }

    /// Puts the index built at `fresh` in place of the library's. Its pages are copied into the
    /// index file itself (SQLite's backup, through the index's own locks and WAL), not renamed
    /// over it: a `watch` or a reader holding the index open goes on with the same file and sees
    /// the new contents, and when its connections close they delete nothing of the new index's
    /// (a replaced file's last connection deletes the `-wal` and `-shm` by name). Only an index
    /// too damaged to open is replaced by a rename.
    func replaceIndex(with fresh: URL) throws {
        let freshFiles = ["", "-wal", "-shm"].map { fresh.lastPathComponent + $0 }
        if let live = try? Index(library: self), live.readOnlyReason == nil {
            try live.replaceContents(withIndexAt: fresh)
            try files.removeFiles(freshFiles, inFolder: LibraryLayout.stateFolder)
            return
        }
        try files.withFolder(LibraryLayout.stateFolder) { dir in
            for suffix in ["-wal", "-shm"] { unlinkat(dir, indexURL.lastPathComponent + suffix, 0) }
            guard renameat(dir, fresh.lastPathComponent, dir, indexURL.lastPathComponent) == 0 else {
                throw ShoeboxError(.io, "cannot replace \(indexURL.path): \(ShoeboxError.errnoText())")
            }
            fsync(dir)
        }
    }
}

extension Index {
    /// Replaces every page of this index with those of the index file at `source` (closed),
    /// then moves the generation past both: a process that cached what it read (the watcher's
    /// file records, album stamps) sees that another process wrote.
    func replaceContents(withIndexAt source: URL) throws {
        let before = Int(try generation()) ?? 0
        do {
            let copy = try DatabaseQueue(path: confinementPath(of: source))
            try copy.backup(to: pool)
            try copy.close()
        } catch {
            throw ShoeboxError(.index, "cannot copy the rebuilt index into \(library.indexURL.path)", underlying: error)
        }
        let after = Int(try generation()) ?? 0
        try setMeta("generation", String(before + after + 1))
    }
}
