import CShoeboxSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// File operations confined to the library: each one relative to the library folder's
/// descriptor, resolved with `shoebox_open_beneath` (no symbolic link followed at any
/// component, nothing outside), then done on the descriptor of the folder that holds the name
/// (`renameat2`, `unlinkat`, `fstatat` without following). A folder swapped for a link — by a
/// sync client, a shared disk's other user, or a mistake — makes the operation fail with
/// `.unsafeLayout` instead of reaching the folder the link points to.
///
/// The library folder itself may be a link (`~/Pictures` → a disk): only what is inside is confined.
public struct LibraryFiles: Sendable {
    /// What the index knows of a file: a move or deletion goes ahead only while it still holds.
    public struct KnownFile: Sendable {
        public var inode: UInt64
        public var size: Int64
        public var mtimeNS: Int64
        public init(inode: UInt64, size: Int64, mtimeNS: Int64) {
            self.inode = inode
            self.size = size
            self.mtimeNS = mtimeNS
        }
        func matches(_ st: FileStat) -> Bool { st.inode == inode && st.size == size && st.mtimeNS == mtimeNS }
    }

    public let root: String

    public init(root: String) { self.root = root }

    /// Runs `body` with the folder `relative` ("" for the library folder) open, never through a
    /// link. With `creating`, missing folders on the way are made (each one through its parent's
    /// descriptor, so a link put in the way meanwhile is found, not followed).
    public func withFolder<T>(_ relative: String, creating: Bool = false, _ body: (Int32) throws -> T) throws -> T {
        let rootFD = Glibc.open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootFD >= 0 else { throw ShoeboxError(.io, "cannot open the library folder \(root): \(ShoeboxError.errnoText())") }
        defer { close(rootFD) }
        guard !relative.isEmpty else { return try body(rootFD) }
        let fd = try openFolder(relative, beneath: rootFD, creating: creating)
        defer { close(fd) }
        return try body(fd)
    }

    /// Opens the folder `relative` below the open folder `dirFD` as `withFolder` does (never
    /// through a link; with `creating`, missing folders made on the way). The caller closes the
    /// descriptor. `shownAs` is what messages put before `relative` (the path of `dirFD`'s folder
    /// in the library, with its "/").
    public func openFolder(_ relative: String, beneath dirFD: Int32, creating: Bool = false, shownAs prefix: String = "") throws -> Int32 {
        try LibraryPath.validated(relative, from: "an operation")
        if !creating {
            let folder = shoebox_open_beneath(dirFD, relative, O_RDONLY | O_DIRECTORY, 0)
            guard folder >= 0 else { throw failure(prefix + relative, errno) }
            return folder
        }
        var fd: Int32 = -1  // -1 while still at `dirFD`, which is the caller's to close
        var walked = prefix
        for component in relative.split(separator: "/").map(String.init) {
            walked += walked.count == prefix.count ? component : "/" + component
            let parent = fd < 0 ? dirFD : fd
            var e: Int32 = 0
            if mkdirat(parent, component, 0o755) != 0 && errno != EEXIST { e = errno }
            let child = e != 0 ? -1 : shoebox_open_beneath(parent, component, O_RDONLY | O_DIRECTORY, 0)
            if child < 0 && e == 0 { e = errno }
            if fd >= 0 { close(fd) }
            guard child >= 0 else { throw failure(walked, e) }
            fd = child
        }
        return fd
    }

    /// `lstat` of `relative`, its folders reached without following links. Nil when it is not
    /// there; throws when a folder on the way is a link.
    public func lstat(_ relative: String) throws -> FileStat? {
        try withFolder(LibraryPath.parent(relative)) { dir in
            var st = stat()
            guard fstatat(dir, LibraryPath.leaf(relative), &st, AT_SYMLINK_NOFOLLOW) == 0 else {
                if errno == ENOENT { return nil }
                throw failure(relative, errno)
            }
            return FileStat(st)
        }
    }

    /// Opens the file `relative` (never a link, at any component).
    public func open(_ relative: String, _ flags: Int32, mode: mode_t = 0o644) throws -> Int32 {
        try withFolder(LibraryPath.parent(relative), creating: flags & O_CREAT != 0) { dir in
            let fd = shoebox_open_beneath(dir, LibraryPath.leaf(relative), flags, UInt32(mode))
            guard fd >= 0 else { throw failure(relative, errno) }
            return fd
        }
    }

    /// Moves `from` to `to` (both inside), never over an existing file; `to`'s folders are made
    /// when missing. With `expecting`, the file moved must still be the one the index knows
    /// (same inode, size and modification time): a file put in its place is never moved.
    public func move(_ from: String, to: String, expecting: KnownFile? = nil) throws {
        try withFolder(LibraryPath.parent(from)) { fromDir in
            let name = LibraryPath.leaf(from)
            if let expecting, try !isStill(expecting, name, in: fromDir, shownAs: from, regularOnly: true) {
                throw ShoeboxError(.unsafeLayout, "\(from) is not the file the index knows (its inode, size or date changed)", remedy: LibraryRemedy.scanFirst)
            }
            try withFolder(LibraryPath.parent(to), creating: true) { toDir in
                guard shoebox_renameat_noreplace(fromDir, name, toDir, LibraryPath.leaf(to)) == 0 else {
                    let e = errno
                    if e == EXDEV { throw ShoeboxError(.io, "\(to) is on another file system than \(from); nothing was moved") }
                    throw failure(to, e)
                }
            }
        }
    }

    /// Deletes the file (or link) `relative`; with `expecting`, only if it is still that file.
    public func remove(_ relative: String, expecting: KnownFile? = nil) throws {
        try withFolder(LibraryPath.parent(relative)) { dir in
            let name = LibraryPath.leaf(relative)
            if let expecting, try !isStill(expecting, name, in: dir, shownAs: relative, regularOnly: false) {
                throw ShoeboxError(.unsafeLayout, "\(relative) is not the file that was trashed (its inode, size or date changed); left in place")
            }
            guard unlinkat(dir, name, 0) == 0 else { throw failure(relative, errno) }
        }
    }

    /// Whether `name` in the open folder `dir` is still the file `known` describes.
    private func isStill(_ known: KnownFile, _ name: String, in dir: Int32, shownAs relative: String, regularOnly: Bool) throws -> Bool {
        var st = stat()
        guard fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { throw failure(relative, errno) }
        let now = FileStat(st)
        return (!regularOnly || now.isRegular) && known.matches(now)
    }

    /// Flushes the folder `relative` (a rename or deletion in it made durable).
    public func syncFolder(_ relative: String) {
        _ = try? withFolder(relative) { fsync($0) }
    }

    /// Flushes everything written on the file system that holds the folder `relative` (`syncfs`):
    /// its files' data, sizes and names, whoever wrote them.
    public func syncFileSystem(of relative: String) throws {
        try withFolder(relative) { folder in
            if shoebox_syncfs(folder) != 0 { throw failure(relative, errno) }
        }
    }

    /// The error for a failed confined call on `relative`.
    func failure(_ relative: String, _ e: Int32) -> ShoeboxError {
        let cause = ShoeboxError.Cause.system(path: relative, errno: e)
        switch e {
        case ELOOP, ENOTDIR:
            return ShoeboxError(.unsafeLayout, "\(relative): a symbolic link (or a file) is where Shoebox expects a folder or file of its own; Shoebox does not follow links inside the library — move it away and try again", cause: cause)
        case EXDEV:
            return ShoeboxError(.unsafeLayout, "\(relative) leads outside the library; nothing was done", cause: cause)
        case EEXIST:
            return ShoeboxError(.alreadyExists, "\(relative) already exists; nothing was replaced", cause: cause)
        default:
            return ShoeboxError(.io, "\(relative): \(ShoeboxError.errnoText(e))", cause: cause)
        }
    }
}

extension Library {
    /// Every file operation on the library's own files goes through this (see `LibraryFiles`).
    public var files: LibraryFiles { LibraryFiles(root: root.path) }
}
