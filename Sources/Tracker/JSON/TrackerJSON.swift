import PhotoLibrary

// The tracker's public JSON shapes (`tracker … --json`) are its records as stored, field for
// field (docs/CONTRACT.md): project `id, game_system, army, name, created_at`; miniature `id,
// project_id, name, type, progress, history [{progress, at}], recipe_ids, photo_ids`; recipe
// `id, name, type, steps, paints, techniques`; photo `id, mini_id, file, taken_at, added_at,
// sha256`. Absent optional values are null, never missing.
extension Project: PublicJSONShape {}
extension Miniature: PublicJSONShape {}
extension Recipe: PublicJSONShape {}
extension TrackerPhoto: PublicJSONShape {}

/// What `tracker project rm --json` (and the other `rm`s) prints: what was removed, with the
/// ids of everything that went with it and the photo files deleted (relative to the library).
public struct TrackerRemovalJSON: PublicJSONShape, Sendable {
    public var removed: String
    public var id: String
    public var miniature_ids: [String]
    public var photo_ids: [String]
    public var files_removed: [String]

    public init(_ removal: TrackerRemoval) {
        removed = removal.kind.rawValue
        id = removal.id
        miniature_ids = removal.miniatureIDs
        photo_ids = removal.photos.map(\.id)
        files_removed = removal.filesRemoved
    }
}

/// What `tracker export --json` prints: the folder and the files written in it (absolute).
public struct TrackerExportJSON: PublicJSONShape, Sendable {
    public var to: String
    public var format: String
    public var files: [String]
    public var projects: Int
    public var miniatures: Int
    public var recipes: Int
    public var photos: Int

    public init(to: String, format: String, files: [String], projects: Int, miniatures: Int, recipes: Int, photos: Int) {
        self.to = to
        self.format = format
        self.files = files
        self.projects = projects
        self.miniatures = miniatures
        self.recipes = recipes
        self.photos = photos
    }
}
