/// How alike the members of a group of shots are (the strongest claim true of every member
/// beside the group's best one).
public enum SimilarKind: String, Codable, Sendable, CaseIterable {
    /// Byte-identical files.
    case duplicate
    /// The same picture at the same instant, stored twice differently: a re-encoded, resized
    /// or lightly edited copy (perceptual hashes within `SimilarShots.nearIdenticalDistance`).
    case nearIdentical = "near_identical"
    /// Different shots of one moment: taken within `SimilarShots.timeWindow` of each other, or
    /// alike to the eye (hashes within `similarDistance`) and within `similarWindow`.
    case similar
}

/// Assets that belong together when tidying: presented as one item, the best first.
public struct SimilarGroup: Sendable, Equatable {
    /// `g` and 16 hex digits of a hash of the sorted member ids: the same members, the same id.
    public var id: String
    public var kind: SimilarKind
    /// Best first (`SimilarShots.isBetter`).
    public var members: [AssetID]

    public init(id: String, kind: SimilarKind, members: [AssetID]) {
        self.id = id; self.kind = kind; self.members = members
    }
}

/// Finds similar shots (brief 004: "photos taken within 10 seconds of each other … presented
/// together so the user can pick the best one"), visually near-identical copies and byte-identical
/// duplicates, as connected groups. Pure: keys in, groups out. Thresholds (docs/TIDY.md):
///
/// - **duplicate** edge: the same SHA-256 (any kind of asset).
/// - **time** edge: both capture times stated by the files (never a modification time) and at most
///   `timeWindow` apart; photos and screenshots (a video is a shot of its own).
/// - **near-identical** edge: real photos (not utility: a pHash of a page of text or an app's
///   screen says little) whose pHashes differ in at most `nearIdenticalDistance` of 64 bits, taken
///   at the same instant (`sameInstant`) or with no stated time on one side (a messaging app's copy
///   loses EXIF); two photos of the same scene taken at different times are separate shots.
/// - **similar** edge: real photos within `similarWindow` whose pHashes differ in at most
///   `similarDistance` bits.
///
/// Distances measured on generated rolls (docs/TIDY.md): a re-encoded copy 0–5 bits, frames of
/// one burst 0–21, different photos of the same scene 0 and up: hence the time conditions.
public enum SimilarShots {
    public static let timeWindow = 10.0
    public static let nearIdenticalDistance = 6
    public static let similarDistance = 16
    public static let similarWindow = 60.0
    /// Capture times this close are one instant (files keep milliseconds; a copy keeps the time).
    public static let sameInstant = 0.01

    /// The groups among `keys` (two or more members each), in the order of each group's first
    /// member in `keys`.
    public static func groups(_ keys: [SimilarityKey]) -> [SimilarGroup] {
        var sets = DisjointSets(count: keys.count)
        linkDuplicates(keys, &sets)
        linkByTime(keys, &sets)
        linkUndatedCopies(keys, &sets)
        // Members of each set of two or more, sets in the order of their first member: flat
        // arrays by root (a dictionary of an array per asset was most of the grouping's time).
        let roots = keys.indices.map { sets.find($0) }
        var sizes = [Int](repeating: 0, count: keys.count)
        for r in roots { sizes[r] += 1 }
        var slot = [Int](repeating: -1, count: keys.count)
        var members: [[Int]] = []
        for (i, r) in roots.enumerated() where sizes[r] > 1 {
            if slot[r] < 0 {
                slot[r] = members.count
                members.append([])
                members[slot[r]].reserveCapacity(sizes[r])
            }
            members[slot[r]].append(i)
        }
        return members.map { m in
            let ranked = m.map { keys[$0] }.sorted(by: isBetter)
            return SimilarGroup(id: groupID(ranked.map(\.id)), kind: kind(of: ranked), members: ranked.map(\.id))
        }
    }

    /// The order within a group: the higher score (unscored last), then more pixels, then the
    /// earlier stated capture time, then the id. Never the larger file alone: a bloated copy is
    /// not a better photo.
    public static func isBetter(_ a: SimilarityKey, _ b: SimilarityKey) -> Bool {
        if a.score != b.score {
            guard let sa = a.score else { return false }
            guard let sb = b.score else { return true }
            return sa > sb
        }
        if a.pixels != b.pixels { return a.pixels > b.pixels }
        if a.statedTime != b.statedTime { return (a.statedTime ?? .infinity) < (b.statedTime ?? .infinity) }
        return a.id.rawValue < b.id.rawValue
    }

    // MARK: Edges

    static func isVisual(_ k: SimilarityKey) -> Bool { k.kind == .photo && !k.isUtility && k.perceptualHash != nil }

    static func distance(_ a: SimilarityKey, _ b: SimilarityKey) -> Int {
        ((a.perceptualHash ?? 0) ^ (b.perceptualHash ?? 0)).nonzeroBitCount
    }

    static func areNearIdentical(_ a: SimilarityKey, _ b: SimilarityKey) -> Bool {
        if a.sha256 == b.sha256 { return true }
        guard isVisual(a), isVisual(b), distance(a, b) <= nearIdenticalDistance else { return false }
        guard let ta = a.statedTime, let tb = b.statedTime else { return true }
        return abs(ta - tb) < sameInstant
    }

    private static func linkDuplicates(_ keys: [SimilarityKey], _ sets: inout DisjointSets) {
        var first: [String: Int] = [:]
        first.reserveCapacity(keys.count)
        for i in keys.indices {
            if let j = first.updateValue(i, forKey: keys[i].sha256) { sets.union(i, j) }
        }
    }

    private static func linkByTime(_ keys: [SimilarityKey], _ sets: inout DisjointSets) {
        let timed = keys.indices.filter { keys[$0].statedTime != nil && keys[$0].kind != .video }
            .sorted { (keys[$0].statedTime!, $0) < (keys[$1].statedTime!, $1) }
        let window = max(timeWindow, similarWindow)
        for (n, i) in timed.enumerated() {
            let a = keys[i], ta = a.statedTime!
            for j in timed[(n + 1)...] {
                let b = keys[j], gap = b.statedTime! - ta
                if gap > window { break }
                if gap <= timeWindow || (isVisual(a) && isVisual(b) && distance(a, b) <= similarDistance) {
                    sets.union(i, j)
                }
            }
        }
    }

    private static func linkUndatedCopies(_ keys: [SimilarityKey], _ sets: inout DisjointSets) {
        let visual = keys.indices.filter { isVisual(keys[$0]) }
        let undated = visual.filter { keys[$0].statedTime == nil }
        guard !undated.isEmpty else { return }
        let index = HashNeighbours(visual.map { keys[$0].perceptualHash! }, radius: nearIdenticalDistance)
        for i in undated {
            for n in index.neighbours(of: keys[i].perceptualHash!) where visual[n] != i { sets.union(i, visual[n]) }
        }
    }

    // MARK: Groups

    static func kind(of ranked: [SimilarityKey]) -> SimilarKind {
        let best = ranked[0]
        if ranked.allSatisfy({ $0.sha256 == best.sha256 }) { return .duplicate }
        if ranked.dropFirst().allSatisfy({ areNearIdentical($0, best) }) { return .nearIdentical }
        return .similar
    }

    /// FNV-1a over the sorted ids: stable across runs and machines (Swift's Hasher is seeded).
    public static func groupID(_ ids: [AssetID]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for id in ids.map(\.rawValue).sorted() {
            for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            hash = hash &* 0x0000_0100_0000_01b3  // the 0 ending each id
        }
        let hex = String(hash, radix: 16)
        return "g" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// Union–find with path halving and union by size.
struct DisjointSets {
    private var parent: [Int]
    private var size: [Int]

    init(count: Int) {
        parent = Array(0..<count)
        size = Array(repeating: 1, count: count)
    }

    mutating func find(_ x: Int) -> Int {
        var x = x
        while parent[x] != x {
            parent[x] = parent[parent[x]]
            x = parent[x]
        }
        return x
    }

    mutating func union(_ a: Int, _ b: Int) {
        var ra = find(a), rb = find(b)
        guard ra != rb else { return }
        if size[ra] < size[rb] { swap(&ra, &rb) }
        parent[rb] = ra
        size[ra] += size[rb]
    }
}
