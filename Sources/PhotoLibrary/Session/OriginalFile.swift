import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An asset's file opened for reading, checked to be the very file the index describes. The one
/// way a feature reads an original's bytes (sharing, decoding for a story or a collage, a tracker
/// copy, the analysis): opened through the confined layer (no link followed at any component),
/// non-blocking (a FIFO put in a photo's place cannot hang a reader), a regular file whose inode,
/// size and modification time are the index's. Closed when released.
public final class OriginalFile: @unchecked Sendable {  // immutable; the descriptor closes in deinit
    public let asset: Asset
    /// The open descriptor; valid while this object lives. Swift may release an object right
    /// after its last use: a caller that passes only the number on keeps the object alive
    /// (`withExtendedLifetime(original) { … original.descriptor … }`).
    public let descriptor: Int32
    /// What the file was when opened (the index's figures).
    public let stat: FileStat

    init(asset: Asset, descriptor: Int32, stat: FileStat) {
        self.asset = asset
        self.descriptor = descriptor
        self.stat = stat
    }

    deinit { close(descriptor) }

    /// Why an original cannot be read as the index knows it. Each front end words it; the CLI's
    /// description names the file and `shoebox scan`.
    public enum Problem: Sendable, Equatable {
        /// Not there any more (moved or deleted since the last scan), or the asset is not present.
        case gone
        /// Something else is at its path: a FIFO, a folder, a device.
        case notRegularFile
        /// The same path, other contents: inode, size or modification time differ from the index's.
        case changed
        /// The file system refused (permissions, a link on the way…): `errno`.
        case unreadable(errno: Int32)
    }
}

extension LibrarySession {
    /// `asset`'s file, opened and verified (see `OriginalFile`); throws one `ShoeboxError` whose
    /// `cause` is `.original(path, problem)` when it cannot be read as the index knows it.
    public func openOriginal(_ asset: Asset) throws -> OriginalFile {
        try OriginalFile.open(asset, in: library)
    }
}

extension OriginalFile {
    /// `openOriginal` for code that has a library but no session (the analysis workers).
    package static func open(_ asset: Asset, in library: Library) throws -> OriginalFile {
        func failure(_ problem: Problem) -> ShoeboxError { ShoeboxError(original: asset.path, problem) }
        guard asset.state == .present else { throw failure(.gone) }
        let fd: Int32
        do {
            fd = try library.files.open(asset.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        } catch let e as ShoeboxError {
            if case .system(_, let code)? = e.cause {
                throw failure(code == ENOENT ? .gone : (code == ENXIO ? .notRegularFile : .unreadable(errno: code)))
            }
            throw e
        }
        var st = Glibc.stat()
        guard fstat(fd, &st) == 0 else {
            let code = errno
            close(fd)
            throw failure(.unreadable(errno: code))
        }
        let now = FileStat(st)
        guard now.isRegular else { close(fd); throw failure(.notRegularFile) }
        guard now.inode == asset.inode, now.size == asset.size, now.mtimeNS == asset.mtimeNS else {
            close(fd)
            throw failure(.changed)
        }
        return OriginalFile(asset: asset, descriptor: fd, stat: now)
    }
}
