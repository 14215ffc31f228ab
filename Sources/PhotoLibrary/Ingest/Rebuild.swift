import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What `rebuild` did; `RebuildReportJSON` is what `rebuild --json` prints.
public struct RebuildReport: Sendable {
    public var sidecars = 0
    public var badSidecars: [FileProblem] = []
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
    /// reconciles it with the files by a scan. The sidecars are the truth; the index only a cache.
    public func rebuild(options: Scanner.Options = Scanner.Options(), now: Date = ShoeboxClock.now(),
                        progress: (@Sendable (ScanProgress) -> Void)? = nil) throws -> RebuildReport {
        var report = RebuildReport()
        // Build beside the old index and swap, so a failed rebuild leaves the old index usable.
        let fresh = stateFolder.appendingPathComponent("index.rebuild.sqlite")
        try files.removeFiles(["", "-wal", "-shm"].map { fresh.lastPathComponent + $0 }, inFolder: LibraryLayout.stateFolder)
        let sidecars = SidecarStore(library: self)
        let all = sidecars.all { report.badSidecars.append(FileProblem(path: ".shoebox/sidecars", reason: $0)) }
        report.sidecars = all.count
        do {
            let index = try Index(library: self, path: fresh)
            try index.load(all)
            // Everything into the main file before it is renamed: the WAL is named after the old name.
            try index.close()
        }
        try files.withFolder(LibraryLayout.stateFolder) { dir in
            for suffix in ["-wal", "-shm"] { unlinkat(dir, indexURL.lastPathComponent + suffix, 0) }
            guard renameat(dir, fresh.lastPathComponent, dir, indexURL.lastPathComponent) == 0 else {
                throw ShoeboxError(.io, "cannot replace \(indexURL.path): \(ShoeboxError.errnoText())")
            }
            fsync(dir)
        }
        let index = try Index(library: self)
        report.scan = try Scanner(library: self, index: index, options: options, now: now).scan(progress: progress)
        return report
    }
}
