import Foundation
import PhotoLibrary

/// An asset under review (`tidy next|trash|maybes|similar --json`). Public contract: every field
/// of the asset shape (`AssetJSON`) plus `decision` (`keep`, `delete`, `maybe`, `emptied` or null).
public struct TidyAssetJSON: PublicJSONShape, Sendable {
    var asset: AssetJSON
    var decision: String?

    public init(_ a: Asset, liveVideo: String?) {
        asset = AssetJSON(a, liveVideo: liveVideo)
        decision = a.tidyMark?.decision.rawValue
    }

    enum CodingKeys: String, CodingKey { case decision }

    /// `decision`'s place among the asset's members.
    static let decisionMember = AssetJSON.Extra(key: CodingKeys.decision.stringValue)

    public func encode(to encoder: any Encoder) throws {
        // The streaming writer: the asset and `decision` written in key order at once (given one
        // after the other, every asset's 39 members were put in order again).
        if try asset.writeWhole(to: encoder, adding: Self.decisionMember, decision) { return }
        try asset.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(decision, forKey: .decision)
    }
}

/// A group of similar shots: `{"group": ID, "kind": "duplicate"|"near_identical"|"similar",
/// "items": [assets, best first]}` (public contract).
public struct TidyGroupJSON: PublicJSONShape, Sendable {
    var group: String
    var kind: String
    var items: [TidyAssetJSON]

    public init(_ g: SimilarGroup, assets: [Asset], companions: [AssetID: String]) {
        group = g.id
        kind = g.kind.rawValue
        items = assets.map { TidyAssetJSON($0, liveVideo: companions[$0.id]) }
    }

    enum CodingKeys: String, CodingKey { case group, items, kind }

    /// In the order the output sorts them: the writer then has no member to move (moving
    /// `kind` before `items` copied every group's assets once more).
    public func encode(to encoder: any Encoder) throws {
        let items = items
        if try AssetJSON.writeWhole(to: encoder, strings: [("group", group), ("kind", kind)], array: "items", at: 1,
                                    count: items.count, extra: TidyAssetJSON.decisionMember,
                                    { (items[$0].asset, items[$0].decision) }) { return }
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(group, forKey: .group)
        try c.encode(items, forKey: .items)
        try c.encode(kind, forKey: .kind)
    }
}

/// The item under review: an asset, or a group (a group whose other members vanished is shown
/// as the asset left).
public enum TidyItemJSON: PublicJSONShape, Sendable {
    case asset(TidyAssetJSON)
    case group(TidyGroupJSON)

    public init(_ current: TidyCurrent, companions: [AssetID: String]) {
        if case .group(let g) = current.item, current.assets.count > 1 {
            self = .group(TidyGroupJSON(g, assets: current.assets, companions: companions))
        } else {
            let a = current.assets[0]
            self = .asset(TidyAssetJSON(a, liveVideo: companions[a.id]))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .asset(let a): try a.encode(to: encoder)
        case .group(let g): try g.encode(to: encoder)
        }
    }
}

/// `tidy status --json`. Public contract: `filter`, `position`, `total`, `marked`, `maybe`,
/// `reviewed` (assets: each member of a group counts, a Live Photo once); also `session`,
/// `started_at`, `item_position`, `items`, `unreviewed` (null unless counted: `tidy status` and a
/// finished session count it), `removed`, `freed_bytes`, `done`.
public struct TidyStatusJSON: PublicJSONShape, Sendable {
    var filter: String
    var position: Int
    var total: Int
    var marked: Int
    var maybe: Int
    var reviewed: Int
    var session: String
    var started_at: String
    var item_position: Int
    var items: Int
    var unreviewed: Int?
    var removed: Int
    var freed_bytes: Int64
    var done: Bool

    public init(_ s: TidyStatus) {
        filter = s.filter.description
        position = s.position
        total = s.total
        marked = s.marked
        maybe = s.maybe
        reviewed = s.reviewed
        session = s.session
        started_at = ShoeboxClock.localISO8601(s.startedAt)
        item_position = s.itemPosition
        items = s.items
        unreviewed = s.unreviewed
        removed = s.removed
        freed_bytes = s.freedBytes
        done = s.done
    }
}

/// `tidy next --json`: `{"item": asset | group | null, "status": …}`.
public struct TidyNextJSON: PublicJSONShape, Sendable {
    var item: TidyItemJSON?
    var status: TidyStatusJSON

    public init(item: TidyItemJSON?, status: TidyStatusJSON) { self.item = item; self.status = status }

    enum CodingKeys: String, CodingKey { case item, status }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(item, forKey: .item)  // null when the session is through
        try c.encode(status, forKey: .status)
    }
}

/// `tidy keep|delete|maybe --json`: `decision`, `decided` (ids), `others` (ids `--others`
/// decided), `others_decision`, `next` (the item now under review or null), `status`.
public struct TidyDecisionJSON: PublicJSONShape, Sendable {
    var decision: String
    var decided: [String]
    var others: [String]
    var others_decision: String?
    var next: TidyItemJSON?
    var status: TidyStatusJSON

    public init(_ d: Tidy.Decided, next: TidyItemJSON?, status: TidyStatusJSON) {
        decision = d.decision.rawValue
        decided = d.ids.map(\.rawValue)
        others = d.others.map(\.rawValue)
        others_decision = d.othersDecision?.rawValue
        self.next = next
        self.status = status
    }

    enum CodingKeys: String, CodingKey { case decision, decided, others, others_decision, next, status }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(decision, forKey: .decision)
        try c.encode(decided, forKey: .decided)
        try c.encode(others, forKey: .others)
        try c.encode(others_decision, forKey: .others_decision)
        try c.encode(next, forKey: .next)
        try c.encode(status, forKey: .status)
    }
}

/// `tidy empty --json` (brief 004's stats screen): `removed`, `freed_bytes`, `freed` (as said:
/// "1.2 GB"), `reviewed` (this session), `purge_date` (local date-time), `failed`, and the
/// session's totals `session_removed`, `session_freed_bytes`.
public struct TidyEmptyJSON: PublicJSONShape, Sendable {
    var removed: Int
    var freed_bytes: Int64
    var freed: String
    var reviewed: Int
    var purge_date: String
    var failed: Int
    var session_removed: Int
    var session_freed_bytes: Int64

    public init(_ e: Tidy.Emptied) {
        removed = e.removed
        freed_bytes = e.freedBytes
        freed = TidyFormat.bytes(e.freedBytes)
        reviewed = e.reviewed
        purge_date = ShoeboxClock.localISO8601(e.purgeDate)
        failed = e.failed
        session_removed = e.sessionRemoved
        session_freed_bytes = e.sessionFreedBytes
    }
}

/// Words for numbers, as the brief writes them.
public enum TidyFormat {
    /// "1.2 GB" (decimal units, as phones count storage); "340.5 MB" under a gigabyte, "85.3 kB"
    /// under a megabyte.
    public static func bytes(_ n: Int64) -> String {
        let value = Double(n)
        if value >= 1e9 { return String(format: "%.1f GB", value / 1e9) }
        if value >= 1e6 { return String(format: "%.1f MB", value / 1e6) }
        return String(format: "%.1f kB", value / 1e3)
    }
}
