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

    /// Whether `name` is a temporary of `write` (`.NAME.PID.RANDOM.tmp`), and the PID that made it.
    static func writerPID(ofTemporary name: String) -> pid_t? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 5, UInt32(parts[parts.count - 2]) != nil, let pid = pid_t(parts[parts.count - 3]), pid > 0 else { return nil }
        return pid
    }

    /// Deletes the temporaries in `dir` whose writer is gone: a `kill -9` (or a power cut) between
    /// the temporary's creation and its rename leaves one behind, and nothing else would ever
    /// remove it. They hold no photo (only Shoebox's own files are written this way). A live
    /// writer's temporary is kept; a PID reused since costs a few bytes until the next time.
    /// Returns the names removed.
    @discardableResult
    public static func removeTemporariesOfDeadWriters(in dir: String) -> [String] {
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var removed: [String] = []
        while let entry = readdir(d) {
            // Only names that start with "." can be ours: the cheap test first (a folder of 100,000 sidecars).
            guard entry.pointee.d_name.0 == 0x2E else { continue }
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            guard let pid = writerPID(ofTemporary: name), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            if unlink(dir + "/" + name) == 0 { removed.append(name) }
        }
        return removed
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
