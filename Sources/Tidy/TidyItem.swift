import PhotoLibrary

/// One step of a review session: an asset on its own, or a group of similar shots decided
/// together (or member by member).
public enum TidyItem: Equatable, Sendable {
    case asset(AssetID)
    case group(SimilarGroup)

    /// The assets it covers, best first for a group.
    public var members: [AssetID] {
        switch self {
        case .asset(let id): [id]
        case .group(let g): g.members
        }
    }

    /// The items of a session over `keys` (in review order): each group where its first member
    /// comes, members best first; everything else one by one.
    static func items(_ keys: [SimilarityKey], groups: [SimilarGroup]) -> [TidyItem] {
        var groupOf: [AssetID: Int] = [:]
        for (n, g) in groups.enumerated() { for id in g.members { groupOf[id] = n } }
        var placed = Set<Int>()
        var items: [TidyItem] = []
        items.reserveCapacity(keys.count)
        for k in keys {
            if let n = groupOf[k.id] {
                if placed.insert(n).inserted { items.append(.group(groups[n])) }
            } else {
                items.append(.asset(k.id))
            }
        }
        return items
    }
}
