import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Telling a folder outside the library from one inside it, for commands that write where the
/// user says (`curate share --to DIR`, `compose export -o FILE`): a path inside would bypass the
/// confined layer and have the watcher index the file as a new photo.
extension Library {
    /// Whether the folder whose link-resolved path is `real` is the library or inside it.
    public func contains(realPath real: String) -> Bool {
        guard let root = realpath(root.path, nil) else { return false }
        let rootPath = String(cString: root)
        free(root)
        return real == rootPath || real.hasPrefix(rootPath.hasSuffix("/") ? rootPath : rootPath + "/")
    }

    /// The link-resolved path of the open descriptor `fd` (what /proc/self/fd says), nil when
    /// the system does not say.
    public static func realPath(ofDescriptor fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
