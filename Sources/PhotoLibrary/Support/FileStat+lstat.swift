import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension FileStat {
    /// `lstat(2)` of `path`: the entry itself, a symbolic link not followed. Nil when there is
    /// nothing there or it cannot be looked at (`errno` says which).
    public static func lstat(_ path: String) -> FileStat? {
        var st = stat()
        guard Glibc.lstat(path, &st) == 0 else { return nil }
        return FileStat(st)
    }

    public var isDirectory: Bool { (mode & S_IFMT) == S_IFDIR }
    public var isSymbolicLink: Bool { (mode & S_IFMT) == S_IFLNK }
}

extension timespec {
    /// The time in nanoseconds since 1970, the unit the index and the album stamps keep.
    var nanoseconds: Int64 { Int64(tv_sec) * 1_000_000_000 + Int64(tv_nsec) }
}
