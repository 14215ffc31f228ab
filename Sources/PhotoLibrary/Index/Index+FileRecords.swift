import Foundation
import GRDB

/// The index's light per-asset file records: what a scan compares with the folder.
extension Index {
    /// What ingest needs to tell an unchanged, edited, moved, returning or new file apart without
    /// opening it or reading a whole asset: one light row per asset.
    struct FileRecord: Sendable, Equatable {
        var id: AssetID
        var path: String
        var state: AssetState
        var size: Int64
        var mtimeNS: Int64
        var inode: UInt64
        var sha256: String
        var firstSeen: Double
    }

    /// The file records of every asset that is not trashed (or of every asset, `includingTrashed`).
    func fileRecords(includingTrashed: Bool = false) throws -> [FileRecord] {
        try read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT \(Index.fileRecordColumns) FROM asset \(includingTrashed ? "" : "WHERE state != 'trashed'")
                """)
            var out: [FileRecord] = []
            while let r = try rows.next() { out.append(Index.fileRecord(from: r)) }
            return out
        }
    }

    static let fileRecordColumns = "id, path, state, size, mtime_ns, inode, sha256, first_seen"

    /// The present assets' file records in path byte order, one at a time through `body`'s
    /// `next` (nil after the last): the scan merges them with its walk, holding none of them.
    /// The partial unique index `asset_present_path` gives this order without a sort; named,
    /// because SQLite's planner would otherwise pick an index on `state` and sort a million rows.
    func withPresentFileRecordsByPath<T>(_ body: (_ next: () throws -> FileRecord?) throws -> T) throws -> T {
        try read { db in
            let rows = try Row.fetchCursor(db, sql: Index.presentFileRecordsByPath)
            return try body { try rows.next().map(Index.fileRecord(from:)) }
        }
    }

    static let presentFileRecordsByPath = """
        SELECT \(fileRecordColumns) FROM asset INDEXED BY asset_present_path WHERE state = 'present' ORDER BY path
        """

    /// The file records of the present assets at these paths (those that have one). By the
    /// path index: the planner would otherwise go through every present row once per chunk.
    func presentFileRecords(at paths: [String]) throws -> [FileRecord] {
        try fileRecords(where: "state = 'present' AND path", in: paths, indexedBy: "asset_present_path")
    }

    /// The file records of these assets as the index has them now (unknown ids are left out).
    func fileRecords(ids: [AssetID]) throws -> [FileRecord] {
        try fileRecords(where: "id", in: ids.map(\.rawValue))
    }

    /// The file records of every asset in `state`.
    func fileRecords(state: AssetState) throws -> [FileRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Index.fileRecordColumns) FROM asset WHERE state = ?",
                             arguments: [state.rawValue]).map(Index.fileRecord(from:))
        }
    }

    /// `SELECT … WHERE <condition> IN (values)`, in chunks under SQLite's parameter limit.
    private func fileRecords(where condition: String, in values: [String], indexedBy: String? = nil) throws -> [FileRecord] {
        guard !values.isEmpty else { return [] }
        return try read { db in
            var out: [FileRecord] = []
            for start in stride(from: 0, to: values.count, by: 500) {
                let chunk = Array(values[start..<min(values.count, start + 500)])
                let marks = chunk.map { _ in "?" }.joined(separator: ",")
                let index = indexedBy.map { "INDEXED BY \($0)" } ?? ""
                let sql = "SELECT \(Index.fileRecordColumns) FROM asset \(index) WHERE \(condition) IN (\(marks))"
                out += try Row.fetchAll(db, sql: sql, arguments: StatementArguments(chunk)).map(Index.fileRecord(from:))
            }
            return out
        }
    }

    static func fileRecord(from r: Row) -> FileRecord {
        FileRecord(id: AssetID(trusted: r[0]), path: r[1], state: AssetState(rawValue: r[2]) ?? .missing,
                   size: r[3], mtimeNS: r[4], inode: UInt64(bitPattern: r[5] as Int64), sha256: r[6], firstSeen: r[7])
    }
}
