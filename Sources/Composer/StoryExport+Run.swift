import Foundation
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// `compose export` as one call, for every front end: the draft encoded, written outside the
/// library and/or saved into it under the writer lock, the draft cleared — all or nothing.
extension StoryExport {
    /// Where the story goes outside the library.
    public enum Destination: Sendable {
        /// A file the user named (absolute, outside the library): never numbered, never replaced.
        case file(String)
        /// "Story yyyy-MM-dd HH.mm.ss.heic" in this folder (absolute): " (2)"… when taken.
        case defaultName(inFolder: String)
        /// Nowhere outside (with `save`: into the library only).
        case nowhere
    }

    /// What an export did.
    public struct Outcome {
        /// The file written outside the library (absolute), if any.
        public var file: String?
        /// The story saved into the library (`Collages/`, indexed), if asked.
        public var saved: Asset?
        /// The story's size in bytes.
        public var size: Int
        /// The draft's photos, top to bottom.
        public var entries: [ComposerEntry]
    }

    /// Exports the draft: encoded first (no lock held), then with the writer lock — taken before
    /// anything is written, so a busy library leaves nothing behind — written to `destination`,
    /// saved into the library with `save`, and the draft cleared when it is still the one drawn.
    /// A failed save takes the file written outside back. `note` hears the draft's warnings.
    public static func run(_ session: LibrarySession, to destination: Destination, save: Bool, at now: Date = ShoeboxClock.now(),
                           lockTimeout: Double = 30, note: (String) -> Void = { _ in }) throws -> Outcome {
        let composer = Composer(session: session)
        let (draft, entries) = try composer.load(note: note)
        guard !entries.isEmpty else { throw ShoeboxError(.invalidArgument, "nothing to export: the composer draft is empty", remedy: ComposerRemedy.add) }
        if save, let problem = composer.index.readOnlyReason { throw problem }
        // An -o that cannot be written fails before the work (and again, race-free, when created).
        if case .file(let path) = destination { try refuseTaken(path) }
        let export = StoryExport(composer: composer)
        let bytes = try export.encode(entries)
        let name = defaultName(at: now)
        return try session.write(timeout: lockTimeout) { _ in
            var written: (folder: OutsideFolder, name: String)?
            switch destination {
            case .file(let path): written = try export.writeOutside(bytes, to: path, numbering: false)
            case .defaultName(let folder): written = try export.writeOutside(bytes, to: (folder as NSString).appendingPathComponent(name), numbering: true)
            case .nowhere: break
            }
            var saved: Asset?
            if save {
                do { saved = try export.save(bytes, named: name) } catch {
                    // All or nothing: the file this run wrote outside goes with the failed save.
                    written?.folder.undo()
                    throw error
                }
            }
            // SPEC: the draft lasts until export. Cleared only if it is still the one drawn.
            if (try? composer.load().draft) == draft { try composer.store.erase() }
            return Outcome(file: written.map { $0.folder.shown($0.name) }, saved: saved, size: bytes.count, entries: entries)
        }
    }

    /// One clear error before any encoding when -o names something already there.
    private static func refuseTaken(_ path: String) throws {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        throw taken(path, isLink: (st.st_mode & S_IFMT) == S_IFLNK)
    }
}
