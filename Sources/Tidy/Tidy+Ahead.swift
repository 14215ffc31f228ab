import Foundation
import PhotoLibrary

/// A filter a session can go through, and how many photos it would offer now.
public struct TidyFilterCount: Sendable {
    public var filter: TidyFilter
    public var count: Int
}

extension Tidy {
    /// The items after the one under review in `snapshot` that still have something to decide
    /// (at most `count`): what a front end loads ahead so the next card is there at once.
    public static func ahead(_ session: LibrarySession, of snapshot: TidySnapshot, count: Int = 3) throws -> TidyItems {
        let tidy = Tidy(reading: session)
        guard let current = snapshot.current, count > 0 else {
            return TidyItems(filter: snapshot.session.filter, items: [], companions: [:])
        }
        let items = try tidy.items(of: snapshot.session, from: current.index + 1, limit: count)
        return TidyItems(filter: snapshot.session.filter, items: items, companions: try tidy.companions(of: items.flatMap(\.assets)))
    }

    /// Brief 004's filter sheet: every filter with how many photos a session over it would offer
    /// now — all, screenshots, the last 30 days, each year with photos (newest first), largest
    /// first, and the maybe pile. The index as it is: no session is opened.
    public static func filterCounts(_ session: LibrarySession) throws -> [TidyFilterCount] {
        let tidy = Tidy(reading: session)
        let years = try tidy.index.facets().years.map(\.year)
        let filters: [TidyFilter] = [.all, .screenshots, .last30Days] + years.map(TidyFilter.year) + [.largest, .maybe]
        return try filters.map { TidyFilterCount(filter: $0, count: try tidy.index.count($0.query(now: tidy.now))) }
    }
}
