import CShoeboxSystem
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
        }, failure: { what, e in failure(nil, in: what, e) })
    }

    /// A failed system call while putting `file` (nil: the folder itself) into `folder`. A full
    /// disk is named by the folder, where space is missing — not by the photo.
    static func failure(_ file: String?, in folder: String, _ e: Int32) -> ShoeboxError {
        let doing = file.map { "cannot share \($0)" } ?? "cannot share into \(folder)"
        switch e {
        case ENOSPC: return ShoeboxError(.noSpace, "\(doing): no space left on device in \(folder); nothing was shared")
        case EDQUOT: return ShoeboxError(.noSpace, "\(doing): disk quota exceeded in \(folder); nothing was shared")
        case EACCES, EPERM, EROFS: return ShoeboxError(.unreadable, "\(doing): \(String(cString: strerror(e))) in \(folder); share to a folder you can write")
        default: return ShoeboxError(.io, "\(doing): \(String(cString: strerror(e))) in \(folder)")
        }
    }

    /// The names in the folder now, for finding the numbered names a photo may have already.
    static func names(in folder: OutsideFolder) -> Set<String> {
        let fd = dup(folder.fd)
        guard fd >= 0, let dir = fdopendir(fd) else { return [] }
        defer { closedir(dir) }
        rewinddir(dir)
        var out: Set<String> = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name != "." && name != ".." { out.insert(name) }
        }
        return out
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
    static func put(_ source: CurationShare.Source, named name: String, in folder: OutsideFolder, copy: Bool) throws -> CurationShare.Method? {
        if !copy {
            // The open original itself, never a path looked up again.
            if linkat(AT_FDCWD, "/proc/self/fd/\(source.fd)", folder.fd, name, AT_SYMLINK_FOLLOW) == 0 { return .link }
            switch errno {
            case EEXIST: return nil
            case EXDEV, EPERM, EMLINK, EOPNOTSUPP, ENOENT, EACCES: break  // another file system, no hard links: copy
            case let e: throw failure(name, in: folder.path, e)
            }
        }
        return try placeCopy(source, named: name, in: folder) ? .copy : nil
    }

    /// A copy written whole before it gets its name: an unnamed `O_TMPFILE` linked into place,
    /// or (file systems without it) a hidden temporary renamed without replacing.
    private static func placeCopy(_ source: CurationShare.Source, named name: String, in folder: OutsideFolder) throws -> Bool {
        let dir = folder.fd, failure = { (e: Int32) in Self.failure(name, in: folder.path, e) }
        var tmp = openat(dir, ".", oTmpfile | O_WRONLY | O_CLOEXEC, 0o644)
        var tmpName: String?
        if tmp < 0 {
            guard [EOPNOTSUPP, EISDIR, EINVAL, ENOENT].contains(errno) else { throw failure(errno) }
            let hidden = ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
            tmp = openat(dir, hidden, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard tmp >= 0 else { throw failure(errno) }
            tmpName = hidden
        }
        defer { close(tmp) }
        do {
            try copyBytes(from: source.fd, to: tmp, failure: failure)
            // The original's times, so a file manager sorts the shared photos by when they were taken.
            var times = [source.stat.st_atim, source.stat.st_mtim]
            futimens(tmp, &times)
            guard fsync(tmp) == 0 else { throw failure(errno) }
            if let tmpName {
                if shoebox_renameat_noreplace(dir, tmpName, dir, name) == 0 { return true }
                let e = errno
                unlinkat(dir, tmpName, 0)
                if e == EEXIST { return false }
                throw failure(e)
            }
            if linkat(AT_FDCWD, "/proc/self/fd/\(tmp)", dir, name, AT_SYMLINK_FOLLOW) == 0 { return true }
            if errno == EEXIST { return false }
            throw failure(errno)
        } catch {
            if let tmpName { unlinkat(dir, tmpName, 0) }
            throw error
        }
    }

    private static func copyBytes(from src: Int32, to dst: Int32, failure: (Int32) -> ShoeboxError) throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let n = pread(src, &buffer, buffer.count, offset)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw ShoeboxError(.io, "cannot read an original to share it: \(String(cString: strerror(errno))); nothing was shared") }
            if n == 0 { return }
            var written = 0
            while written < n {
                let w = buffer.withUnsafeBytes { write(dst, $0.baseAddress! + written, n - written) }
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { throw failure(w < 0 ? errno : ENOSPC) }
                written += w
            }
            offset += off_t(n)
        }
    }
}
