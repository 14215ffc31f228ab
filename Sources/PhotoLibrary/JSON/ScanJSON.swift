import Foundation

/// One file a scan or rebuild could not index, skipped or warns about, worded for the user.
/// Public contract (inside `ScanReportJSON` and `RebuildReportJSON`): `path` (relative to the
/// library), `reason`, `still_being_written`.
public struct FileProblemJSON: PublicJSONShape, Sendable {
    var path: String
    var reason: String
    var still_being_written: Bool

    public init(_ p: FileProblem) {
        path = p.path
        reason = p.reason
        still_being_written = p.stillBeingWritten
    }
}

/// A file a scan left alone: `{"path", "reason", "kind"}` ("GIF", "WebP", ".txt" …).
public struct NotIndexedJSON: PublicJSONShape, Sendable {
    var path: String
    var reason: String
    var kind: String

    public init(_ p: FileProblem) {
        path = p.path
        reason = p.reason
        kind = p.kind ?? "other"
    }
}

/// `scan --json`: what a scan did. Public contract: the counts, `failed`, `skipped` and
/// `warnings` (`FileProblemJSON`), `bytes_read`, `seconds`, and `albums_off` only when albums
/// are switched off (absent otherwise, never null).
public struct ScanReportJSON: PublicJSONShape, Sendable {
    var added: Int
    var updated: Int
    var moved: Int
    var returned: Int
    var removed: Int
    var unchanged: Int
    var duplicates: Int
    var failed: [FileProblemJSON]
    var skipped: [FileProblemJSON]
    /// Files that are no photo or video Shoebox indexes (a GIF, a note), each with its `kind`.
    var not_indexed: [NotIndexedJSON]
    var warnings: [FileProblemJSON]
    var bytes_read: Int64
    var seconds: Double
    var albums_off: String?
    var removed_from_albums: Int

    public init(_ r: ScanReport) {
        added = r.added
        updated = r.updated
        moved = r.moved
        returned = r.returned
        removed = r.removed
        unchanged = r.unchanged
        duplicates = r.duplicates
        failed = r.failed.map(FileProblemJSON.init)
        skipped = r.skipped.map(FileProblemJSON.init)
        not_indexed = r.notIndexed.map(NotIndexedJSON.init)
        warnings = r.warnings.map(FileProblemJSON.init)
        bytes_read = r.bytesRead
        seconds = r.seconds
        albums_off = r.albumsOff
        removed_from_albums = r.removedFromAlbums
    }
}

/// `rebuild --json`: public contract: `sidecars` (how many were read), `bad_sidecars`
/// (`FileProblemJSON`), `sidecars_from_index` (missing or invalid ones written again from the
/// old index) and `scan`, the report of the scan that followed (`ScanReportJSON`).
public struct RebuildReportJSON: PublicJSONShape, Sendable {
    var sidecars: Int
    var bad_sidecars: [FileProblemJSON]
    var sidecars_from_index: Int
    var scan: ScanReportJSON

    public init(_ r: RebuildReport) {
        sidecars = r.sidecars
        bad_sidecars = r.badSidecars.map(FileProblemJSON.init)
        sidecars_from_index = r.sidecarsFromIndex
        scan = ScanReportJSON(r.scan)
    }
}
