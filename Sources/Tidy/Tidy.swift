import Foundation
import PhotoLibrary

/// An open review session: its state and the frozen list it goes through.
public struct TidySession: Sendable {
    public internal(set) var state: TidyState
    public let list: TidyList
    public var filter: TidyFilter { TidyFilter(state.filter) ?? .all }
}

/// The item under review: where it is in the list, the present assets it covers (best first for
/// a group) and which of them this session has not decided yet.
public struct TidyCurrent: Sendable {
    public var index: Int
    public var item: TidyItem
    public var assets: [Asset]
    public var open: [AssetID]

    /// Item `index` of `session` from its members' records (`byID`, any state).
    init(index: Int, item: TidyItem, assets byID: [AssetID: Asset], session: String) {
        self.index = index
        self.item = item
        assets = item.members.compactMap { byID[$0] }.filter { $0.state == .present }
        open = assets.filter { $0.tidyMark?.session != session }.map(\.id)
    }
}

extension TidySession {
    /// Line `n` of the list, or one line naming the damaged file.
    func item(at n: Int) throws -> TidyItem {
        guard let item = list.item(at: n) else {
            throw TidyError.damaged(TidyStore.listPath(state.session), "line \(n + 2) is not an item")
        }
        return item
    }
}

/// Tidy (brief 004) on a library: review sessions over a filter, similar shots, the marked
/// photos and `empty`. Decisions are per-asset truth (`TidyMark` through the writer: journaled,
/// in the sidecars, surviving `rebuild`); the session is `.shoebox/tidy.json` plus its list
/// (`TidyStore`). Every method that writes expects the caller to hold the writer lock.
public struct Tidy {
    public let library: Library
    public let index: Index
    public let writer: AssetWriter
    public let now: Date
    public var store: TidyStore { TidyStore(library: library) }

    /// The index on decisions (`FeatureIndex`), so counting the piles and finding the maybe pile
    /// reads a few index entries. Call before opening the index (`openIndex` does).
    public static let decisionIndex = FeatureIndex(feature: TidyMark.feature, field: "decision")

    /// What Tidy adds to a library session: its index on decisions.
    public static let feature = LibraryFeature(name: TidyMark.feature, schema: IndexSchema(indexes: [decisionIndex]))

    /// The library's index, with Tidy's index on decisions in its schema.
    public static func openIndex(_ library: Library) throws -> Index {
        try Index(library: library, schema: feature.schema)
    }

    public init(library: Library, index: Index, writer: AssetWriter? = nil, now: Date = ShoeboxClock.now()) {
        self.library = library
        self.index = index
        self.writer = writer ?? AssetWriter(library: library, index: index)
        self.now = now
    }

    // MARK: Sessions

    /// The session on disk (a change a kill interrupted finished first), or a new one over
    /// every photo when none was started.
    public func open() throws -> TidySession {
        guard let state = try store.loadState() else { return try start(.all) }
        var session = TidySession(state: state, list: try store.loadList(of: state))
        try recover(&session)
        return session
    }

    /// A new session over `filter`: the candidates as the index has them now, similar shots
    /// grouped, frozen into a list. Decisions already made stay on the assets.
    public func start(_ filter: TidyFilter) throws -> TidySession {
        let keys = try index.similarityKeys(matching: filter.query(now: now))
        let items = TidyItem.items(keys, groups: SimilarShots.groups(keys))
        let state = TidyState(session: AssetID().rawValue, filter: filter, startedAt: now,
                              items: items.count, totalAssets: keys.count)
        try store.start(state, items: items)
        return TidySession(state: state, list: try store.loadList(of: state))
    }

    /// The first item from the session's position on that still has a present asset this
    /// session has not decided; items passed (decided, or whose files vanished) move the
    /// position on. Nil when the session is through.
    public func current(_ session: inout TidySession) throws -> TidyCurrent? {
        var n = session.state.position
        while n < session.list.count {
            let item = try session.item(at: n)
            let found = TidyCurrent(index: n, item: item, assets: try assets(item.members), session: session.state.session)
            if !found.open.isEmpty { return found }
            session.state.positionAssets += session.list.memberCount(at: n)
            n += 1
            session.state.position = n
        }
        return nil
    }

    // MARK: Recovery

    /// Finishes the last change when a kill came between writing it into the session and
    /// storing its marks (or, for `empty`, before its marks and statistics followed the move).
    func recover(_ session: inout TidySession) throws {
        guard let last = session.state.log.last else { return }
        if last.kind == .empty {
            if last.done != true { try finishEmpty(&session) }
            return
        }
        let byID = try assets(last.marks.map(\.id))
        let stale = last.marks.filter { m in byID[m.id].map { !$0.tidyMark.isSame(as: m.to) } ?? false }
        try store(stale)
    }

    /// Writes marks onto their assets in one commit (journaled, sidecars, index).
    func store(_ marks: [TidyState.Mark]) throws {
        guard !marks.isEmpty else { return }
        let to = Dictionary(marks.map { ($0.id, $0.to) }, uniquingKeysWith: { _, b in b })
        try writer.update(marks.map(\.id)) { asset in
            if let mark = to[asset.id] { try asset.features.set(TidyMark.feature, mark) }
        }
    }

    // MARK: Reading assets

    /// Assets of `ids` in any state, by id.
    func assets(_ ids: [AssetID]) throws -> [AssetID: Asset] {
        Dictionary(try index.assets(ids: ids).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Present assets with this decision (the live halves of Live Photos aside), newest first.
    public func assets(decided decision: TidyDecision) throws -> [Asset] {
        try index.assets(matching: Self.decided(decision))
    }

    static func decided(_ decision: TidyDecision?) -> AssetQuery {
        var q = AssetQuery()
        q.sort = .date
        q.reverse = true
        q.features = [FeatureCondition(feature: TidyMark.feature, field: "decision",
                                       decision.map { .equals($0.rawValue) } ?? .absent)]
        return q
    }

    /// The companion files (a Live Photo's movie) of each asset, by its id.
    public func companions(of assets: [Asset]) throws -> [AssetID: String] {
        try index.liveVideos(for: assets.map(\.id))
    }
}
