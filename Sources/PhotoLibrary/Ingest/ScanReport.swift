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
}

/// Progress of a scan: files handled of files to read, bytes read.
public struct ScanProgress: Sendable {
    public var done: Int
    public var total: Int
    public var bytes: Int64
}
