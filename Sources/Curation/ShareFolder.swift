import CSystem
import Foundation
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// The folder `curate share --to DIR` writes into (`OutsideFolder`), and the system calls that
/// write there: all relative to the folder's descriptor, none following a link found in it.
enum ShareFolder {
    /// `O_TMPFILE` (a macro Swift does not import): `__O_TMPFILE | O_DIRECTORY`.
    static let oTmpfile: Int32 = 0o20000000 | O_DIRECTORY

    /// DIR opened: made when missing (its parent must exist), refused inside the library (the
    /// shared files would be indexed as new photos, duplicates of their originals).
    static func open(_ path: String, library: Library) throws -> OutsideFolder {
        try OutsideFolder.make(path, library: library, inside: {
            ShoeboxError(.invalidArgument, "\($0) is inside the library: shared files there would be indexed as copies of their originals; share to a folder outside \(library.root.path)")
        }, failure: failure)
    }

    static func failure(_ path: String, _ e: Int32) -> ShoeboxError {
        switch e {
        case ENOSPC, EDQUOT: return ShoeboxError(.noSpace, "\(path): the disk is full; nothing was shared")
        case EACCES, EPERM, EROFS: return ShoeboxError(.unreadable, "\(path): \(String(cString: strerror(e))); share to a folder you can write")
        default: return ShoeboxError(.io, "\(path): \(String(cString: strerror(e)))")
        }
    }

    /// Whether `name` in `dir` is already a regular file with `source`'s bytes (the same inode,
    /// or the same size and content). A link or anything else there is not.
    static func holdsSame(_ source: CurationShare.Source, named name: String, in dir: Int32) throws -> Bool {
        var st = stat()
        guard fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0, (st.st_mode & S_IFMT) == S_IFREG,
              st.st_size == source.stat.st_size else { return false }
        if st.st_ino == source.stat.st_ino && st.st_dev == source.stat.st_dev { return true }
        let fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let size = 1 << 20
        var a = [UInt8](repeating: 0, count: size), b = [UInt8](repeating: 0, count: size)
        var offset: off_t = 0
        while true {
            let n = pread(source.fd, &a, size, offset)
            let m = pread(fd, &b, size, offset)
            guard n >= 0, n == m else { return false }
            if n == 0 { return true }
            if a[..<n] != b[..<n] { return false }
            offset += off_t(n)
        }
    }

    /// Puts `source` into `dir` as `name`: a hard link, else (or with `copy`) a whole copy.
    /// Nil when the name is taken (nothing is replaced, a link there is not followed).
    static func put(_ source: CurationShare.Source, named name: String, in dir: Int32, copy: Bool) throws -> CurationShare.Method? {
        if !copy {
            // The open original itself, never a path looked up again.
            if linkat(AT_FDCWD, "/proc/self/fd/\(source.fd)", dir, name, AT_SYMLINK_FOLLOW) == 0 { return .link }
            switch errno {
            case EEXIST: return nil
            case EXDEV, EPERM, EMLINK, EOPNOTSUPP, ENOENT, EACCES: break  // another file system, no hard links: copy
            case let e: throw failure(name, e)
            }
        }
        return try placeCopy(source, named: name, in: dir) ? .copy : nil
    }

    /// A copy written whole before it gets its name: an unnamed `O_TMPFILE` linked into place,
    /// or (file systems without it) a hidden temporary renamed without replacing.
    private static func placeCopy(_ source: CurationShare.Source, named name: String, in dir: Int32) throws -> Bool {
        var tmp = openat(dir, ".", oTmpfile | O_WRONLY | O_CLOEXEC, 0o644)
        var tmpName: String?
        if tmp < 0 {
            guard [EOPNOTSUPP, EISDIR, EINVAL, ENOENT].contains(errno) else { throw failure(name, errno) }
            let hidden = ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
            tmp = openat(dir, hidden, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard tmp >= 0 else { throw failure(name, errno) }
            tmpName = hidden
        }
        defer { close(tmp) }
        do {
            try copyBytes(from: source.fd, to: tmp, shownAs: name)
            // The original's times, so a file manager sorts the shared photos by when they were taken.
            var times = [source.stat.st_atim, source.stat.st_mtim]
            futimens(tmp, &times)
            guard fsync(tmp) == 0 else { throw failure(name, errno) }
            if let tmpName {
                if shoebox_renameat_noreplace(dir, tmpName, dir, name) == 0 { return true }
                let e = errno
                unlinkat(dir, tmpName, 0)
                if e == EEXIST { return false }
                throw failure(name, e)
            }
            if linkat(AT_FDCWD, "/proc/self/fd/\(tmp)", dir, name, AT_SYMLINK_FOLLOW) == 0 { return true }
            if errno == EEXIST { return false }
            throw failure(name, errno)
        } catch {
            if let tmpName { unlinkat(dir, tmpName, 0) }
            throw error
        }
    }

    private static func copyBytes(from src: Int32, to dst: Int32, shownAs name: String) throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let n = pread(src, &buffer, buffer.count, offset)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw failure(name, errno) }
            if n == 0 { return }
            var written = 0
            while written < n {
                let w = buffer.withUnsafeBytes { write(dst, $0.baseAddress! + written, n - written) }
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { throw failure(name, w < 0 ? errno : ENOSPC) }
                written += w
            }
            offset += off_t(n)
        }
    }
}
