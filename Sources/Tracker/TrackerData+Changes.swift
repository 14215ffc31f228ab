import Foundation
import PhotoLibrary

/// The changes the commands make, pure: validation, links kept consistent, cascades. Files are
/// not touched here (`Tracker` removes the photo files a change drops, after saving it).
extension TrackerData {
    /// The longest name, army, step, paint or technique accepted: far more than anyone types,
    /// small enough that a store of thousands of minis stays a few megabytes.
    static let maximumText = 1000

    /// `text` trimmed; throws when it is empty (requirements 1.1, 2.1, 3.1) or too long.
    static func required(_ text: String, _ field: TrackerField, of kind: String) throws -> String {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !t.isEmpty else { throw TrackerError.required(field, of: kind) }
        guard t.count <= maximumText else { throw TrackerError.tooLong(field, limit: maximumText) }
        return t
    }

    /// An optional text: nil when absent or blank.
    static func optional(_ text: String?, _ field: TrackerField) throws -> String? {
        guard let t = text?.trimmingCharacters(in: .whitespacesAndNewlines), !t.isEmpty else { return nil }
        guard t.count <= maximumText else { throw TrackerError.tooLong(field, limit: maximumText) }
        return t
    }

    static func newID() -> String { UUID().uuidString.lowercased() }

    // MARK: Finding by id

    /// The index of the element whose id is `id` or starts with it (at least 4 characters).
    static func find<T>(_ id: String, in items: [T], id key: (T) -> String, kind: TrackerRecordKind) throws -> Int {
        let wanted = id.lowercased()
        if let exact = items.firstIndex(where: { key($0) == wanted }) { return exact }
        let matches = wanted.count >= 4 ? items.indices.filter { key(items[$0]).hasPrefix(wanted) } : []
        if matches.count > 1 { throw TrackerError.ambiguous(kind, id) }
        guard let only = matches.first else { throw TrackerError.notFound(kind, id) }
        return only
    }

    func projectIndex(_ id: String) throws -> Int { try Self.find(id, in: projects, id: \.id, kind: .project) }
    func miniIndex(_ id: String) throws -> Int { try Self.find(id, in: miniatures, id: \.id, kind: .miniature) }
    func recipeIndex(_ id: String) throws -> Int { try Self.find(id, in: recipes, id: \.id, kind: .recipe) }
    func photoIndex(_ id: String) throws -> Int { try Self.find(id, in: photos, id: \.id, kind: .photo) }

    // MARK: Projects

    mutating func addProject(gameSystem: String, army: String, name: String?, at now: String) throws -> Project {
        guard !gameSystem.trimmingCharacters(in: .whitespaces).isEmpty else { throw TrackerError.required(.gameSystem, of: "project") }
        guard let system = GameSystem(userText: gameSystem) else { throw TrackerError.unknownGameSystem(gameSystem) }
        let project = Project(id: Self.newID(), game_system: system, army: try Self.required(army, .army, of: "project"),
                              name: try Self.optional(name, .name), created_at: now)
        projects.append(project)
        return project
    }

    /// Changes the army and/or name (an empty name clears it; an empty army is refused).
    mutating func updateProject(_ id: String, army: String?, name: String?) throws -> Project {
        let i = try projectIndex(id)
        if let army { projects[i].army = try Self.required(army, .army, of: "project") }
        if let name { projects[i].name = try Self.optional(name, .name) }
        return projects[i]
    }

    /// Removes a project, its miniatures and their photos (requirement 1.4); returns the photos
    /// dropped, whose files the caller removes.
    mutating func removeProject(_ id: String) throws -> (Project, [TrackerPhoto]) {
        let project = projects.remove(at: try projectIndex(id))
        let minis = Set(miniatures.filter { $0.project_id == project.id }.map(\.id))
        miniatures.removeAll { minis.contains($0.id) }
        let dropped = photos.filter { minis.contains($0.mini_id) }
        photos.removeAll { minis.contains($0.mini_id) }
        return (project, dropped)
    }

    // MARK: Miniatures

    mutating func addMini(project: String, name: String, type: MiniatureType, at now: String) throws -> Miniature {
        let p = projects[try projectIndex(project)]
        let mini = Miniature(id: Self.newID(), project_id: p.id, name: try Self.required(name, .name, of: "miniature"),
                             type: type, progress: .unpainted, history: [ProgressStep(progress: .unpainted, at: now)],
                             recipe_ids: [], photo_ids: [])
        miniatures.append(mini)
        return mini
    }

    /// A new stage is recorded in the history with its time (requirement 2.2), even when it is
    /// the stage the miniature is at (a repaint is still an update).
    mutating func updateMini(_ id: String, progress: ProgressStage?, name: String?, at now: String) throws -> Miniature {
        let i = try miniIndex(id)
        if let name { miniatures[i].name = try Self.required(name, .name, of: "miniature") }
        if let progress {
            miniatures[i].progress = progress
            miniatures[i].history.append(ProgressStep(progress: progress, at: now))
        }
        return miniatures[i]
    }

    /// Removes a miniature and its photos (requirement 2.4); returns the photos dropped.
    mutating func removeMini(_ id: String) throws -> (Miniature, [TrackerPhoto]) {
        let mini = miniatures.remove(at: try miniIndex(id))
        let dropped = photos.filter { $0.mini_id == mini.id }
        photos.removeAll { $0.mini_id == mini.id }
        return (mini, dropped)
    }

    // MARK: Recipes

    mutating func addRecipe(name: String, type: MiniatureType?, steps: [String], paints: [String],
                                   techniques: [String]) throws -> Recipe {
        let recipe = Recipe(id: Self.newID(), name: try Self.required(name, .name, of: "recipe"), type: type,
                            steps: try Self.list(steps, .steps), paints: try Self.list(paints, .paints),
                            techniques: try Self.list(techniques, .techniques))
        recipes.append(recipe)
        return recipe
    }

    /// Changes a recipe (requirement 3.4): the name, the type (`clearType` removes it), and any
    /// list given replaces that list whole (steps in their new order).
    mutating func updateRecipe(_ id: String, name: String?, type: MiniatureType?, clearType: Bool,
                                      steps: [String]?, paints: [String]?, techniques: [String]?) throws -> Recipe {
        let i = try recipeIndex(id)
        var r = recipes[i]
        if let name { r.name = try Self.required(name, .name, of: "recipe") }
        if clearType { r.type = nil }
        if let type { r.type = type }
        if let steps { r.steps = try Self.list(steps, .steps) }
        if let paints { r.paints = try Self.list(paints, .paints) }
        if let techniques { r.techniques = try Self.list(techniques, .techniques) }
        recipes[i] = r
        return r
    }

    /// Each entry of a recipe's list trimmed and non-empty.
    static func list(_ items: [String], _ field: TrackerField) throws -> [String] {
        try items.map { try required($0, field, of: "recipe's \(field.words) entry") }
    }

    /// Removes a recipe and unlinks it from every miniature (requirement 3.4, integrity 9.3).
    mutating func removeRecipe(_ id: String) throws -> Recipe {
        let recipe = recipes.remove(at: try recipeIndex(id))
        for i in miniatures.indices { miniatures[i].recipe_ids.removeAll { $0 == recipe.id } }
        return recipe
    }

    /// Links (or unlinks) a recipe and a miniature; both must exist. Linking twice is one link.
    mutating func link(recipe: String, mini: String, linked: Bool) throws -> Miniature {
        let r = recipes[try recipeIndex(recipe)]
        let i = try miniIndex(mini)
        miniatures[i].recipe_ids.removeAll { $0 == r.id }
        if linked { miniatures[i].recipe_ids.append(r.id) }
        return miniatures[i]
    }

    // MARK: Photos

    /// Records a photo already copied into place for the miniature `mini` (an exact id).
    mutating func addPhoto(_ photo: TrackerPhoto) throws {
        let i = try miniIndex(photo.mini_id)
        photos.append(photo)
        miniatures[i].photo_ids.append(photo.id)
    }

    /// Removes a photo's record (requirement 4.4: the caller removes its file).
    mutating func removePhoto(_ id: String) throws -> TrackerPhoto {
        let photo = photos.remove(at: try photoIndex(id))
        for i in miniatures.indices { miniatures[i].photo_ids.removeAll { $0 == photo.id } }
        return photo
    }
}
