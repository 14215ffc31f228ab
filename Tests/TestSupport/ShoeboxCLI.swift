import Foundation

/// Runs the built `shoebox` binary the way a user or a script does.
public struct ShoeboxCLI: Sendable {
    public let library: URL
    public var environment: [String: String] = [:]

    public init(library: URL) { self.library = library }

    /// `init` and `scan` on `made`'s folder, as a user starts.
    public static func scanned(_ made: TestRoll.Made) throws -> ShoeboxCLI {
        let cli = ShoeboxCLI(library: made.root)
        for step in [["init"], ["scan"]] {
            let r = try cli.run(step)
            guard r.status == 0 else {
                throw NSError(domain: "shoebox", code: Int(r.status), userInfo: [NSLocalizedDescriptionKey: "shoebox \(step) failed: \(r.stderr)"])
            }
        }
        return cli
    }

    /// The executables copied into `folder`, `shoebox` as `name`: for a test that runs them as
    /// another user, who may not enter the build folder. `shoebox` hands the commands that read
    /// files' headers to `shoebox-readers` beside it and the pixel commands to `shoebox-pixels`;
    /// `readers: false` leaves the readers out (as an install from before they existed).
    public static func placeBinaries(in folder: URL, name: String = "shoebox", readers: Bool = true) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        let built = (binary as NSString).deletingLastPathComponent
        let others = ["shoebox-pixels"] + (readers ? ["shoebox-readers"] : [])
        for (from, to) in [(binary, name)] + others.map({ (built + "/" + $0, $0) }) {
            let target = folder.appendingPathComponent(to).path
            guard !fm.fileExists(atPath: target) else { continue }
            try fm.copyItem(atPath: from, toPath: target)  // not a link: the test may chown the folder
        }
    }

    /// `$SHOEBOX_BIN`, else the `shoebox` built beside the running test bundle.
    public static var binary: String {
        if let p = ProcessInfo.processInfo.environment["SHOEBOX_BIN"] { return p }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("shoebox")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
            dir = dir.deletingLastPathComponent()
        }
        return TestRoll.repositoryRoot.appendingPathComponent(".build/debug/shoebox").path
    }

    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// Stopped by `run`'s timeout.
        public var timedOut = false
        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status; self.stdout = stdout; self.stderr = stderr
        }
        public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    }

    /// `shoebox --library <library> <args…>`. With `timeout`, a command still running after that
    /// many seconds is stopped (SIGTERM, then SIGKILL) and the result says `timedOut`: a hang
    /// fails the test instead of the whole run.
    @discardableResult
    public func run(_ args: [String], extraEnvironment: [String: String] = [:], timeout: Double? = nil) throws -> Result {
        var env = ProcessInfo.processInfo.environment
        env["SHOEBOX_LIBRARY"] = nil
        for (k, v) in environment { env[k] = v }
        for (k, v) in extraEnvironment { env[k] = v }
        let command = [ShoeboxCLI.binary, args[0], "--library", library.path] + args.dropFirst()
        let started = Date()
        let r = try timeout.map { seconds in
            try TestRoll.run("/usr/bin/timeout", ["-k", "5", String(seconds)] + command, environment: env, allowFailure: true)
        } ?? TestRoll.run(command[0], Array(command.dropFirst()), environment: env, allowFailure: true)
        var result = Result(status: r.status, stdout: r.stdout, stderr: r.stderr)
        // By the clock: `timeout`'s own status is lost when its SIGKILL takes it along.
        result.timedOut = timeout.map { Date().timeIntervalSince(started) >= $0 } ?? false
        return result
    }

    /// Runs a command that must succeed and prints JSON; returns the decoded JSON.
    public func json(_ args: [String]) throws -> Any {
        let r = try run(args + ["--json"])
        guard r.status == 0 else {
            throw NSError(domain: "shoebox", code: Int(r.status), userInfo: [NSLocalizedDescriptionKey: "shoebox \(args) failed: \(r.stderr)"])
        }
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8), options: [.fragmentsAllowed])
    }

    /// `list --json` (plus filters) as dictionaries keyed by path.
    public func assetsByPath(_ filters: [String] = []) throws -> [String: [String: Any]] {
        let list = try json(["list"] + filters) as? [[String: Any]] ?? []
        var out: [String: [String: Any]] = [:]
        for a in list { out[a["path"] as! String] = a }
        return out
    }
}
