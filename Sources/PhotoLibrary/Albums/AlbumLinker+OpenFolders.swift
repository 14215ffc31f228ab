import CShoeboxSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Album folders opened confined: `Albums/` through `library.files`, every folder below it from
// that descriptor, never through a link.

/// A folder under `Albums/`, open. Everything in it is done by name relative to this descriptor
/// (`readlinkat`, `symlinkat`, `renameat2`, `unlinkat`), so a link put in place of the folder,
/// or of one above it, after it was opened is never followed.
final class LinkFolder {
    let fd: Int32
    /// Under `Albums/` ("Years/2017", "Trip"; "" for `Albums/` itself): for messages.
    let path: String

    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { close(fd) }

    /// Its path in the library ("Albums/Years/2017"), or that of `name` in it.
    func libraryPath(_ name: String = "") -> String {
        AlbumLinker.joined(AlbumLinker.joined(AlbumLinker.folderName, path), name)
    }

    /// `libraryPath` as messages show it (control characters escaped).
    func shown(_ name: String = "") -> String { displayPath(libraryPath(name)) }

    /// The names in it, sorted (names that are not UTF-8 left out: Shoebox never made them).
    func names() -> [String] {
        var out: [String] = []
        forEachDirectoryEntry(fd: fd) { entry, _ in if let name = entry.name { out.append(name) } }
        return out.sorted()
    }

    /// `lstat` of `name` in it; nil when there is nothing by that name.
    func lstat(_ name: String) -> FileStat? {
        var st = stat()
        return fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? FileStat(st) : nil
    }

    /// Its own inode: which folder it is, whatever name it has now.
    var inode: UInt64 {
        var st = stat()
        return fstat(fd, &st) == 0 ? UInt64(st.st_ino) : 0
    }
}

extension AlbumLinker {
    /// Runs `body` with a linker whose album folders are reached from `Albums/` open as a
    /// descriptor (made when `creating`). Nil when there is no `Albums/` and not `creating`.
    func withAlbumsOpen<T>(creating: Bool, _ body: (AlbumLinker) throws -> T) throws -> T? {
        if !creating, try library.files.lstat(AlbumLinker.folderName) == nil { return nil }
        return try library.files.withFolder(AlbumLinker.folderName, creating: creating) { fd in
            var linker = AlbumLinker(library: library, index: index, albumsFD: fd)
            linker.entriesPerBatch = entriesPerBatch
            return try body(linker)
        }
    }

    /// The Shoebox links of the album folder at `path` under `Albums/`; nil when it is absent.
    func links(of path: String) throws -> [String: String]? {
        try withAlbumsOpen(creating: false) { try $0.readFolder(path)?.onDisk.links } ?? nil
    }

    /// The folder at `path` under `Albums/` ("" for `Albums/` itself), open; nil when nothing is
    /// there. A link (or a file) where a folder should be, there or above, throws `.unsafeLayout`.
    func openFolder(_ path: String) throws -> LinkFolder? {
        precondition(albumsFD >= 0, "album folders are opened inside withAlbumsOpen")
        if path.isEmpty { return LinkFolder(fd: dup(albumsFD), path: "") }
        let fd = shoebox_open_beneath(albumsFD, path, O_RDONLY | O_DIRECTORY, 0)
        if fd >= 0 { return LinkFolder(fd: fd, path: path) }
        if errno == ENOENT { return nil }
        throw library.files.failure(AlbumLinker.folderName + "/" + path, errno)
    }

    /// The folder `name` in the open `parent`; nil when nothing is there; throws as `openFolder`.
    func openFolder(_ name: String, in parent: LinkFolder) throws -> LinkFolder? {
        let fd = shoebox_open_beneath(parent.fd, name, O_RDONLY | O_DIRECTORY, 0)
        if fd >= 0 { return LinkFolder(fd: fd, path: AlbumLinker.joined(parent.path, name)) }
        if errno == ENOENT { return nil }
        throw library.files.failure(parent.shown(name), errno)
    }

    /// The folder at `path` under `Albums/`, made (with the folders above it) when missing.
    func makeFolder(_ path: String) throws -> LinkFolder {
        precondition(albumsFD >= 0, "album folders are opened inside withAlbumsOpen")
        if path.isEmpty { return LinkFolder(fd: dup(albumsFD), path: "") }
        let fd = try library.files.openFolder(path, beneath: albumsFD, creating: true, shownAs: AlbumLinker.folderName + "/")
        return LinkFolder(fd: fd, path: path)
    }

    /// `lstat` of `path` under `Albums/`, no link followed on the way; nil when nothing is there
    /// (or a link is on the way: there is no folder of Shoebox's there either).
    func lstat(_ path: String) -> FileStat? {
        var st = stat()
        return shoebox_lstat_beneath(albumsFD, path, &st) == 0 ? FileStat(st) : nil
    }

    /// `a/b`, or either alone when the other is empty.
    static func joined(_ a: String, _ b: String) -> String {
        a.isEmpty ? b : b.isEmpty ? a : a + "/" + b
    }

    /// The folder part of a path under `Albums/` ("" for a top-level one) and its last name.
    static func split(_ path: String) -> (parent: String, leaf: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }
}
