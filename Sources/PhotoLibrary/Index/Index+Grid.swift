import Foundation
import GRDB

/// What a grid of thumbnails needs of each asset, and no more: a library of 100,000 assets is
/// listed in one query without decoding anyone's metadata or analysis.
public struct GridRow: Sendable {
    public var id: AssetID
    /// The capture time after every fallback (seconds since 1970), nil when unknown.
    public var takenEpoch: Double?
    public var kind: AssetKind
    /// Upright dimensions (the EXIF orientation applied).
    public var width: Int
    public var height: Int
    /// The first 8 hex digits of the content's SHA-256: what a cached thumbnail's URL carries, so
    /// a browser may keep it for ever and still sees an edited file.
    public var version: String
    /// Seconds, for videos.
    public var duration: Double?

    public init(id: AssetID, takenEpoch: Double?, kind: AssetKind, width: Int, height: Int, version: String, duration: Double?) {
        self.id = id; self.takenEpoch = takenEpoch; self.kind = kind
        self.width = width; self.height = height; self.version = version; self.duration = duration
    }
}

extension Index {
    /// The assets of `query`, in its order, as grid rows.
    public func gridRows(matching query: AssetQuery) throws -> [GridRow] {
        let columns = """
            id, taken_at_epoch, kind, json_extract(metadata, '$.pixelWidth'), json_extract(metadata, '$.pixelHeight'), \
            json_extract(metadata, '$.orientation'), substr(sha256, 1, 8), json_extract(metadata, '$.duration')
            """
        let (sql, args) = query.sql(columns: columns)
        return try read { db in
            var out: [GridRow] = []
            let rows = try Row.fetchCursor(db, sql: sql, arguments: args)
            while let r = try rows.next() {
                let w: Int = r[3] ?? 0, h: Int = r[4] ?? 0, orientation: Int = r[5] ?? 1
                let turned = (5...8).contains(orientation)
                out.append(GridRow(id: AssetID(trusted: r[0]), takenEpoch: r[1], kind: AssetKind(rawValue: r[2]) ?? .photo,
                                   width: turned ? h : w, height: turned ? w : h, version: r[6] ?? "", duration: r[7] as Double?))
            }
            return out
        }
    }
}

/// What a library's filters can choose from, with how many present assets each would show.
public struct LibraryFacets: Sendable {
    public var years: [(year: Int, count: Int)] = []
    /// "City, Country" (or the one that is known).
    public var places: [(name: String, count: Int)] = []
    public var persons: [(name: String, count: Int)] = []
    public var kinds: [(kind: AssetKind, count: Int)] = []
}

extension Index {
    /// The facets of the present assets (a Live Photo's movie counted with its photo, as `list` does).
    public func facets() throws -> LibraryFacets {
        let present = "state = 'present' AND live_photo_of IS NULL"
        return try read { db in
            var f = LibraryFacets()
            for r in try Row.fetchAll(db, sql: "SELECT year, count(*) FROM asset WHERE \(present) AND year IS NOT NULL GROUP BY year ORDER BY year DESC") {
                f.years.append((r[0], r[1]))
            }
            let place = "CASE WHEN city IS NOT NULL AND country IS NOT NULL THEN city || ', ' || country ELSE coalesce(city, country) END"
            for r in try Row.fetchAll(db, sql: "SELECT \(place) AS p, count(*) AS n FROM asset WHERE \(present) AND p IS NOT NULL GROUP BY p ORDER BY n DESC, p") {
                f.places.append((r[0], r[1]))
            }
            for r in try Row.fetchAll(db, sql: """
                SELECT value, count(*) AS n FROM asset, json_each(asset.persons) WHERE \(present)
                GROUP BY value COLLATE NOCASE ORDER BY n DESC, value
                """) {
                f.persons.append((r[0], r[1]))
            }
            for r in try Row.fetchAll(db, sql: "SELECT kind, count(*) FROM asset WHERE \(present) GROUP BY kind ORDER BY kind") {
                if let kind = AssetKind(rawValue: r[0]) { f.kinds.append((kind, r[1])) }
            }
            return f
        }
    }
}
