import Foundation
import MetadataCore

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
    /// Files a scan leaves alone (a GIF, a note; not XMP sidecars), each with its kind.
    var notIndexed: [FileProblem] = []

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
        var notInIndex: [String] = [], others: [String] = []
        for f in walked.files {
            seen.insert(f.path)
            guard let r = byPath[f.path] else {
                let ext = (f.path as NSString).pathExtension.lowercased()
                guard FileProbe.mediaExtensions.contains(ext) else { others.append(f.path); continue }
                // Known without opening it (the scan says the same).
                if f.stat.size == 0 { unindexable.append(FileProblem(path: f.path, reason: FileProbe.emptyFile)) }
                else { notInIndex.append(f.path) }
                continue
            }
            if r.size != f.stat.size || r.mtimeNS != f.stat.mtimeNS || r.inode != f.stat.inode { changed += 1 }
        }
        unindexable += walked.problems.filter(\.isAboutTheName)
        probe(notInIndex, in: context.library)
        notIndexed = Self.leftAlone(others, in: context.library)
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

extension IndexAgainstDisk {
    /// What the scan says of files under other names, by their first bytes (at most `probeLimit`
    /// read; more are counted as "unknown"). The walk has left out companions (notes, other
    /// tools' sidecars): only files that could have been photos are named.
    static func leftAlone(_ paths: [String], in library: Library) -> [FileProblem] {
        let probe = FileProbe(library: library, now: Date())
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 64)
        defer { buffer.deallocate() }
        var found: [FileProblem] = [], probed = 0
        for path in paths where !XMPSidecar.isSidecarName(path) {
            probed += 1
            guard probed <= probeLimit else { found.append(FileProblem(path: path, reason: "not looked at", kind: "unknown")); continue }
            if case .ignored(let p) = probe.probe(path, buffer: buffer, hashing: false) { found.append(p) }
        }
        return found
    }
}

/// `not indexed` (only when there are some): files Shoebox leaves alone, named by kind, so a
/// folder of GIFs or TIFFs under another name is not passed over in silence (issue 32).
struct NotIndexedFilesCheck: DoctorCheck {
    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] {
        let files = try context.shared(IndexAgainstDisk.init).notIndexed
        guard !files.isEmpty else { return [] }
        let names = files.prefix(3).map(\.path).joined(separator: ", ") + (files.count > 3 ? ", …" : "")
        return [.warning("not indexed", "\(files.count) file\(files.count == 1 ? " is" : "s are") not a photo or video Shoebox indexes "
                         + "and \(files.count == 1 ? "is" : "are") left alone: \(FileProblem.kindsText(files)) (\(names)); `scan --verbose` names each")]
    }
}

/// `index`: every media file on disk indexed, and every indexed file as the index remembers it.
struct IndexMatchesDiskCheck: DoctorCheck {
    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] {
        let d = try context.shared(IndexAgainstDisk.init)
        if d.unindexed + d.changed + d.vanished == 0 {
            return [.ok("index", "\(counted(d.indexed, "file")) indexed, matching the disk")]
        }
        return [.problem("index", "\(d.unindexed) files not indexed, \(d.changed) changed, \(d.vanished) vanished since the last scan",
                         fix: context.scanCommand)]
    }
}
