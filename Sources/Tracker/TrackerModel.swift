import Foundation

/// The Warhammer game systems a project belongs to (brief 002, requirement 1.5). Given on the
/// command line as free text the library checks (`tracker project add --game-system …`), so an
/// unknown one is one clear line and exit 1, not a usage error.
public enum GameSystem: String, Codable, CaseIterable, Sendable {
    case ageOfSigmar = "Age of Sigmar"
    case warhammer40K = "Warhammer 40K"
    case horusHeresy = "Horus Heresy"

    /// The order `project list` groups by: the brief's order of the systems.
    var rank: Int { Self.allCases.firstIndex(of: self)! }

    /// `text` read the way people write it: the name in any case, or a common short form
    /// (`aos`, `40k`, `wh40k`, `hh`). Nil for anything else.
    public init?(userText text: String) {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        let aliases: [String: GameSystem] = ["aos": .ageOfSigmar, "40k": .warhammer40K, "wh40k": .warhammer40K,
                                             "warhammer 40,000": .warhammer40K, "hh": .horusHeresy]
        if let known = Self.allCases.first(where: { $0.rawValue.lowercased() == t }) { self = known; return }
        guard let alias = aliases[t] else { return nil }
        self = alias
    }
}

/// A miniature's type (requirement 2.5); recipes carry one too, to filter by (3.3).
public enum MiniatureType: String, Codable, CaseIterable, Sendable {
    case troop, character
}

/// Painting stages, in the order a miniature goes through them (requirement 2.3).
public enum ProgressStage: String, Codable, CaseIterable, Sendable {
    case unpainted, primed, basecoated, detailed, completed
}

/// A painting project: a collection of miniatures of one army in one game system.
public struct Project: Codable, Equatable, Sendable {
    public var id: String
    public var game_system: GameSystem
    public var army: String
    public var name: String?
    public var created_at: String

    enum CodingKeys: String, CodingKey { case id, game_system, army, name, created_at }

    /// Every field, `name` as null when there is none (the contract lists it always).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(game_system, forKey: .game_system)
        try c.encode(army, forKey: .army)
        try c.encode(name, forKey: .name)
        try c.encode(created_at, forKey: .created_at)
    }
}

/// One step of a miniature's progress history: the stage it reached and when.
public struct ProgressStep: Codable, Equatable, Sendable {
    public var progress: ProgressStage
    public var at: String
}

/// One miniature of a project, with its progress history (oldest first), the recipes linked
/// to it and its photos (in the order added; `photo list` orders them by capture time).
public struct Miniature: Codable, Equatable, Sendable {
    public var id: String
    public var project_id: String
    public var name: String
    public var type: MiniatureType
    public var progress: ProgressStage
    public var history: [ProgressStep]
    public var recipe_ids: [String]
    public var photo_ids: [String]
}

/// A painting recipe: steps in order, paints and techniques, independent of projects.
public struct Recipe: Codable, Equatable, Sendable {
    public var id: String
    public var name: String
    public var type: MiniatureType?
    public var steps: [String]
    public var paints: [String]
    public var techniques: [String]

    enum CodingKeys: String, CodingKey { case id, name, type, steps, paints, techniques }

    /// Every field, `type` as null when the recipe has none.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(type, forKey: .type)
        try c.encode(steps, forKey: .steps)
        try c.encode(paints, forKey: .paints)
        try c.encode(techniques, forKey: .techniques)
    }
}

/// A photo of a miniature: a byte-identical copy under `Tracker/photos/`, never the data itself.
public struct TrackerPhoto: Codable, Equatable, Sendable {
    public var id: String
    public var mini_id: String
    /// Relative to the library: `Tracker/photos/<id>.<ext>` (checked before every use).
    public var file: String
    /// The capture time the photo's own metadata states (EXIF, XMP, IPTC or its container), else null.
    public var taken_at: String?
    public var added_at: String
    public var sha256: String

    enum CodingKeys: String, CodingKey { case id, mini_id, file, taken_at, added_at, sha256 }

    /// Every field, `taken_at` as null when the photo states no capture time.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(mini_id, forKey: .mini_id)
        try c.encode(file, forKey: .file)
        try c.encode(taken_at, forKey: .taken_at)
        try c.encode(added_at, forKey: .added_at)
        try c.encode(sha256, forKey: .sha256)
    }
}

/// Everything the tracker holds: the store of record's content, as one value. Changes are made
/// on a copy and saved whole, so a failure never leaves half of one on disk.
public struct TrackerData: Equatable, Sendable {
    public var projects: [Project] = []
    public var miniatures: [Miniature] = []
    public var recipes: [Recipe] = []
    public var photos: [TrackerPhoto] = []

    public init() {}

    public init(projects: [Project], miniatures: [Miniature], recipes: [Recipe], photos: [TrackerPhoto]) {
        self.projects = projects
        self.miniatures = miniatures
        self.recipes = recipes
        self.photos = photos
    }

    /// Projects grouped by game system (the brief's order), then army, then name and creation.
    public var projectsInOrder: [Project] {
        projects.enumerated().sorted { a, b in
            let x = a.element, y = b.element
            if x.game_system != y.game_system { return x.game_system.rank < y.game_system.rank }
            let armies = x.army.localizedCaseInsensitiveCompare(y.army)
            if armies != .orderedSame { return armies == .orderedAscending }
            let names = (x.name ?? "").localizedCaseInsensitiveCompare(y.name ?? "")
            if names != .orderedSame { return names == .orderedAscending }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// A miniature's photos in chronological order: capture time when the photo states one,
    /// else the time it was added; ties in the order they were added.
    public func photos(ofMini id: String) -> [TrackerPhoto] {
        photos.enumerated().filter { $0.element.mini_id == id }.sorted { a, b in
            let x = Self.instant(a.element), y = Self.instant(b.element)
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
    }

    static func instant(_ p: TrackerPhoto) -> Double {
        let text = p.taken_at ?? p.added_at
        return (TrackerClock.parse(text) ?? TrackerClock.parse(p.added_at) ?? .distantPast).timeIntervalSince1970
    }
}
