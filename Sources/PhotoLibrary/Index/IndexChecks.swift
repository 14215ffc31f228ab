import Foundation

/// The index against the disk, by size, mtime and inode only: shared by the `index` check and
/// the `unindexable` one (`IngestChecks`), which must agree on which files are which.
struct IndexAgainstDisk {
    /// Present assets in the index.
    var indexed = 0
    /// Media files the index lacks that a scan would index.
    var unindexed = 0
    /// Indexed files whose size, mtime or inode changed.
    var changed = 0
    /// Indexed files no longer on disk.
    var vanished = 0
    /// Files a scan cannot index (damaged, not a photo, a name that is not UTF-8).
    var unindexable: [FileProblem] = []

    /// Probing stops once this many unindexed files turned out indexable (a scan is needed
    /// then anyway); the rest are counted as not indexed. Files that cannot be indexed do not
    /// count: thousands of them must not make `doctor` ask for a scan that cannot help.
    static let probeLimit = 200

    init(_ context: DoctorContext) throws {
        let walked = context.walked
        let records = try context.index.fileRecords().filter { $0.state == .present }
        indexed = records.count
        var byPath: [String: Index.FileRecord] = [:]
        for r in records { byPath[r.path] = r }
        var seen = Set<String>()
        var notInIndex: [String] = []
        for f in walked.files {
            seen.insert(f.path)
            guard let r = byPath[f.path] else {
                let ext = (f.path as NSString).pathExtension.lowercased()
                guard FileProbe.mediaExtensions.contains(ext) else { continue }
                // Known without opening it (the scan says the same).
                if f.stat.size == 0 { unindexable.append(FileProblem(path: f.path, reason: FileProbe.emptyFile)) }
                else { notInIndex.append(f.path) }
                continue
            }
            if r.size != f.stat.size || r.mtimeNS != f.stat.mtimeNS || r.inode != f.stat.inode { changed += 1 }
        }
        unindexable += walked.problems.filter(\.isAboutTheName)
        probe(notInIndex, in: context.library)
        vanished = byPath.keys.filter { !seen.contains($0) }.count
    }

    /// A file the scan cannot index (damaged, not a photo, a bomb) is not a stale index: look at
    /// them the way the scan does (headers and structure, not the whole file), so that `doctor`
    /// does not ask for a scan that cannot help — until `probeLimit` turned out indexable.
    private mutating func probe(_ notInIndex: [String], in library: Library) {
        guard !notInIndex.isEmpty else { return }
        let probe = FileProbe(library: library, now: Date())
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 64)
        defer { buffer.deallocate() }
        for (i, path) in notInIndex.enumerated() {
            guard unindexed < IndexAgainstDisk.probeLimit else { unindexed += notInIndex.count - i; break }
            switch probe.probe(path, buffer: buffer, hashing: false) {
            case .failed(let problem) where !problem.stillBeingWritten: unindexable.append(problem)
            case .ignored: break
            default: unindexed += 1
            }
        }
    }
}

/// `index`: every media file on disk indexed, and every indexed file as the index remembers it.
struct IndexMatchesDiskCheck: DoctorCheck {
    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] {
        let d = try context.shared(IndexAgainstDisk.init)
        if d.unindexed + d.changed + d.vanished == 0 {
            return [.ok("index", "\(d.indexed) files indexed, matching the disk")]
        }
        return [.problem("index", "\(d.unindexed) files not indexed, \(d.changed) changed, \(d.vanished) vanished since the last scan",
                         fix: context.scanCommand)]
    }
}
