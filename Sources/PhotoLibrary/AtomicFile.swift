import CSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whole-file writes that a crash can never leave half-done: write a temporary file beside the
/// target, flush it, rename it over the target. Readers see the old file or the new one.
public enum AtomicFile {
    /// With `sync: false` the data is not flushed before the rename; the caller promises a
    /// `syncFileSystem` before it relies on the file (batches of sidecars in a scan), which costs
    /// one flush per batch instead of one per file.
    public static func write(_ data: Data, to url: URL, sync: Bool = true) throws {
        let dir = url.deletingLastPathComponent().path
        let tmp = dir + "/.\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ShoeboxError(.io, "cannot write \(url.path): \(ShoeboxError.errnoText())") }
        var ok = false
        defer {
            if !ok { unlink(tmp) }
        }
        do {
            defer { close(fd) }
            try data.withUnsafeBytes { buf in
                var done = 0
                while done < buf.count {
                    let n = Glibc.write(fd, buf.baseAddress! + done, buf.count - done)
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw ShoeboxError(.io, "cannot write \(url.path): \(ShoeboxError.errnoText())")
                    }
                    done += n
                }
            }
            if sync && fsync(fd) != 0 {
                throw ShoeboxError(.io, "cannot write \(url.path): \(ShoeboxError.errnoText())")
            }
        }
        guard rename(tmp, url.path) == 0 else {
            throw ShoeboxError(.io, "cannot write \(url.path): \(ShoeboxError.errnoText())")
        }
        ok = true
        if sync { syncDirectory(dir) }
    }

    /// Makes a rename durable: the directory entry itself must reach the disk.
    public static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// One flush for everything written on the file system that holds `path` (a batch's sidecars).
    public static func syncFileSystem(containing path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ShoeboxError(.io, "cannot open \(path): \(ShoeboxError.errnoText())") }
        defer { close(fd) }
        if shoebox_syncfs(fd) != 0 { throw ShoeboxError(.io, "cannot flush \(path) to disk: \(ShoeboxError.errnoText())") }
    }
}
