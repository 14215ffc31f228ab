import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `.shoebox/lock`: one writer at a time (scan, rebuild, later watch, trash…). Readers such as
/// `list` never take it; SQLite's WAL lets them read while a writer works.
/// The kernel drops an flock when its process dies, so a crash never leaves the library locked.
package final class LibraryLock {
    private let fd: Int32

    /// Waits up to `timeout` seconds for the lock, then fails with a message naming the holder.
    package init(library: Library, timeout: Double = 30) throws {
        // Owned folders first: `.shoebox` a link would put the lock itself outside the library.
        try OwnedPaths.check(library)
        do {
            // Never through a link: `.shoebox/lock` pointing at a photo must not truncate it.
            fd = try library.files.open(".shoebox/lock", O_RDWR | O_CREAT)
        } catch let e as ShoeboxError where e.code == .unsafeLayout {
            throw e
        } catch {
            if let problem = library.writeProblem { throw problem }
            throw error
        }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if Date() >= deadline {
                close(fd)
                let holder = library.lockHolder
                throw ShoeboxError(.locked, "another Shoebox process is changing \(library.root.path)\(holder.isEmpty ? "" : " (\(holder))"); try again when it finishes")
            }
            usleep(50_000)
        }
        // Owned paths again under the lock: a link planted while it was awaited is found too.
        do { try OwnedPaths.check(library) } catch {
            flock(fd, LOCK_UN)
            close(fd)
            throw error
        }
        ftruncate(fd, 0)
        let note = "pid \(getpid()): \(CommandLine.arguments.dropFirst().joined(separator: " "))\n"
        _ = note.withCString { Glibc.write(fd, $0, strlen($0)) }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
