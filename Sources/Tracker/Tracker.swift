import Foundation
import PhotoLibrary

/// The painting tracker (brief 002) on a library session: projects, miniatures, recipes and
/// photos in `Tracker/tracker.json` (`TrackerStore`), photo copies in `Tracker/photos/`. The
/// entry points a front end calls are in `Tracker+Entries.swift`.
///
/// Reads take no lock. Every change runs inside `LibrarySession.write` (the writer lock from
/// load to save) and is saved whole before any file it drops is deleted: a kill in between
/// leaves a copy no record names, which the tracker's recovery deletes before the next change
/// to the library (`Tracker.feature`). An added photo is copied before the record that names it
/// is saved, and its copy removed again when that save fails.
public struct Tracker {
    public let session: LibrarySession
    public var library: Library { session.library }
    var store: TrackerStore { TrackerStore(library: library) }
    /// Integrity findings are said through this, each once per read or change (the CLI: one
    /// line each on stderr).
    let note: (TrackerFinding) -> Void

    /// The tracker of `session`'s library; `note` hears the file's integrity findings.
    public init(session: LibrarySession, note: @escaping (TrackerFinding) -> Void = { _ in }) {
        self.session = session
        self.note = note
    }

    /// The tracker as stored, its integrity findings said. Takes no lock.
    public func read() throws -> TrackerData {
        try loaded().data
    }

    /// The stored file, its findings said.
    func loaded() throws -> TrackerStore.Loaded {
        let loaded = try store.load()
        loaded.problems.forEach(note)
        return loaded
    }

    /// Runs `change` on the stored data inside a session write and saves the result; the photo
    /// records it returns as dropped have their files deleted once the save is done.
    func change<T>(_ change: (inout TrackerData, LockedLibrary) throws -> (result: T, dropped: [TrackerPhoto])) throws -> T {
        try session.write { locked in
            let loaded = try loaded()
            var data = loaded.data
            let (result, dropped) = try change(&data, locked)
            if data != loaded.data || loaded.needsSave { try store.save(data) }
            removeFiles(of: dropped)
            return result
        }
    }

    /// Deletes the copies of `photos` (each path checked first; a file already gone is fine).
    func removeFiles(of photos: [TrackerPhoto]) {
        let names = photos.filter { TrackerIntegrity.isPhotoFile($0.file) }.map { LibraryPath.leafName($0.file) }
        do { try library.files.removeFiles(names, inFolder: TrackerIntegrity.photosFolder) } catch {
            // The records are gone; the tracker's recovery deletes what is left before the next change.
            session.log("\(TrackerIntegrity.photosFolder): \(error); the next change to the library removes what is left")
        }
    }
}

extension LibraryPath {
    /// The last component of `path`.
    static func leafName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
