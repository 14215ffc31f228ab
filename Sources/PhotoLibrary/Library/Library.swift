import Foundation
import MetadataCore
#if canImport(Glibc)
import Glibc
#endif

/// A library folder: the user's files plus `.shoebox/` (index, sidecars, config, lock).
public struct Library: Sendable {
    public let root: URL

    /// Folders at the root that Shoebox reserves; never indexed (see `LibraryLayout`).
    public static var reservedFolders: Set<String> { LibraryLayout.reservedFolders }

    public var stateFolder: URL { root.appendingPathComponent(".shoebox", isDirectory: true) }
    public var indexURL: URL { stateFolder.appendingPathComponent("index.sqlite") }
    public var sidecarFolder: URL { stateFolder.appendingPathComponent("sidecars", isDirectory: true) }
    public var configURL: URL { stateFolder.appendingPathComponent("config.toml") }
    public var lockURL: URL { stateFolder.appendingPathComponent("lock") }

    public init(root: URL) { self.root = root.standardizedFileURL }

    /// What the last writer put in `.shoebox/lock` ("pid 123: scan"), or "" when it cannot be
    /// read: for messages only, read without waiting (a fifo there is not waited on).
    var lockHolder: String {
        let data = (try? files.contents(of: LibraryLayout.statePath("lock"), limit: 4096)) ?? nil
        return String(decoding: data ?? Data(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `--library`, else `$SHOEBOX_LIBRARY`, else the outermost enclosing folder that is a
    /// library. A library is a folder whose `.shoebox/` holds the index or the sidecars folder
    /// (what `init` makes): a folder a user named `.shoebox` is not one. Of several enclosing
    /// libraries the outermost wins: it indexes every file below it, so a `.shoebox/` inside it
    /// (a library copied in, an old backup) would index the same files a second time, with a
    /// `Recently Deleted/` and `Albums/` that are the outer library's ordinary folders. A path
    /// given explicitly must be a library and not inside another.
    public static func locate(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
                              currentDirectory: String = FileManager.default.currentDirectoryPath) throws -> Library {
        if let given = explicit ?? environment["SHOEBOX_LIBRARY"] {
            let url = URL(fileURLWithPath: given, relativeTo: URL(fileURLWithPath: currentDirectory, isDirectory: true))
            let library = Library(root: url)
            let outer = outermost(enclosing: library.root.deletingLastPathComponent())
            if let outer, library.isInitialized { throw insideAnother(library, outer) }
            guard library.isInitialized else {
                if let outer {
                    throw ShoeboxError(.noLibrary, "\(library.root.path) is not a Shoebox library; it is inside the Shoebox library \(outer.root.path)",
                                       remedy: LibraryRemedy.useLibrary(path: outer.root.path))
                }
                throw ShoeboxError(.noLibrary, "\(library.root.path) is not a Shoebox library", remedy: LibraryRemedy.initLibrary(path: library.root.path))
            }
            return library
        }
        let here = URL(fileURLWithPath: currentDirectory, isDirectory: true).standardizedFileURL
        if let found = outermost(enclosing: here) { return found }
        throw ShoeboxError(.noLibrary, "no Shoebox library here or above \(currentDirectory)", remedy: LibraryRemedy.initLibrary(path: nil))
    }

    /// The outermost library among `folder` and the folders that hold it.
    static func outermost(enclosing folder: URL) -> Library? {
        var dir = folder.standardizedFileURL
        var found: Library?
        while true {
            let candidate = Library(root: dir)
            if candidate.isInitialized { found = candidate }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { return found }
            dir = parent
        }
    }

    static func insideAnother(_ library: Library, _ outer: Library) -> ShoeboxError {
        ShoeboxError(.insideLibrary, "\(library.root.path) is inside the Shoebox library \(outer.root.path), which indexes its files already; pass --library \(shellQuote(outer.root.path)) (a library inside another would index them twice)")
    }

    /// Why Shoebox cannot write into this library, when it cannot: a read-only mount, a state
    /// folder without write permission, or a full disk. nil when writes should work.
    public var writeProblem: ShoeboxError? {
        var fs = statvfs()
        if statvfs(stateFolder.path, &fs) == 0 {
            if fs.f_flag & UInt(ST_RDONLY) != 0 {
                return ShoeboxError(.readOnly, "the library \(root.path) is on a read-only file system; remount it read-write to change it (`list`, `show`, `album list|show`, `trash list` and `doctor` still work)")
            }
            // A few blocks or inodes left is as good as none: SQLite and a sidecar need several.
            let freeBytes = Int64(fs.f_bavail) * Int64(fs.f_frsize)
            if freeBytes < 64 << 10 || (fs.f_files > 0 && fs.f_favail < 8) {
                let what = freeBytes < 64 << 10 ? "\(freeBytes / 1024) KiB free" : "\(fs.f_favail) inodes free"
                return ShoeboxError(.noSpace, "the disk holding the library \(root.path) is full (\(what)); free some space and run the command again")
            }
        }
        if access(stateFolder.path, W_OK) != 0 && errno != ENOENT {
            return ShoeboxError(.readOnly, "\(stateFolder.path) is not writable by this user; fix with `chmod u+w` or run Shoebox as the library's owner")
        }
        return nil
    }

    /// Whether `.shoebox/` here is a library's: it holds the index or the sidecars folder (what
    /// `init` makes; either survives the loss of the other). A folder a user named `.shoebox`
    /// (or one holding only a config) is not.
    public var isInitialized: Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: indexURL.path)
            || (FileManager.default.fileExists(atPath: sidecarFolder.path, isDirectory: &isDir) && isDir.boolValue)
    }

    /// Creates `.shoebox/` with its folders and a commented config. Existing libraries are left alone.
    @discardableResult
    public static func initialize(at url: URL) throws -> Library {
        let library = Library(root: url)
        let fm = FileManager.default
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: library.root.path, isDirectory: &isDir), !isDir.boolValue {
            throw ShoeboxError(.invalidArgument, "\(library.root.path) is a file, not a folder")
        }
        if let outer = outermost(enclosing: library.root.deletingLastPathComponent()) {
            throw insideAnother(library, outer)
        }
        if library.isInitialized {
            throw ShoeboxError(.alreadyLibrary, "\(library.root.path) is already a Shoebox library")
        }
        if fm.fileExists(atPath: library.stateFolder.path) {
            throw ShoeboxError(.alreadyExists, "\(library.stateFolder.path) exists but is not a Shoebox library's (no index, no sidecars); rename or move it", remedy: LibraryRemedy.initAgain)
        }
        do {
            try fm.createDirectory(at: library.root, withIntermediateDirectories: true)
            guard access(library.root.path, W_OK) == 0 else {
                throw ShoeboxError(.unreadable, "\(library.root.path) is not writable; fix with `chmod u+w \(shellQuote(library.root.path))`")
            }
            // Through the confined layer: a `.shoebox` link planted meanwhile is refused, not followed.
            try library.files.withFolder(LibraryLayout.sidecarsFolder, creating: true) { _ in }
            try library.files.writeAtomically(Data(LibraryConfig.defaultText.utf8), to: LibraryLayout.statePath("config.toml"))
            // The index is created here so that a library is complete from its first moment.
            _ = try Index(library: library)
        } catch let e as ShoeboxError {
            throw e
        } catch {
            throw ShoeboxError(.io, "cannot create a library at \(library.root.path)", underlying: error)
        }
        return library
    }

    /// Relative, `/`-separated path of a file inside the library; nil when outside.
    public func relativePath(of url: URL) -> String? {
        let full = url.standardizedFileURL.path
        let base = root.path.hasSuffix("/") ? root.path : root.path + "/"
        guard full.hasPrefix(base) else { return nil }
        return String(full.dropFirst(base.count))
    }

    public func url(for relativePath: String) -> URL { root.appendingPathComponent(relativePath) }

    public func sidecarURL(for id: AssetID) -> URL { sidecarFolder.appendingPathComponent(id.rawValue + ".json") }

    /// Whether a file, relative to the root, is one Shoebox indexes (see `LibraryLayout`).
    public static func isIndexable(relativePath: String) -> Bool {
        LibraryLayout.isIndexable(file: relativePath)
    }

    /// Names of files still being written (see `LibraryLayout`).
    public static func isTemporaryName(_ name: String) -> Bool {
        LibraryLayout.isTemporaryName(name)
    }
}

/// Quotes a path for a command line a user may paste.
public func shellQuote(_ s: String) -> String {
    if s.allSatisfy({ $0.isLetter || $0.isNumber || "/._-+:@".contains($0) }) { return s }
    return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
