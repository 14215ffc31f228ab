import Foundation
import MetadataCore
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// What a front end (the `tracker` commands, the web app) calls: reads without the lock, each
/// change one session write. Ids may be given as a unique prefix of 4 or more characters; the
/// records returned carry the full ids.
extension Tracker {
    // MARK: Reading

    /// Projects grouped by game system, then army (`TrackerData.projectsInOrder`).
    public func projects() throws -> [Project] { try read().projectsInOrder }

    /// One project and its miniatures (in the order added).
    public func project(_ id: String) throws -> (project: Project, miniatures: [Miniature]) {
        let d = try read()
        let p = d.projects[try d.projectIndex(id)]
        return (p, d.miniatures.filter { $0.project_id == p.id })
    }

    /// The miniatures of `project` (every one when nil), in the order added.
    public func miniatures(ofProject project: String?) throws -> [Miniature] {
        let d = try read()
        let pid = try project.map { d.projects[try d.projectIndex($0)].id }
        return d.miniatures.filter { pid == nil || $0.project_id == pid }
    }

    public func miniature(_ id: String) throws -> Miniature {
        let d = try read()
        return d.miniatures[try d.miniIndex(id)]
    }

    /// The recipes for `type` (every one when nil), in the order added.
    public func recipes(ofType type: MiniatureType?) throws -> [Recipe] {
        try read().recipes.filter { type == nil || $0.type == type }
    }

    public func recipe(_ id: String) throws -> Recipe {
        let d = try read()
        return d.recipes[try d.recipeIndex(id)]
    }

    /// A miniature's photos, oldest first (`TrackerData.photos(ofMini:)`).
    public func photos(ofMini mini: String) throws -> [TrackerPhoto] {
        let d = try read()
        return d.photos(ofMini: d.miniatures[try d.miniIndex(mini)].id)
    }

    // MARK: Projects

    public func addProject(gameSystem: String, army: String, name: String?) throws -> Project {
        try change { d, locked in (try d.addProject(gameSystem: gameSystem, army: army, name: name, at: Self.time(locked)), []) }
    }

    /// Changes the army and/or the name (an empty name clears it).
    public func updateProject(_ id: String, army: String?, name: String?) throws -> Project {
        try change { d, _ in (try d.updateProject(id, army: army, name: name), []) }
    }

    /// Removes a project with its miniatures and their photos (records and files).
    public func removeProject(_ id: String) throws -> TrackerRemoval {
        try change { d, _ in
            let pid = d.projects[try d.projectIndex(id)].id
            let minis = d.miniatures.filter { $0.project_id == pid }.map(\.id)
            let (project, photos) = try d.removeProject(pid)
            return (TrackerRemoval(kind: .project, id: project.id, miniatureIDs: minis, photos: photos), photos)
        }
    }

    // MARK: Miniatures

    /// A new miniature of `project`, unpainted.
    public func addMini(project: String, name: String, type: MiniatureType) throws -> Miniature {
        try change { d, locked in (try d.addMini(project: project, name: name, type: type, at: Self.time(locked)), []) }
    }

    /// Records a progress stage (kept in the history with its time) and/or renames.
    public func updateMini(_ id: String, progress: ProgressStage?, name: String?) throws -> Miniature {
        try change { d, locked in (try d.updateMini(id, progress: progress, name: name, at: Self.time(locked)), []) }
    }

    /// Removes a miniature and its photos (records and files).
    public func removeMini(_ id: String) throws -> TrackerRemoval {
        try change { d, _ in
            let (mini, photos) = try d.removeMini(id)
            return (TrackerRemoval(kind: .miniature, id: mini.id, miniatureIDs: [mini.id], photos: photos), photos)
        }
    }

    // MARK: Recipes

    public func addRecipe(name: String, type: MiniatureType?, steps: [String], paints: [String], techniques: [String]) throws -> Recipe {
        try change { d, _ in (try d.addRecipe(name: name, type: type, steps: steps, paints: paints, techniques: techniques), []) }
    }

    /// Changes a recipe: a list given (not nil) replaces that list whole; `clearType` removes its type.
    public func updateRecipe(_ id: String, name: String?, type: MiniatureType?, clearType: Bool,
                             steps: [String]?, paints: [String]?, techniques: [String]?) throws -> Recipe {
        try change { d, _ in
            (try d.updateRecipe(id, name: name, type: type, clearType: clearType, steps: steps, paints: paints, techniques: techniques), [])
        }
    }

    /// Removes a recipe, unlinked from every miniature (the removal names them).
    public func removeRecipe(_ id: String) throws -> TrackerRemoval {
        try change { d, _ in
            let rid = d.recipes[try d.recipeIndex(id)].id
            let linked = d.miniatures.filter { $0.recipe_ids.contains(rid) }.map(\.id)
            let recipe = try d.removeRecipe(rid)
            return (TrackerRemoval(kind: .recipe, id: recipe.id, miniatureIDs: linked, photos: []), [])
        }
    }

    /// Links a recipe to a miniature (linking twice is one link); returns the miniature.
    public func link(recipe: String, mini: String) throws -> Miniature {
        try change { d, _ in (try d.link(recipe: recipe, mini: mini, linked: true), []) }
    }

    /// Unlinks a recipe from a miniature; returns the miniature.
    public func unlink(recipe: String, mini: String) throws -> Miniature {
        try change { d, _ in (try d.link(recipe: recipe, mini: mini, linked: false), []) }
    }

    // MARK: Photos

    /// Copies a photo to the miniature `mini` (found before anything is copied): JPEG, PNG or
    /// HEIC by content, byte for byte, under `Tracker/photos/`.
    public func addPhoto(mini: String, from source: TrackerPhotoSource) throws -> TrackerPhoto {
        let importer = TrackerPhotoImport(library: library)
        return try session.write { locked in
            var data = try loaded().data
            let miniID = data.miniatures[try data.miniIndex(mini)].id
            let opened = try importer.open(source, index: locked.index, openOriginal: session.openOriginal)
            defer { close(opened.fd) }
            let (format, taken) = try importer.examine(opened)
            let id = TrackerData.newID()
            let name = id + "." + (format == .jpeg ? "jpg" : format.rawValue)
            let sha = try importer.copy(opened, named: name)
            let photo = TrackerPhoto(id: id, mini_id: miniID, file: TrackerIntegrity.photosFolder + "/" + name,
                                     taken_at: taken, added_at: Self.time(locked), sha256: sha)
            do {
                try data.addPhoto(photo)
                try store.save(data)
            } catch {
                try? library.files.removeFiles([name], inFolder: TrackerIntegrity.photosFolder)
                throw error
            }
            return photo
        }
    }

    /// Refuses, before a byte of it is received, a photo of `size` bytes (what a front end is
    /// sent: an upload's length, or what it has received so far) larger than the tracker takes.
    public static func checkPhotoSize(_ size: Int64, name: String) throws {
        if size > TrackerPhotoImport.maximumSize { throw TrackerPhotoImport.tooLarge(name, size: size) }
    }

    /// A photo's copy opened for reading (its path checked to be a tracker photo's, opened
    /// through the confined layer), with its format by content. The caller closes `descriptor`.
    public func openPhoto(_ id: String) throws -> TrackerPhotoFile {
        let d = try read()
        let photo = d.photos[try d.photoIndex(id)]
        guard TrackerIntegrity.isPhotoFile(photo.file) else {
            throw ShoeboxError(.invalidArgument, "the photo \(photo.id)'s file \(String(reflecting: photo.file)) is not under \(TrackerIntegrity.photosFolder); it is never opened",
                               remedy: TrackerRemedy.removePhotoRecord(id: photo.id))
        }
        let fd = try library.files.openRegularFile(photo.file)
        do {
            let source = TrackerPhotoImport.Source(fd: fd, shown: photo.file, size: 0)
            let size = Int64(lseek(fd, 0, SEEK_END))
            return TrackerPhotoFile(photo: photo, format: try TrackerPhotoImport(library: library).format(of: source),
                                    descriptor: fd, size: max(size, 0))
        } catch {
            close(fd)
            throw error
        }
    }

    /// Removes a photo: its record, then its file.
    public func removePhoto(_ id: String) throws -> TrackerRemoval {
        try change { d, _ in
            let photo = try d.removePhoto(id)
            return (TrackerRemoval(kind: .photo, id: photo.id, miniatureIDs: [photo.mini_id], photos: [photo]), [photo])
        }
    }

    /// The time a change stores (`$SHOEBOX_NOW` honoured through the change's clock).
    static func time(_ locked: LockedLibrary) -> String { ShoeboxClock.localISO8601(locked.now) }
}

/// A tracker photo's copy, open (`Tracker.openPhoto`): the caller closes `descriptor`.
public struct TrackerPhotoFile: Sendable {
    public var photo: TrackerPhoto
    /// JPEG, PNG or HEIC, by the file's content.
    public var format: MediaFormat
    public var descriptor: Int32
    public var size: Int64
}

/// Where an added photo comes from.
public enum TrackerPhotoSource: Sendable, Equatable {
    /// A file outside the library, absolute or relative to the current folder (the user's own
    /// path: links on the way are followed). A path inside the library is taken as that asset.
    case file(String)
    /// An asset of the library by id, id prefix or path (opened through `openOriginal`).
    case asset(String)
    /// The command line's one argument: a file outside the library when there is one at that
    /// path, else an asset reference.
    case reference(String)
    /// A file a front end received (the web app's upload, kept in a temporary file outside the
    /// library at `path`), named in messages by the `name` the user gave it.
    case received(path: String, name: String)
}
