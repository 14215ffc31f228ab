import Foundation

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
