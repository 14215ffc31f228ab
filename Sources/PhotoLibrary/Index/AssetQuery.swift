import Foundation
import GRDB
import MetadataCore

/// The filters and orders of `shoebox list`, run as one SQL query.
public struct AssetQuery: Sendable {
    public enum Sort: String, CaseIterable, Sendable {
        /// Best first.
        case score
        /// Oldest first, like a camera roll.
        case date
        /// Largest first.
        case size
        /// By path.
        case name
    }

    public var sort: Sort = .date
    public var reverse = false
    public var year: Int?
    /// City, country or "City, Country", case-insensitive.
    public var place: String?
    /// A person's name (case-insensitive), or a person's id as `people list` prints it ("p3"),
    /// which also finds the photos of a person nobody named (issue 32).
    public var person: String?
    public var kind: AssetKind?
    /// Which states to list; present only unless asked.
    public var states: [AssetState] = [.present]
    public var limit: Int?
    /// The video halves of Live Photos are listed with their photo, not on their own.
    public var includeLiveVideos = false
    /// Only these assets (a session's list, an album's members).
    public var ids: [AssetID]?
    /// Only the companion files (a Live Photo's movie) of these photos; set `includeLiveVideos`.
    public var companionsOf: [AssetID]?
    /// Captured at or after this instant (by the capture time after every fallback).
    public var takenFrom: Date?
    /// Captured before this instant.
    public var takenBefore: Date?
    /// Scored at least this (unscored assets never match).
    public var minScore: Double?
    /// Only utility images (screenshots, documents) when true; only real photos when false.
    public var isUtility: Bool?
    /// Only assets that are (true) or are not (false) byte-identical copies of another.
    public var isDuplicate: Bool?
    /// Only assets whose analysis is missing, stale (the file changed) or older than this
    /// analyser version (true); only those analysed by it (false).
    public var needsAnalysis: (Bool, version: Int)?
    /// Only assets in whose pixels the analysis found faces (true) or none (false).
    public var hasFaces: Bool?
    /// Only assets whose image data is (true) or is not (false) known to be damaged.
    public var isDamaged: Bool?
    /// Conditions on feature modules' fields (`Asset.features`), all of which must hold.
    public var features: [FeatureCondition] = []

    public init() {}

    /// Present byte-identical copies of another asset (the count a scan reports).
    public static var presentDuplicates: AssetQuery {
        var q = AssetQuery()
        q.isDuplicate = true
        q.includeLiveVideos = true
        return q
    }

    func sql(columns: String = Index.columns, ordered: Bool = true) -> (String, StatementArguments) {
        var clauses: [String] = []
        var args: [any DatabaseValueConvertible] = []
        // Given ids (or companions' ids), `+state`: SQLite goes to those rows by their key (or
        // `asset_live`) instead of walking a state index over the whole library and testing each
        // entry against the list (1.4 s for 5,000 ids of 100,000 assets, ~0.05 s by key).
        let byKey = ids != nil || companionsOf != nil
        clauses.append("\(byKey ? "+state" : "state") IN (\(states.map { _ in "?" }.joined(separator: ",")))")
        args += states.map(\.rawValue)
        if !includeLiveVideos { clauses.append("live_photo_of IS NULL") }
        if let year { clauses.append("year = ?"); args.append(year) }
        if let kind { clauses.append("kind = ?"); args.append(kind.rawValue) }
        if let place {
            // Case- and accent-insensitive (GeoNames writes "Reykjavík"; people type "reykjavik").
            let key = Index.folded(place)
            clauses.append("(shoebox_fold(city) = ? OR shoebox_fold(country) = ? OR shoebox_fold(city || ', ' || country) = ?)")
            args += [key, key, key]
        }
        if let ids {
            clauses.append(ids.isEmpty ? "0" : "id IN (\(ids.map { _ in "?" }.joined(separator: ",")))")
            args += ids.map(\.rawValue)
        }
        if let companionsOf {
            clauses.append(companionsOf.isEmpty ? "0" : "live_photo_of IN (\(companionsOf.map { _ in "?" }.joined(separator: ",")))")
            args += companionsOf.map(\.rawValue)
        }
        if let takenFrom { clauses.append("taken_at_epoch >= ?"); args.append(takenFrom.timeIntervalSince1970) }
        if let takenBefore { clauses.append("taken_at_epoch < ?"); args.append(takenBefore.timeIntervalSince1970) }
        if let minScore { clauses.append("score >= ?"); args.append(minScore) }
        if let isUtility { clauses.append("is_utility = ?"); args.append(isUtility) }
        if let isDuplicate { clauses.append(isDuplicate ? "duplicate_of IS NOT NULL" : "duplicate_of IS NULL") }
        if let (needs, version) = needsAnalysis {
            let stale = "(analysis_version IS NULL OR analysis_version < ? OR analysis_sha IS NOT sha256)"
            clauses.append(needs ? stale : "NOT \(stale)")
            args.append(version)
        }
        if let isDamaged { clauses.append("damaged = ?"); args.append(isDamaged) }
        if let hasFaces {
            let found = "(analysis IS NOT NULL AND json_array_length(analysis, '$.faces') > 0)"
            clauses.append(hasFaces ? found : "NOT \(found)")
        }
        for condition in features {
            let (clause, values) = condition.sql()
            clauses.append(clause)
            args += values
        }
        if let person {
            let byName = "EXISTS (SELECT 1 FROM json_each(asset.persons) WHERE value = ? COLLATE NOCASE)"
            args.append(person)
            if Self.isPersonID(person) {
                clauses.append("(\(byName) OR EXISTS (SELECT 1 FROM json_each(asset.analysis, '$.faces') "
                               + "WHERE json_extract(value, '$.person') = ? AND json_extract(value, '$.forgotten') IS NOT 1))")
                args.append(person.lowercased())
            } else {
                clauses.append(byName)
            }
        }
        let direction = { (ascending: Bool) in (ascending != reverse) ? "ASC" : "DESC" }
        let order: String
        switch sort {
        case .score:
            // Unscored assets last; ties by capture time, then id, so the order is stable.
            order = "score IS NULL, score \(direction(false)), taken_at_epoch \(direction(true)), id"
        case .date:
            order = "taken_at_epoch IS NULL, taken_at_epoch \(direction(true)), path \(direction(true)), id"
        case .size:
            order = "size \(direction(false)), path, id"
        case .name:
            order = "path \(direction(true)), id"
        }
        // A count needs no order, and an ORDER BY would make SQLite pick the order's index over
        // the one that serves the filter (a feature's decision index, say).
        var sql = "SELECT \(columns) FROM asset WHERE \(clauses.joined(separator: " AND "))" + (ordered ? " ORDER BY \(order)" : "")
        if let limit { sql += " LIMIT \(max(0, limit))" }
        return (sql, StatementArguments(args))
    }
}

extension Index {
    /// How many assets match (sort and limit aside).
    public func count(_ query: AssetQuery) throws -> Int {
        var unlimited = query
        unlimited.limit = nil
        let (sql, args) = unlimited.sql(columns: "COUNT(*)", ordered: false)
        return try read { db in try Int.fetchOne(db, sql: sql, arguments: args) ?? 0 }
    }

    /// The assets of `ids` in any state (purged ones are simply not there), a few thousand per
    /// query (SQLite's limit on parameters is 32,766); the order is the index's date order per batch.
    public func assets(ids: [AssetID]) throws -> [Asset] {
        var out: [Asset] = []
        var start = 0
        while start < ids.count {
            var q = AssetQuery()
            q.ids = Array(ids[start..<min(ids.count, start + 5000)])
            q.states = AssetState.allCases
            q.includeLiveVideos = true
            out += try assets(matching: q)
            start += 5000
        }
        return out
    }

    /// The assets of `ids` in any state, by id: `assets(ids:)` without its order, for a caller
    /// that looks them up (a tidy listing's batch). No ORDER BY: SQLite then hands out each row as
    /// it finds it by key instead of copying every row into a sorter first. The ids go in as one
    /// JSON array (`json_each`) to one cached statement: a statement of 2,000 `?` made, parsed and
    /// bound for every batch was 5 % of `tidy list --json`.
    public func assetsByID(_ ids: [AssetID]) throws -> [AssetID: Asset] {
        var out: [AssetID: Asset] = [:]
        guard !ids.isEmpty else { return out }
        out.reserveCapacity(ids.count)
        let list = Index.jsonArray(ids)
        try read { db in
            let statement = try db.cachedStatement(sql: Index.assetsByIDSQL)
            let rows = try Row.fetchCursor(statement, arguments: [list])
            while let r = try rows.next() {
                let a = try Index.asset(from: r)
                out[a.id] = a
            }
        }
        return out
    }

    /// Any state `AssetState` knows (as `assets(ids:)` asks), the ids from a JSON array, looked up
    /// in the array's order (a listing's: its rows lie near each other) with no list of the ids
    /// sorted first, as `id IN (…)` makes. The columns named by table: `json_each` has an `id`
    /// and a `path` too.
    static let assetsByIDSQL = """
        SELECT \(Index.columns.split(separator: ", ").map { "asset.\($0)" }.joined(separator: ", "))
        FROM json_each(?) AS wanted CROSS JOIN asset ON asset.id = wanted.value
        WHERE +asset.state IN (\(AssetState.allCases.map { "'\($0.rawValue)'" }.joined(separator: ",")))
        """

    /// `ids` as a JSON array of strings (an id in its stored form needs no escaping).
    static func jsonArray(_ ids: [AssetID]) -> String {
        var text = "["
        text.reserveCapacity(ids.count * 39 + 2)
        for (n, id) in ids.enumerated() {
            if n > 0 { text += "," }
            if AssetID.isStoredForm(id.rawValue) {
                text += "\""; text += id.rawValue; text += "\""
            } else {
                text += String(decoding: try! JSONEncoder().encode(id.rawValue), as: UTF8.self)
            }
        }
        return text + "]"
    }

    public func assets(matching query: AssetQuery) throws -> [Asset] {
        let (sql, args) = query.sql()
        // Through a cursor: `fetchAll` copied every row (its metadata text among it) before decoding.
        return try read { db in
            var out: [Asset] = []
            let rows = try Row.fetchCursor(db, sql: sql, arguments: args)
            while let r = try rows.next() { out.append(try Index.asset(from: r)) }
            return out
        }
    }

    /// The assets of `assets(matching:)`, in the same order, one at a time: a listing of the
    /// whole library never holds it all. `body` runs inside one read transaction.
    public func forEachAsset(matching query: AssetQuery, _ body: (Asset) throws -> Void) throws {
        let (sql, args) = query.sql()
        try read { db in
            let rows = try Row.fetchCursor(db, sql: sql, arguments: args)
            while let r = try rows.next() { try body(Index.asset(from: r)) }
        }
    }

    /// The Live Photo video of each photo in `ids` (path), for listings.
    public func liveVideos(for ids: [AssetID]) throws -> [AssetID: String] {
        guard !ids.isEmpty else { return [:] }
        // Many photos: every pairing at once (few rows, from the `asset_live` index) beats a
        // lookup per photo.
        if ids.count > 500 {
            let wanted = Set(ids)
            return try allLiveVideos().filter { wanted.contains($0.key) }
        }
        return try read { db in
            var out: [AssetID: String] = [:]
            // `+state`: the `asset_live` index, not a pass over every present asset.
            let rows = try Row.fetchAll(db, sql: """
                SELECT live_photo_of, path FROM asset
                WHERE +state = 'present' AND live_photo_of IN (\(ids.map { _ in "?" }.joined(separator: ",")))
                """, arguments: StatementArguments(ids.map(\.rawValue)))
            for r in rows { out[AssetID(trusted: r[0])] = r[1] }
            return out
        }
    }

    /// The Live Photo video (path) of every photo that has a present one.
    public func allLiveVideos() throws -> [AssetID: String] {
        try read { db in
            var out: [AssetID: String] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT live_photo_of, path FROM asset WHERE +state = 'present' AND live_photo_of IS NOT NULL
                """)
            while let r = try rows.next() { out[AssetID(trusted: r[0])] = r[1] }
            return out
        }
    }
}

/// A condition on one feature's field (`Asset.features`): how a feature filters the library
/// without writing SQL. `field` is a key of the feature's JSON object (one level).
public struct FeatureCondition: Sendable, Equatable {
    public enum Test: Sendable, Equatable {
        /// The feature has a value for the asset (the field is ignored when nil).
        case exists
        /// The feature has no value for the asset (or the field is unset).
        case absent
        case equals(String)
        case equalsNumber(Double)
        case atLeast(Double)
        case below(Double)
    }

    public var feature: String
    public var field: String?
    public var test: Test

    public init(feature: String, field: String? = nil, _ test: Test) {
        self.feature = feature
        self.field = field
        self.test = test
    }

    /// `json_extract(features, '$."feature"."field"')`: the path written into the SQL (not bound),
    /// so that a `FeatureIndex` on the same expression serves the query. Object keys are quoted in
    /// the JSON path, so any name is a literal key, never path syntax.
    static func extract(feature: String, field: String?) -> String {
        func quoted(_ key: String) -> String {
            "\"" + key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        let path = "$." + quoted(feature) + (field.map { "." + quoted($0) } ?? "")
        return "json_extract(features, '" + path.replacingOccurrences(of: "'", with: "''") + "')"
    }

    func sql() -> (String, [any DatabaseValueConvertible]) {
        let value = Self.extract(feature: feature, field: field)
        switch test {
        case .exists: return ("\(value) IS NOT NULL", [])
        case .absent: return ("\(value) IS NULL", [])
        case .equals(let s): return ("\(value) = ?", [s])
        case .equalsNumber(let n): return ("\(value) = ?", [n])
        case .atLeast(let n): return ("\(value) >= ?", [n])
        case .below(let n): return ("\(value) < ?", [n])
        }
    }
}

extension AssetQuery {
    /// "p" and digits, as person ids are written ("P3" too: people type ids in either case).
    static func isPersonID(_ text: String) -> Bool {
        let u = Array(text.utf8)
        return u.count >= 2 && (u[0] == UInt8(ascii: "p") || u[0] == UInt8(ascii: "P")) && u.dropFirst().allSatisfy { $0 >= 48 && $0 <= 57 }
    }
}
