import Foundation
import Testing
import TestSupport

/// `doctor --json` read the way a script reads it, and its `fix` followed the way a user follows
/// it: pasted into a shell whose `shoebox` is the binary under test.
struct DoctorHint {
    let cli: ShoeboxCLI

    struct Run {
        var status: Int32
        /// Checks by name (the last of a name when there are several).
        var checks: [String: [String: Any]]
        var all: [[String: Any]]

        func status(_ name: String) -> String? { checks[name]?["status"] as? String }
        func detail(_ name: String) -> String { checks[name]?["detail"] as? String ?? "" }
        func fix(_ name: String) -> String? { checks[name]?["fix"] as? String }
        /// Checks that are not `ok`, except those about the machine rather than the library.
        var findings: [String] {
            all.filter { ($0["status"] as? String) != "ok" && !["disk space", "inotify"].contains($0["name"] as? String ?? "") }
                .map { "\($0["name"] ?? ""): \($0["detail"] ?? "")" }
        }
    }

    func doctor(sourceLocation: SourceLocation = #_sourceLocation) throws -> Run {
        let r = try cli.run(["doctor", "--json"])
        let root = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let all = try #require(root?["checks"] as? [[String: Any]], "doctor --json: \(r.stdout) \(r.stderr)",
                               sourceLocation: sourceLocation)
        return Run(status: r.status, checks: Dictionary(all.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { _, b in b }),
                   all: all)
    }

    /// Runs `fix` with `/bin/sh -c`; `shoebox` on the PATH is the binary under test.
    @discardableResult
    func follow(_ fix: String?, sourceLocation: SourceLocation = #_sourceLocation) throws -> ShoeboxCLI.Result {
        let command = try #require(fix, "doctor gave no fix", sourceLocation: sourceLocation)
        var env = ProcessInfo.processInfo.environment
        env["SHOEBOX_LIBRARY"] = nil
        for (k, v) in cli.environment { env[k] = v }
        let bin = URL(fileURLWithPath: ShoeboxCLI.binary).deletingLastPathComponent().path
        env["PATH"] = bin + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        let r = try TestRoll.run("/bin/sh", ["-c", command], environment: env, allowFailure: true)
        #expect(r.status == 0, "the fix `\(command)` failed: \(r.stderr)", sourceLocation: sourceLocation)
        return ShoeboxCLI.Result(status: r.status, stdout: r.stdout, stderr: r.stderr)
    }

    /// Path → id of every asset, trashed and missing ones too.
    func ids() throws -> [String: String] {
        var out: [String: String] = [:]
        for filter in [[], ["--trashed"], ["--missing"]] {
            for a in try cli.json(["list"] + filter) as? [[String: Any]] ?? [] {
                out[a["path"] as! String] = a["id"] as? String
            }
        }
        return out
    }
}
