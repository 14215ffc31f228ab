import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A folder outside the library that a command writes into (`curate share --to DIR`, `tracker
/// export -o DIR`, the folder of `memories collage -o FILE` and `compose export -o FILE`), open.
/// Never the library or a folder inside it — what is written there would be indexed as new
/// photos, or sit among the user's own. The folder is checked as opened (its descriptor's real
/// path) and every write is an `*at` call on that descriptor, so swapping a folder on the path
/// for a link into the library after the check changes nothing: no name is looked up again.
///
/// What a run puts there is recorded, so a run that fails part way leaves the folder as it
/// found it (`undo`): its files go, and the folder too when the run made it.
public final class OutsideFolder {
    /// The folder as the user named it (absolute), for messages and the paths reported.
    public let path: String
    /// The open folder: every write goes through it.
    public let fd: Int32
    /// Whether this run made the folder (it was missing).
    public let wasMade: Bool
    /// Says a failed system call (the folder or file concerned, errno) in the caller's words.
    public let failure: (String, Int32) -> ShoeboxError
    /// The parent, open while this run may remove the folder it made (else -1).
    private let parentFD: Int32
    /// What this run put here (name and inode), so `undo` removes only that.
    private var added: [(name: String, inode: UInt64)] = []

    private init(path: String, fd: Int32, parentFD: Int32, failure: @escaping (String, Int32) -> ShoeboxError) {
        self.path = path
        self.fd = fd
        self.parentFD = parentFD
        self.wasMade = parentFD >= 0
        self.failure = failure
    }

    deinit {
        close(fd)
        if parentFD >= 0 { close(parentFD) }
    }

    /// The folder at `path` (absolute) opened, made when missing (its parent must exist, as with
    /// `mkdir`): the parent is opened and checked, the folder made relative to it and opened
    /// without following a link, then checked again. An existing folder (or a link to one) is
    /// opened as the path says and checked as opened. `inside` is the error for a folder in
    /// the library.
    public static func make(_ path: String, library: Library, inside: (String) -> ShoeboxError,
                            failure: @escaping (String, Int32) -> ShoeboxError) throws -> OutsideFolder {
        let parentPath = (path as NSString).deletingLastPathComponent, leaf = (path as NSString).lastPathComponent
        guard !leaf.isEmpty, leaf != ".", leaf != "..", leaf != "/" else { return try existing(path, library: library, inside: inside, failure: failure) }
        let parent = Glibc.open(parentPath.isEmpty ? "/" : parentPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard parent >= 0 else {
            let e = errno
            if e == ENOENT { throw ShoeboxError(.notFound, "cannot make the folder \(path): the folder that would hold it does not exist") }
            if e == ENOTDIR { throw ShoeboxError(.invalidArgument, "cannot make the folder \(path): \(parentPath) is not a folder") }
            throw failure(parentPath, e)
        }
        var keepParent = false
        defer { if !keepParent { close(parent) } }
        try refuseInside(parent, library: library, inside: { inside(path) })
        let made = mkdirat(parent, leaf, 0o755) == 0
        if !made && errno != EEXIST { throw failure(path, errno) }
        // The folder this run made is opened without following a link (a swap for one is
        // refused); an existing one as the user named it, a link to a folder included.
        let fd = openat(parent, leaf, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (made ? O_NOFOLLOW : 0))
        guard fd >= 0 else {
            let e = errno
            if e == ENOTDIR { throw ShoeboxError(.invalidArgument, "\(path) is not a folder") }
            throw failure(path, e)
        }
        if made { fsync(parent) }
        do { try refuseInside(fd, library: library, inside: { inside(path) }) } catch {
            close(fd)
            throw error
        }
        keepParent = made
        return OutsideFolder(path: path, fd: fd, parentFD: made ? parent : -1, failure: failure)
    }

    /// The folder that holds the new file `file` (absolute; `-o FILE`), which must exist: opened
    /// as the path says and checked as opened. Returns it and the file's name. `inside` is the
    /// error for a file in the library; a failed system call names `file` and the folder.
    public static func holding(_ file: String, library: Library,
                               inside: (String) -> ShoeboxError) throws -> (folder: OutsideFolder, name: String) {
        let folder = (file as NSString).deletingLastPathComponent, name = (file as NSString).lastPathComponent
        guard !name.isEmpty, name != ".", name != "..", name != "/" else { throw ShoeboxError(.invalidArgument, "\(file) is not a file name") }
        let failure = { (what: String, e: Int32) in
            ShoeboxError(e == ENOSPC || e == EDQUOT ? .noSpace : .io, "cannot write \(file): \(String(cString: strerror(e))) in \(what)")
        }
        do {
            return (try existing(folder.isEmpty ? "/" : folder, library: library, inside: { _ in inside(file) }, failure: failure), name)
        } catch let e as ShoeboxError where e.code == .notFound {
            throw ShoeboxError(.notFound, "cannot write \(file): the folder \(folder) does not exist")
        }
    }

    /// The existing folder at `path`, opened as the path says (links followed) and checked.
    private static func existing(_ path: String, library: Library, inside: (String) -> ShoeboxError,
                                 failure: @escaping (String, Int32) -> ShoeboxError) throws -> OutsideFolder {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            if e == ENOENT { throw ShoeboxError(.notFound, "the folder \(path) does not exist") }
            if e == ENOTDIR { throw ShoeboxError(.invalidArgument, "\(path) is not a folder") }
            throw failure(path, e)
        }
        do { try refuseInside(fd, library: library, inside: { inside(path) }) } catch {
            close(fd)
            throw error
        }
        return OutsideFolder(path: path, fd: fd, parentFD: -1, failure: failure)
    }

    /// Throws `inside()` when the open folder `fd` is the library or in it.
    private static func refuseInside(_ fd: Int32, library: Library, inside: () -> ShoeboxError) throws {
        if library.contains(folder: fd) { throw inside() }
    }
}

extension OutsideFolder {
    /// Whether `name` is taken here (a file, a folder, a link: anything; a link not followed).
    public func holds(_ name: String) -> Bool {
        var st = stat()
        return fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// `name` in this folder, as messages and reports show it.
    public func shown(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Creates `name` holding `data`, written whole under a hidden temporary, flushed and
    /// renamed without replacing (`AtomicFile.create`), and records it for `undo`. False when
    /// the name is taken (nothing written). A full disk is `failure` of the folder.
    public func create(_ data: Data, named name: String) throws -> Bool {
        do {
            guard try AtomicFile.create(data, named: name, inFolder: fd, shownAs: path) else { return false }
        } catch let e as ShoeboxError where e.code == .noSpace {
            throw failure(path, ENOSPC)
        }
        record(name)
        return true
    }

    /// Records `name`, which this run just put here by other means (a link, a copy), for `undo`.
    public func record(_ name: String) {
        var st = stat()
        guard fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return }
        added.append((name, UInt64(st.st_ino)))
    }

    /// Removes `name` when it is still the file this run put there (its inode), and forgets it.
    public func remove(_ name: String) {
        guard let i = added.lastIndex(where: { $0.name == name }) else { return }
        let entry = added.remove(at: i)
        var st = stat()
        if fstatat(fd, entry.name, &st, AT_SYMLINK_NOFOLLOW) == 0, UInt64(st.st_ino) == entry.inode { unlinkat(fd, entry.name, 0) }
    }

    /// Flushes the folder's names to disk (once every file is in place).
    public func sync() throws {
        guard fsync(fd) == 0 || errno == EINVAL else { throw failure(path, errno) }
    }

    /// A failed run's undo: what it put here goes (only what is still its file), then the
    /// folder itself when the run made it and it is empty again. What was here before stays.
    public func undo() {
        for entry in added.reversed() { remove(entry.name) }
        fsync(fd)
        guard parentFD >= 0 else { return }
        let leaf = (path as NSString).lastPathComponent
        var mine = stat(), there = stat()
        // Only the folder this run made (the same inode), never one swapped in under its name.
        guard fstat(fd, &mine) == 0, fstatat(parentFD, leaf, &there, AT_SYMLINK_NOFOLLOW) == 0,
              mine.st_dev == there.st_dev, mine.st_ino == there.st_ino else { return }
        if unlinkat(parentFD, leaf, AT_REMOVEDIR) == 0 { fsync(parentFD) }
    }
}
