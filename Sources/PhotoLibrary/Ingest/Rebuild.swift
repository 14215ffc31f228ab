import Foundation
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
        for suffix in ["", "-wal", "-shm"] { unlink(fresh.path + suffix) }
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
        for suffix in ["-wal", "-shm"] { unlink(indexURL.path + suffix) }
        guard rename(fresh.path, indexURL.path) == 0 else {
            throw ShoeboxError(.io, "cannot replace \(indexURL.path): \(ShoeboxError.errnoText())")
        }
        AtomicFile.syncDirectory(stateFolder.path)
        let index = try Index(library: self)
        report.scan = try Scanner(library: self, index: index, options: options, now: now).scan(progress: progress)
        return report
    }
}
