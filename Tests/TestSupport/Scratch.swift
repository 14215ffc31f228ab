import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where tests write: one folder per test process (`$TMPDIR/shoebox-tests-PID`), removed when the
/// process exits. Tests copy libraries and rolls by the hundred; left in /tmp they filled the disk
/// (a run of `swift test` left about 3 GB, and CI ran out of space). A folder whose process died
/// without exiting (a crash, a kill) is removed by the next run that starts.
public enum Scratch {
    /// The folder under which a test makes its own (`Scratch.root.appendingPathComponent("name-UUID")`).
    public static var root: URL { made }

    private static let made: URL = {
        let tmp = URL(fileURLWithPath: NSTemporaryDirectory())
        removeLeftovers(in: tmp)
        let root = tmp.appendingPathComponent("\(prefix)\(getpid())")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { Scratch.remove(Scratch.root.path) }
        return root
    }()

    private static let prefix = "shoebox-tests-"

    /// The folders of test processes that are gone.
    private static func removeLeftovers(in tmp: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { remove(tmp.appendingPathComponent(name).path) }
        }
    }

    /// `rm -rf --one-file-system`: a test's tmpfs that is still mounted (a failed test) is left,
    /// never emptied through; folders a test made unreadable are removed all the same.
    private static func remove(_ path: String) {
        var pid: pid_t = 0
        let args: [String] = ["/bin/rm", "-rf", "--one-file-system", path]
        let argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, "/bin/rm", nil, nil, argv, environ) == 0 else { return }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}
