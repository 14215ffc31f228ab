import Foundation

/// An item of Recently Deleted (`trash list --json`, `trash --json`). Public contract (SPEC.md):
/// `id` (null for a file another tool put there), `name` (in `Recently Deleted/files/`),
/// `original_path` (null when nothing says where in the library it came from), `deletion_date`
/// (local time with offset), `days_left`, `size`, `problem` (why `restore` cannot put it back,
/// or null); every field present, null or not.
public struct TrashItemJSON: PublicJSONShape, Sendable {
    var id: String?
    var name: String
    var original_path: String?
    var deletion_date: String
    var days_left: Int
    var size: Int64
    var problem: String?

    public init(_ item: TrashItem) {
        id = item.id?.rawValue
        name = item.name
        original_path = item.originalPath
        deletion_date = ShoeboxClock.localISO8601(item.deletionDate)
        days_left = item.daysLeft
        size = item.size
        problem = item.problem
    }

    enum CodingKeys: String, CodingKey { case id, name, original_path, deletion_date, days_left, size, problem }

    // Explicit null for `id`: scripts can rely on every field being present.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(original_path, forKey: .original_path)
        try c.encode(deletion_date, forKey: .deletion_date)
        try c.encode(days_left, forKey: .days_left)
        try c.encode(size, forKey: .size)
        try c.encode(problem, forKey: .problem)
    }
}

/// An item `trash purge --json` deleted for good. Public contract: `name`, `size`, `original_path`
/// (absent when nothing said where in the library it came from), and `id` only when it was an
/// asset (absent for another tool's file).
public struct PurgedItemJSON: PublicJSONShape, Sendable {
    var id: String?
    var name: String
    var original_path: String?
    var size: Int64

    public init(_ p: RecentlyDeleted.Purged) {
        id = p.id?.rawValue
        name = p.name
        original_path = p.originalPath
        size = p.size
    }
}

/// An asset `restore --json` put back. Public contract: `path` (where it is now), `id` (absent
/// only for another tool's file that Shoebox does not index), and `note` only when it did not go
/// back exactly where it was (absent otherwise).
public struct RestoredItemJSON: PublicJSONShape, Sendable {
    var id: String?
    var path: String
    var note: String?

    public init(_ r: RecentlyDeleted.Restored) {
        id = r.id?.rawValue
        path = r.path
        note = r.note
    }
}
