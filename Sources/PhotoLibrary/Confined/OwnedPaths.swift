import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The folders and files Shoebox owns inside a library, and the check that each one is what it
/// should be: a real folder (or absent), a regular file (or absent) — never a symbolic link.
/// A link at one of them would make every write go where it points: sidecars written outside,
/// photos trashed out of the library, a photo truncated through `.shoebox/lock`. Every writing
/// command checks them when it takes the writer lock; `doctor` reports them.
public enum OwnedPaths {
    /// Folders that must be real folders when present.
    static let folders = [".shoebox", ".shoebox/sidecars", ".shoebox/invalid-sidecars", ".shoebox/albums", "Albums",
                          "Recently Deleted", "Recently Deleted/files", "Recently Deleted/info",
                          "Tracker", "Tracker/photos"]
    /// Files that must be regular files when present.
    static let files = [".shoebox/lock", ".shoebox/index.sqlite", ".shoebox/index.sqlite-wal",
                        ".shoebox/index.sqlite-shm", ".shoebox/journal.json", ".shoebox/purge.log",
                        ".shoebox/config.toml", ".shoebox/curation.json", ".shoebox/composer.json", ".shoebox/tidy.json",
                        "Tracker/tracker.json"]

    /// One line per owned path that is not what it should be (empty when all are right).
    public static func problems(in library: Library) -> [String] {
        var out: [String] = []
        for path in folders { if let p = problem(library, path, wantFolder: true) { out.append(p) } }
        for path in files { if let p = problem(library, path, wantFolder: false) { out.append(p) } }
        // The album folders (two levels: `Albums/Years/2023`, `Albums/Trip`) are owned too.
        for top in directoryNames(library.root.path + "/Albums") where !top.hasPrefix(".") {
            let path = "Albums/" + top
            if let p = problem(library, path, wantFolder: true) { out.append(p); continue }
            // `Years`, `Places`, `People` hold album folders; `Screenshots` and `Videos` hold links.
            guard AlbumLinker.generatedRoots.contains(top), !AlbumLinker.isTopLevelAlbum(top) else { continue }
            for album in directoryNames(library.root.path + "/" + path) where !album.hasPrefix(".") {
                if let p = problem(library, path + "/" + album, wantFolder: true) { out.append(p) }
            }
        }
        return out
    }

    /// Throws `.unsafeLayout` when `.shoebox` or the index file `name` (with its -wal and -shm)
    /// is a link or of the wrong kind: SQLite opens them by path. Cheap (four `lstat`s): every
    /// command that opens the index, readers too, checks them.
    static func checkIndexFiles(_ library: Library, named name: String) throws {
        let paths = [(LibraryLayout.stateFolder, true)] + ["", "-wal", "-shm"].map { (LibraryLayout.statePath(name) + $0, false) }
        for (path, folder) in paths {
            if let p = problem(library, path, wantFolder: folder) { throw ShoeboxError(.unsafeLayout, p) }
        }
    }

    /// Throws `.unsafeLayout` naming the first owned path that is a link or of the wrong kind.
    public static func check(_ library: Library) throws {
        if let first = problems(in: library).first { throw ShoeboxError(.unsafeLayout, first) }
    }

    private static func problem(_ library: Library, _ path: String, wantFolder: Bool) -> String? {
        guard let st = FileStat.lstat(library.root.path + "/" + path) else { return nil }
        if st.isSymbolicLink {
            return "\(library.root.path)/\(path) is a symbolic link; Shoebox never follows links at the folders and files it owns. Move the link away (`mv` it out of the library) and run the command again"
        }
        if wantFolder && !st.isDirectory {
            return "\(library.root.path)/\(path) is a \(st.typeName), not a folder; move it away and run the command again"
        }
        if !wantFolder && !st.isRegular {
            return "\(library.root.path)/\(path) is a \(st.typeName), not a regular file; move it away and run the command again"
        }
        return nil
    }
}

/// `owned folders`: every folder and file Shoebox owns is a real folder or file, not a link.
struct OwnedPathsCheck: DoctorCheck {
    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] { Self.findings(context.library) }

    /// Needs no index: `doctor` says it also when the index cannot be opened.
    static func findings(_ library: Library) -> [DoctorReport.Check] {
        let problems = OwnedPaths.problems(in: library)
        if problems.isEmpty { return [.ok("owned folders", "no link or stray file where Shoebox keeps its own")] }
        return problems.map { .problem("owned folders", $0) }
    }
}
