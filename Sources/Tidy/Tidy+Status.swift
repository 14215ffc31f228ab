import Foundation
import PhotoLibrary

/// Where a session stands ("X of Y") and what the library holds in each pile.
public struct TidyStatus: Sendable {
    public var filter: TidyFilter
    public var session: String
    public var startedAt: Date
    /// Assets in the items passed (decided, or vanished), and in the whole session.
    public var position: Int
    public var total: Int
    /// Items passed, and in the whole session (a group is one item).
    public var itemPosition: Int
    public var items: Int
    /// Present assets marked for deletion / in the maybe pile, in the library.
    public var marked: Int
    public var maybe: Int
    /// Present assets never decided, in the library: counted when asked for (`countingUnreviewed`)
    /// or when the session is through, else nil (it reads an index entry per such asset).
    public var unreviewed: Int?
    /// Distinct assets this session decided.
    public var reviewed: Int
    /// What this session's `empty`s moved.
    public var removed: Int
    public var freedBytes: Int64
    /// No item left in this session.
    public var done: Bool
}

/// A group of similar shots with its present assets, best first.
public struct TidyGroupEntry: Sendable {
    public var group: SimilarGroup
    public var assets: [Asset]
}

/// What a front end shows of a session: the item under review (nil when the session is through),
/// the session's standing, and the companion files of the item's assets (for `TidyItemJSON`).
public struct TidySnapshot: Sendable {
    public var session: TidySession
    public var current: TidyCurrent?
    public var status: TidyStatus
    public var companions: [AssetID: String]

    /// The item under review as `tidy next --json` prints it.
    public var item: TidyItemJSON? { current.map { TidyItemJSON($0, companions: companions) } }
}

extension Tidy {
    /// The item under review and the standing of `session`. Finding the item may move the
    /// session's position past items decided or vanished; with `saving` (under the writer lock)
    /// a position that moved is saved, else it is only computed (a reader writes nothing; the
    /// next change saves it).
    package func snapshot(_ session: inout TidySession, countingUnreviewed: Bool = false, saving: Bool) throws -> TidySnapshot {
        let before = session.state.position
        let current = try self.current(&session)
        if saving, session.state.position != before { try store.save(session.state) }
        return TidySnapshot(session: session, current: current,
                            status: try status(session, current: current, countingUnreviewed: countingUnreviewed),
                            companions: try current.map { try companions(of: $0.assets) } ?? [:])
    }

    /// The standing of `session` whose item under review `current` was just found (`current`).
    func status(_ session: TidySession, current: TidyCurrent?, countingUnreviewed: Bool = false) throws -> TidyStatus {
        let s = session.state
        return TidyStatus(
            filter: session.filter, session: s.session, startedAt: s.startedAt,
            position: current == nil ? s.totalAssets : s.positionAssets, total: s.totalAssets,
            itemPosition: current?.index ?? s.items, items: s.items,
            marked: try index.count(Self.decided(.delete)), maybe: try index.count(Self.decided(.maybe)),
            unreviewed: countingUnreviewed || current == nil ? try index.count(Self.decided(nil)) : nil, reviewed: s.reviewed,
            removed: s.removed, freedBytes: s.freedBytes, done: current == nil)
    }

    /// Every group of similar shots, near-identical copies and duplicates among the library's
    /// present assets (decided or not), in capture order of each group's newest member.
    package func similarGroups() throws -> [TidyGroupEntry] {
        let groups = try similarShots()
        let byID = try assets(groups.flatMap(\.members))
        return groups.map { g in TidyGroupEntry(group: g, assets: g.members.compactMap { byID[$0] }) }
    }

    /// The groups of `similarGroups`, their members' ids only.
    func similarShots() throws -> [SimilarGroup] {
        var q = AssetQuery()
        q.sort = .date
        q.reverse = true
        return SimilarShots.groups(try index.similarityKeys(matching: q))
    }
}

extension Tidy {
    /// The first `limit` items from `start` on with an asset this session has not decided yet
    /// (`open`), each with its present assets: what comes next. (Every item from `start` on:
    /// `forEachBatch`.)
    package func items(of session: TidySession, from start: Int, limit: Int) throws -> [TidyCurrent] {
        var out: [TidyCurrent] = []
        var n = max(0, start)
        while n < session.list.count, out.count < limit {
            let end = min(session.list.count, n + max(8, limit * 2))
            let items = try (n..<end).map { (index: $0, item: try session.item(at: $0)) }
            let byID = try assets(items.flatMap(\.item.members))
            for (i, item) in items {
                let entry = TidyCurrent(index: i, item: item, assets: byID, session: session.state.session)
                if !entry.open.isEmpty, out.count < limit { out.append(entry) }
            }
            n = end
        }
        return out
    }
}

extension Tidy {
    /// Present assets the analysis has not seen in their present content (no perceptual hash,
    /// no score yet): their look and their quality cannot group or rank them.
    package func unanalysedCount() throws -> Int {
        var q = AssetQuery()
        q.needsAnalysis = (true, AssetAnalysis.currentVersion)
        return try index.count(q)
    }
}
