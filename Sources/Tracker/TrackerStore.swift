import Foundation
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// Where the tracker lives: `Tracker/tracker.json` (`TrackerFile`) and the copies in
/// `Tracker/photos/`, read and written only through the library's confined files — no link
/// followed at `Tracker/`, `Tracker/photos/` or the file itself — and replaced whole
/// (`AtomicFile`: temporary, flush, rename; a kill or a full disk leaves the old file or the new one).
package struct TrackerStore: Sendable {
    package static let path = LibraryLayout.trackerFolder + "/tracker.json"
    /// Far more than 100,000 miniatures take: a bigger file is not one Shoebox wrote.
    static let limit = 64 << 20

    /// What a load found.
    package struct Loaded: Sendable {
        package var data: TrackerData
        /// The `schema_version` the file had (the current one when there was no file).
        package var version: Int
        /// Integrity findings (`TrackerIntegrity`), and photos whose file is missing.
        package var problems: [TrackerFinding]
        /// Whether the next save changes the file's form (a migration or a repair) even without a change.
        package var needsSave: Bool
    }

    let library: Library
    package init(library: Library) { self.library = library }

    /// The tracker on disk (empty when there is none yet), checked for integrity.
    package func load() throws -> Loaded {
        let empty = Loaded(data: TrackerData(), version: TrackerFile.currentVersion, problems: [], needsSave: false)
        // No `Tracker/` yet: an empty tracker (a link there is found by the read below).
        if try library.files.lstat(LibraryLayout.trackerFolder) == nil { return empty }
        let bytes: Data?
        do {
            bytes = try library.files.contents(of: Self.path, limit: Self.limit)
        } catch let e as ShoeboxError where e.code == .io {
            if e.message.contains(String(cString: strerror(EACCES))) {
                throw ShoeboxError(.unreadable, "\(Self.path) cannot be read (permission denied); `ls -l \(library.root.path)/\(Self.path)` shows its owner and mode, `chmod u+rw` on it (and `u+rwx` on Tracker/) fixes it")
            }
            throw TrackerError.damaged(e.message.replacingOccurrences(of: library.root.path + "/", with: ""))
        }
        guard let bytes else { return empty }
        let (data, version) = try TrackerFile.decode(bytes)
        let checked = TrackerIntegrity.check(data)
        // One listing of Tracker/photos/ rather than a lookup per photo (a store of thousands).
        var present = Set<String>()
        _ = try? library.files.forEachEntry(in: TrackerIntegrity.photosFolder) { entry, _ in
            if let name = entry.name { present.insert(TrackerIntegrity.photosFolder + "/" + name) }
        }
        let missing = checked.data.photos.filter { TrackerIntegrity.isPhotoFile($0.file) && !present.contains($0.file) }
        let problems = checked.problems + missing.map {
            TrackerFinding("the photo \($0.id)'s file \($0.file) is missing", remedy: .removePhotoRecord(id: $0.id))
        }
        return Loaded(data: checked.data, version: version, problems: problems,
                      needsSave: checked.repaired || version != TrackerFile.currentVersion)
    }

    /// Replaces the file whole with `data`. A failure (disk full, permission) is one line and
    /// leaves the previous file as it was.
    package func save(_ data: TrackerData) throws {
        do {
            if let e = TrackerFaults.injected(.store) { throw ShoeboxError(.io, "cannot write \(library.root.path)/\(Self.path): \(String(cString: strerror(e)))") }
            try library.files.writeAtomically(TrackerFile.encode(data), to: Self.path)
        } catch let e as ShoeboxError {
            throw Self.explained(e, writing: Self.path, library: library)
        }
    }

    /// A failed write said so that a user knows what to do: a full disk and a permission
    /// problem get their own words; nothing was changed in either case.
    static func explained(_ e: ShoeboxError, writing path: String, library: Library) -> ShoeboxError {
        if e.message.contains(String(cString: strerror(ENOSPC))) || e.message.contains(String(cString: strerror(EDQUOT))) {
            return ShoeboxError(.noSpace, "the disk holding \(library.root.path) is full: \(path) was not changed; free some space and try again")
        }
        if e.message.contains(String(cString: strerror(EACCES))) || e.message.contains(String(cString: strerror(EPERM)))
            || e.message.contains(String(cString: strerror(EROFS))) {
            return ShoeboxError(.readOnly, "\(path) cannot be written (\(e.message.components(separatedBy: ": ").last ?? "permission denied")): nothing was changed; make \(library.root.path)/\(LibraryLayout.trackerFolder) writable (`ls -ld` shows its owner and mode)")
        }
        return e
    }

    /// The tracker's recovery (`Tracker.feature`'s `recover`: under the writer lock, before any
    /// change to the library): the temporaries a killed tracker write left (`.NAME.PID.RANDOM.tmp`
    /// of a dead writer) and the photo copies no record names (a kill between a copy and the save
    /// that records it, or between a removal's save and the file's deletion) are deleted. Only
    /// names the tracker gives its copies are considered. Cheap when there is nothing to do: the
    /// file is read only when `Tracker/photos/` holds copies; when it cannot be read (damaged,
    /// newer, a link), nothing is deleted and the tracker's own commands say why.
    func removeLeftovers() {
        guard ((try? library.files.lstat(LibraryLayout.trackerFolder)) ?? nil) != nil else { return }
        _ = try? library.files.withFolder(LibraryLayout.trackerFolder) { AtomicFile.removeTemporariesOfDeadWriters(inFolder: $0) }
        _ = try? library.files.withFolder(TrackerIntegrity.photosFolder) { AtomicFile.removeTemporariesOfDeadWriters(inFolder: $0) }
        var copies: [String] = []
        _ = try? library.files.forEachEntry(in: TrackerIntegrity.photosFolder) { entry, _ in
            if let name = entry.name, TrackerIntegrity.isTrackerPhotoName(name) { copies.append(name) }
        }
        guard !copies.isEmpty, let loaded = try? load() else { return }
        let named = Set(loaded.data.photos.map(\.file))
        let stale = copies.filter { !named.contains(TrackerIntegrity.photosFolder + "/" + $0) }
        try? library.files.removeFiles(stale, inFolder: TrackerIntegrity.photosFolder)
    }
}

/// Failures injected by the tests (`$SHOEBOX_TRACKER_TEST_FAIL`, e.g. `store:ENOSPC` or
/// `photo:EACCES`): the one way to make a write fail where no small disk can be mounted (not
/// root) or where root ignores permissions. The error then takes the real error's path.
enum TrackerFaults {
    enum Site: String { case store, photo }

    static func injected(_ site: Site, environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32? {
        guard let spec = environment["SHOEBOX_TRACKER_TEST_FAIL"] else { return nil }
        let parts = spec.split(separator: ":")
        guard parts.count == 2, parts[0] == site.rawValue else { return nil }
        return ["ENOSPC": ENOSPC, "EACCES": EACCES, "EIO": EIO][String(parts[1])]
    }
}
