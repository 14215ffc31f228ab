import Foundation

/// What a scan did, for the summary line; `ScanReportJSON` is what `scan --json` prints.
public struct ScanReport: Sendable {
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
    /// Files Shoebox never indexes (XMP sidecars, notes…), said under `scan --verbose`.
    public var neverIndexed: [FileProblem] = []
    public var warnings: [FileProblem] = []
    public var bytesRead: Int64 = 0
    public var seconds: Double = 0
    /// Why `Albums/` is not kept (a file system without symbolic links); nil when it is.
    public var albumsOff: String?
    /// Assets taken out of user albums because their links were deleted by hand.
    public var removedFromAlbums = 0

    public init() {}

    /// The files left alone that are said (never-indexed ones with a kind: not XMP sidecars).
    public var notIndexed: [FileProblem] { neverIndexed.filter { $0.kind != nil } }

    /// Everything the scan left alone counted by kind, most first ("GIF": 3, "link": 1): the
    /// links and special files it skipped and the files that are no photo or video it indexes.
    public var skippedKinds: [(kind: String, count: Int)] { FileProblem.countedByKind(skipped + notIndexed) }
}

extension FileProblem {
    /// Counts by `kind` (problems without one are "other"), most first, then by name.
    public static func countedByKind(_ problems: [FileProblem]) -> [(kind: String, count: Int)] {
        var counts: [String: Int] = [:]
        for p in problems { counts[p.kind ?? "other", default: 0] += 1 }
        return counts.map { (kind: $0.key, count: $0.value) }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.kind < $1.kind }
    }

    /// "3 GIF, 1 .txt, 1 link".
    public static func kindsText(_ problems: [FileProblem]) -> String {
        countedByKind(problems).map { "\($0.count) \($0.kind)" }.joined(separator: ", ")
    }
}

/// Progress of a scan: files handled of files to read, bytes read.
public struct ScanProgress: Sendable {
    public var done: Int
    public var total: Int
    public var bytes: Int64
}
