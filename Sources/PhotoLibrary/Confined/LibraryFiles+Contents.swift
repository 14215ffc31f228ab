import CShoeboxSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reading and writing Shoebox's own files (sidecars, the journal, `.trashinfo` files, the
/// config) inside the library, each folder reached without following a link: a folder swapped
/// for a link while a batch is written makes the write fail instead of landing outside.
extension LibraryFiles {
    /// Replaces the file `relative` whole (`AtomicFile`: a temporary beside it, renamed over it).
    public func writeAtomically(_ data: Data, to relative: String, sync: Bool = true) throws {
        try withFolder(LibraryPath.parent(relative), creating: true) { folder in
            try AtomicFile.write(data, named: LibraryPath.leaf(relative), inFolder: folder, shownAs: shown(LibraryPath.parent(relative)), sync: sync)
        }
    }

    /// Writes the new file `relative` whole, never over anything there (`create`, throwing
    /// `.alreadyExists` when the name is taken); its folders are made when missing.
    public func createAtomically(_ data: Data, at relative: String) throws {
        guard try create(data, at: relative) else {
            throw ShoeboxError(.alreadyExists, "\(relative) already exists; nothing was replaced")
        }
    }

    /// Replaces a batch of files of the folder `relative` whole, all durable on return
    /// (`AtomicFile.writeDurably`; `newFilesReplayable` only for a batch a replay record names).
    public func writeDurably(_ files: [(data: Data, name: String)], inFolder relative: String,
                             newFilesReplayable: Bool = false) throws {
        guard !files.isEmpty else { return }
        try withFolder(relative, creating: true) { folder in
            try AtomicFile.writeDurably(files, inFolder: folder, shownAs: shown(relative), newFilesReplayable: newFilesReplayable)
        }
    }

    /// The bytes of the regular file `relative` (never a link), or nil when it is not there.
    /// At most `limit` bytes: a file grown past what Shoebox ever writes there is refused.
    public func contents(of relative: String, limit: Int = 64 << 20) throws -> Data? {
        try withFolder(LibraryPath.parent(relative)) { folder in
            try contents(named: LibraryPath.leaf(relative), inFolder: folder, shownAs: relative, limit: limit)
        }
    }

    /// `contents(of:)` of `name` in the open folder `folder` (one folder opened for many files).
    public func contents(named name: String, inFolder folder: Int32, shownAs relative: String, limit: Int = 64 << 20) throws -> Data? {
        let fd = shoebox_open_beneath(folder, name, Self.readFlags, 0)
        if fd < 0 && errno == ENOENT { return nil }
        guard fd >= 0 else { throw failure(relative, errno) }
        defer { close(fd) }
        return try Self.readAll(fd, shownAs: shown(relative), limit: limit)
    }

    /// Opens the regular file `relative` for reading (never a link); the caller closes it.
    /// Throws one line when something else is there (a fifo, a device, a folder).
    public func openRegularFile(_ relative: String) throws -> Int32 {
        let fd = try open(relative, Self.readFlags)
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw ShoeboxError(.unsafeLayout, "\(shown(relative)) is not a regular file")
        }
        return fd
    }

    /// How Shoebox opens its own files to read them: without waiting. A fifo put in a file's
    /// place would otherwise hold `open` until some writer came (for ever, lock held); opened
    /// this way it is found by the `fstat` that follows and refused.
    static let readFlags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY

    /// Deletes the files `names` of the folder `relative` (absent ones are not an error), then
    /// flushes the folder.
    public func removeFiles(_ names: [String], inFolder relative: String) throws {
        guard !names.isEmpty else { return }
        try withFolder(relative) { folder in
            for name in names where unlinkat(folder, name, 0) != 0 && errno != ENOENT {
                throw failure(relative + "/" + name, errno)
            }
            fsync(folder)
        }
    }

    /// Calls `body` with each entry of the folder `relative` and the folder's descriptor, the
    /// folder reached without following links. False when it is not there.
    @discardableResult
    public func forEachEntry(in relative: String, _ body: (DirectoryEntry, Int32) throws -> Void) throws -> Bool {
        guard relative.isEmpty || exists(relative) else { return false }
        return try withFolder(relative) { folder in try forEachDirectoryEntry(fd: folder, body) }
    }

    /// Whether anything (a link included) is at `relative`; false when a folder on the way is a link.
    func exists(_ relative: String) -> Bool {
        ((try? lstat(relative)) ?? nil) != nil
    }

    /// The library path of `relative` as messages show it.
    func shown(_ relative: String) -> String {
        relative.isEmpty ? root : root + "/" + relative
    }

    /// Reads the open file `fd` to its end (at most `limit` bytes).
    static func readAll(_ fd: Int32, shownAs path: String, limit: Int) throws -> Data {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ShoeboxError(.io, "cannot read \(path): \(ShoeboxError.errnoText())") }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw ShoeboxError(.unsafeLayout, "\(path) is not a regular file") }
        guard Int(st.st_size) <= limit else { throw ShoeboxError(.io, "\(path) is \(st.st_size) bytes, more than Shoebox ever writes there; move it away") }
        var data = Data(count: Int(st.st_size))
        var count = 0
        while true {
            if count == data.count {
                guard data.count < limit else { break }
                data.count = min(limit, max(4096, data.count * 2))
            }
            let n = data.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw ShoeboxError(.io, "cannot read \(path): \(ShoeboxError.errnoText())") }
            if n == 0 { break }
            count += n
        }
        return data.prefix(count)
    }
}
