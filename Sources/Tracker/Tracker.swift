import Foundation
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// The painting tracker (brief 002) on a library: projects, miniatures, recipes and photos in
/// `Tracker/tracker.json` (`TrackerStore`), photo copies in `Tracker/photos/`.
///
/// Every change holds the writer lock from load to save and is saved whole before any file it
/// drops is deleted: a kill in between leaves a copy no record names, which the next change
/// deletes (`TrackerStore.removeLeftovers`). An added photo is copied before the record that
/// names it is saved, and its copy removed again when that save fails.
public struct Tracker {
    public let library: Library
    public var store: TrackerStore { TrackerStore(library: library) }
    /// Integrity findings are said through this, one line each (stderr in the CLI).
    let note: (String) -> Void

    public init(library: Library, note: @escaping (String) -> Void = { _ in }) {
        self.library = library
        self.note = note
    }

    /// The tracker as stored, its integrity findings said.
    public func read() throws -> TrackerData {
        let loaded = try store.load()
        for p in loaded.problems { note("\(TrackerStore.path): \(p)") }
        return loaded.data
    }

    /// Runs `change` on the stored data under the writer lock and saves the result; the photo
    /// records it returns as dropped have their files deleted once the save is done.
    public func change<T>(_ change: (inout TrackerData) throws -> (result: T, dropped: [TrackerPhoto])) throws -> T {
        try locked { loaded in
            var data = loaded.data
            let (result, dropped) = try change(&data)
            if data != loaded.data || loaded.needsSave { try store.save(data) }
            removeFiles(of: dropped)
            return result
        }
    }

    /// Runs `body` under the writer lock with the stored data (findings said), after the
    /// leftovers of an interrupted change are deleted.
    func locked<T>(_ body: (TrackerStore.Loaded) throws -> T) throws -> T {
        let lock = try LibraryLock(library: library)
        return try withExtendedLifetime(lock) {
            let loaded = try store.load()
            for p in loaded.problems { note("\(TrackerStore.path): \(p)") }
            store.removeLeftovers(keeping: loaded.data)
            return try body(loaded)
        }
    }

    /// Deletes the copies of `photos` (each path checked first; a file already gone is fine).
    func removeFiles(of photos: [TrackerPhoto]) {
        let names = photos.filter { TrackerIntegrity.isPhotoFile($0.file) }.map { LibraryPath.leafName($0.file) }
        do { try library.files.removeFiles(names, inFolder: TrackerIntegrity.photosFolder) } catch {
            // The records are gone; the next change deletes what is left (removeLeftovers).
            note("\(TrackerIntegrity.photosFolder): \(error); the next tracker change removes what is left")
        }
    }

    // MARK: Photos

    /// Adds a photo to the miniature `mini` from `reference` (a file, or an asset of the library
    /// by id or path). The miniature is found before anything is copied.
    public func addPhoto(mini: String, from reference: String, index: () throws -> Index) throws -> TrackerPhoto {
        let importer = TrackerPhotoImport(library: library)
        return try locked { loaded in
            var data = loaded.data
            let miniID = data.miniatures[try data.miniIndex(mini)].id
            let source = try importer.open(reference, index: index)
            defer { close(source.fd) }
            let (format, taken) = try importer.examine(source)
            let id = TrackerData.newID()
            let name = id + "." + (format == .jpeg ? "jpg" : format.rawValue)
            let sha = try importer.copy(source, named: name)
            let photo = TrackerPhoto(id: id, mini_id: miniID, file: TrackerIntegrity.photosFolder + "/" + name,
                                     taken_at: taken, added_at: TrackerClock.now(), sha256: sha)
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
}

extension LibraryPath {
    /// The last component of `path`.
    static func leafName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
