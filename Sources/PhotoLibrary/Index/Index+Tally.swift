import Foundation
import GRDB

/// What counting photos by year, place and person needs of an asset: its path, year, place and
/// analysis (for its faces), without the metadata a whole `Asset` decodes (the JSON of every
/// row, most of a count's time over a large library).
public struct AssetTally: Sendable {
    public var path: String
    /// The capture year as the index keeps it (what `AssetQuery.year` filters by).
    public var year: Int?
    public var place: Place?
    public var analysis: AssetAnalysis?
}

extension Index {
    /// The rows of `assets(matching: query)`, in the same order, as tallies, one at a time inside
    /// one read transaction.
    public func forEachTally(matching query: AssetQuery, _ body: (AssetTally) throws -> Void) throws {
        let (sql, args) = query.sql(columns: "path, year, city, country, analysis")
        try read { db in
            let rows = try Row.fetchCursor(db, sql: sql, arguments: args)
            while let r = try rows.next() {
                let city: String? = r[2], country: String? = r[3]
                try body(AssetTally(
                    path: r[0], year: r[1], place: (city == nil && country == nil) ? nil : Place(city: city, country: country),
                    analysis: try (r[4] as String?).map {
                        try ShoeboxJSON.makeDecoder().decode(AssetAnalysis.self, from: Data($0.utf8))
                    }))
            }
        }
    }
}
