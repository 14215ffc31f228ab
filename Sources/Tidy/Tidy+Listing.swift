import Foundation
import PhotoLibrary

/// The long listings (`tidy list`, `tidy similar`) handed out a batch at a time: a listing of a
/// whole library never holds all its assets (78,000 items of 100,000 assets were ~450 MB of
/// values, built before the first byte was printed).
extension Tidy {
    /// Items (or groups) whose assets are read by one query: a few thousand ids.
    public static let listingBatch = 2000

    /// The session's items still to review, in order (with `all`, from its first item), as
    /// `items` lists them: `body` gets them a batch at a time with their assets' companions.
    /// Every line of the session's list is read before the first batch: a damaged list is an
    /// error before anything is handed out. Returns the session's filter and how many items.
    @discardableResult
    public static func forEachItem(_ session: LibrarySession, all: Bool = false,
                                   _ body: (_ batch: [TidyCurrent], _ companions: [AssetID: String]) throws -> Void) throws
        -> (filter: TidyFilter, count: Int) {
        let tidy = Tidy(reading: session)
        var review = try readable(session)
        let start = all ? 0 : (try tidy.current(&review)?.index ?? review.list.count)
        var count = 0
        try tidy.forEachBatch(of: review, from: start) { batch, companions in
            count += batch.count
            try body(batch, companions)
        }
        return (review.filter, count)
    }

    /// Every group of similar shots, as `similarGroups` lists them, a batch at a time with their
    /// assets' companions.
    public static func forEachSimilarGroup(_ session: LibrarySession, batch size: Int = listingBatch,
                                           _ body: (_ batch: [TidyGroupEntry], _ companions: [AssetID: String]) throws -> Void) throws {
        let tidy = Tidy(reading: session)
        let groups = try tidy.similarShots()
        let companions = try tidy.companionFinder(members: groups.reduce(0) { $0 + $1.members.count }, batch: size)
        var n = 0
        while n < groups.count {
            let batch = groups[n..<min(groups.count, n + size)]
            let byID = try tidy.assets(batch.flatMap(\.members))
            let entries = batch.map { g in TidyGroupEntry(group: g, assets: g.members.compactMap { byID[$0] }) }
            try body(entries, try companions(entries.map(\.assets)))
            n += size
        }
    }

    /// The session's items from `start` on with their present assets (an item whose files all
    /// vanished is left out), to `body` a batch at a time with their assets' companions.
    package func forEachBatch(of session: TidySession, from start: Int, batch size: Int = Tidy.listingBatch,
                              _ body: (_ batch: [TidyCurrent], _ companions: [AssetID: String]) throws -> Void) throws {
        let lines = try (max(0, start)..<max(start, session.list.count)).map { (index: $0, item: try session.item(at: $0)) }
        let companions = try companionFinder(members: lines.reduce(0) { $0 + $1.item.members.count }, batch: size)
        var n = 0
        while n < lines.count {
            let batch = lines[n..<min(lines.count, n + size)]
            let ids = batch.flatMap(\.item.members)
            var byID = try assets(ids)
            // Every id found and none twice: each asset is moved out to its item, not copied.
            let once = byID.count == ids.count
            var entries: [TidyCurrent] = []
            entries.reserveCapacity(batch.count)
            for line in batch {
                let entry = TidyCurrent(index: line.index, item: line.item, assets: &byID, moving: once, session: session.state.session)
                if !entry.assets.isEmpty { entries.append(entry) }
            }
            try body(entries, try companions(entries.map(\.assets)))
            n += size
        }
    }

    /// The companions of a listing's assets batch by batch (given item by item: not copied into
    /// one array), as `companions(of:)` finds them for the whole listing: of a long one every
    /// pairing of the library is read once (one query over the few companion rows) instead of
    /// once a batch.
    func companionFinder(members: Int, batch: Int) throws -> ([[Asset]]) throws -> [AssetID: String] {
        guard members > batch else { return { try self.companions(of: Array($0.joined())) } }
        let every = try index.companions(of: nil)
        return { items in
            var out: [AssetID: String] = [:]
            for assets in items {
                for a in assets where Companion.canHave(a) { out[a.id] = every[a.id] }
            }
            return out
        }
    }
}
