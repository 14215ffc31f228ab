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
    /// The session whose marks count as decided here.
    let session: String

    /// The present members not yet decided in this session. Worked out when asked (a listing
    /// never asks: an array per item was one allocation and one free per item of 100,000).
    public var open: [AssetID] {
        assets.compactMap { $0.tidyMark?.session != session ? $0.id : nil }
    }

    /// Item `index` of `session` from its members' records (`byID`, any state).
    init(index: Int, item: TidyItem, assets byID: [AssetID: Asset], session: String) {
        var byID = byID
        self.init(index: index, item: item, assets: &byID, moving: false, session: session)
    }

    /// The same, its members' records taken out of `byID` when `moving` (a listing's batch, where
    /// no other item asks for them: each asset's strings and arrays are then not retained once
    /// more for the copy and released again with the batch).
    init(index: Int, item: TidyItem, assets byID: inout [AssetID: Asset], moving: Bool, session: String) {
        self.index = index
        self.item = item
        self.session = session
        // One pass, each asset copied once (a listing makes 100,000 of these: `compactMap` then
        // `filter` copied every asset twice and made two arrays).
        let members = item.members
        var assets: [Asset] = []
        assets.reserveCapacity(members.count)
        for id in members {
            guard let a = moving ? byID.removeValue(forKey: id) : byID[id], a.state == .present else { continue }
            assets.append(a)
        }
        self.assets = assets
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
/// (`TidyStore`).
///
/// A front end calls the static entry points on a `LibrarySession` (`Tidy+Session.swift`):
/// reading takes no lock, changing runs inside `session.write`. A value of this type is the rules
/// at work on one library at one instant (`now`): made for reading (`init(reading:)`) or inside a
/// write (`init(_ locked:)`), whose writer its changes go through.
public struct Tidy {
    package let library: Library
    package let index: Index
    package let writer: AssetWriter
    package let now: Date
    package var store: TidyStore { TidyStore(library: library) }

    /// The index on decisions (`FeatureIndex`), so counting the piles and finding the maybe pile
    /// reads a few index entries.
    package static let decisionIndex = FeatureIndex(feature: TidyMark.feature, field: "decision")

    /// What Tidy adds to a library session: its index on decisions, and the repair every write
    /// runs after the core's (`recoverAfterKill`: a killed `empty` finished with the files where
    /// they really are).
    public static let feature = LibraryFeature(name: TidyMark.feature, schema: IndexSchema(indexes: [decisionIndex]),
                                               recover: { try Tidy($0).recoverAfterKill() })

    package init(library: Library, index: Index, writer: AssetWriter, now: Date) {
        self.library = library
        self.index = index
        self.writer = writer
        self.now = now
    }

    /// Tidy inside `LibrarySession.write`: its changes go through the lock's writer, at its clock.
    package init(_ locked: LockedLibrary) {
        self.init(library: locked.library, index: locked.index, writer: locked.writer, now: locked.now)
    }

    /// Tidy for reading: nothing it is asked then writes.
    package init(reading session: LibrarySession) {
        self.init(library: session.library, index: session.index, writer: session.writer, now: ShoeboxClock.now())
    }

    // MARK: Sessions

    /// The session on disk as it is, or nil when none was started (reading: nothing is repaired).
    package func load() throws -> TidySession? {
        guard let state = try store.loadState() else { return nil }
        do {
            return TidySession(state: state, list: try store.loadList(of: state))
        } catch {
            // Without the lock, the state may be read just before another process (the web
            // page, a terminal) starts a new session and removes this one's list: the state
            // read again names the new session, whose list is written before it.
            guard let now = try store.loadState(), now.session != state.session else { throw error }
            return TidySession(state: now, list: try store.loadList(of: now))
        }
    }

    /// Under the writer lock: the session on disk with its last change finished (when a kill
    /// interrupted it), or a new one over every photo when none was started.
    package func open() throws -> TidySession {
        guard var session = try load() else { return try start(.all) }
        try recover(&session.state)
        return session
    }

    /// A new session over `filter`: the candidates as the index has them now, similar shots
    /// grouped, frozen into a list. Decisions already made stay on the assets.
    package func start(_ filter: TidyFilter, goingOnFrom previous: TidyState? = nil) throws -> TidySession {
        let keys = try index.similarityKeys(matching: filter.query(now: now))
        let items = TidyItem.items(keys, groups: SimilarShots.groups(keys))
        var state = TidyState(session: AssetID().rawValue, filter: filter, startedAt: now,
                              items: items.count, totalAssets: keys.count)
        if let previous { state.goOn(from: previous) }
        try store.start(state, items: items)
        return TidySession(state: state, list: try store.loadList(of: state))
    }

    /// The first item from the session's position on that still has a present asset this
    /// session has not decided; items passed (decided, or whose files vanished) move the
    /// position on (in `session`: saving it is the caller's, under the lock). Nil when the
    /// session is through.
    package func current(_ session: inout TidySession) throws -> TidyCurrent? {
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
        try index.assetsByID(ids)
    }

    /// Present assets with this decision (the live halves of Live Photos aside), newest first.
    package func assets(decided decision: TidyDecision) throws -> [Asset] {
        try index.assets(matching: Self.decided(decision))
    }

    /// Assets in `state` with `decision` (none: never decided), newest first.
    static func decided(_ decision: TidyDecision?, state: AssetState = .present) -> AssetQuery {
        var q = AssetQuery()
        q.sort = .date
        q.reverse = true
        q.states = [state]
        q.features = [FeatureCondition(feature: TidyMark.feature, field: "decision",
                                       decision.map { .equals($0.rawValue) } ?? .absent)]
        return q
    }

    /// The companion files (a Live Photo's movie, a raw file) of each asset, by its id: the
    /// core's rule (`Index.companions`), as every listing shows them.
    package func companions(of assets: [Asset]) throws -> [AssetID: String] {
        try index.companions(of: assets)
    }
}
