import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A folder outside the library that a command writes into (`curate share --to DIR`, `tracker
/// export -o DIR`): made when missing (its parent must exist, as `mkdir` does), and never the
/// library or a folder inside it — what is written there would be indexed as new photos, or sit
/// among the user's own. Checked before anything is made (the parent, links resolved) and again
/// on the folder as opened (a link to the library is found too). The caller writes into it only by
/// `*at` calls on the descriptor.
public enum OutsideFolder {
    /// The folder at `path` (absolute) opened; the caller closes it. `inside` is the error for a
    /// folder in the library; `failure` says a failed system call (path, errno).
    public static func open(_ path: String, library: Library, inside: (String) -> ShoeboxError,
                            failure: (String, Int32) -> ShoeboxError) throws -> Int32 {
        let parent = (path as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: path), let real = realpath(parent, nil) {
            defer { free(real) }
            if library.contains(realPath: String(cString: real)) { throw inside(path) }
        }
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            let e = errno
            if e == ENOENT { throw ShoeboxError(.notFound, "cannot make the folder \(path): the folder that would hold it does not exist") }
            throw failure(path, e)
        }
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            if e == ENOTDIR { throw ShoeboxError(.invalidArgument, "\(path) is not a folder") }
            throw failure(path, e)
        }
        if let real = Library.realPath(ofDescriptor: fd), library.contains(realPath: real) {
            close(fd)
            throw inside(path)
        }
        return fd
    }
}
