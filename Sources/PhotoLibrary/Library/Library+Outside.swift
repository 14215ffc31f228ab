import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Telling a folder outside the library from one inside it, for commands that write where the
/// user says (`OutsideFolder`): a folder inside would bypass the confined layer and have the
/// watcher index what is written as new photos.
extension Library {
    /// Whether the open folder `fd` is the library's folder or one inside it. Walks up from the
    /// folder itself by "..", comparing each folder's device and inode with the library's: what
    /// is compared is the folder as opened, so a link on its path, a bind mount of the library
    /// or a folder renamed meanwhile is seen through. Unknown (a folder that cannot be
    /// described) counts as inside.
    public func contains(folder fd: Int32) -> Bool {
        var library = stat()
        guard stat(root.path, &library) == 0 else { return false }  // no library folder: nothing is inside it
        var current = openat(fd, ".", Self.pathOnly)
        guard current >= 0 else { return true }
        defer { close(current) }
        while true {
            var here = stat()
            guard fstat(current, &here) == 0 else { return true }
            if here.st_dev == library.st_dev && here.st_ino == library.st_ino { return true }
            let up = openat(current, "..", Self.pathOnly)
            guard up >= 0 else { return true }
            var above = stat()
            let atTop = fstat(up, &above) == 0 && above.st_dev == here.st_dev && above.st_ino == here.st_ino
            close(current)
            current = up
            if atTop { return false }  // "/" is its own parent
        }
    }

    /// `O_PATH | O_DIRECTORY | O_CLOEXEC`: a folder described, not read (no read permission needed).
    private static let pathOnly: Int32 = 0o10000000 | O_DIRECTORY | O_CLOEXEC
}
