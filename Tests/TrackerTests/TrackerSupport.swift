import Foundation
import TestSupport

/// A fresh library (`init` on an empty folder) with `tracker` helpers through the built binary.
struct TrackerLibrary {
    let root: URL
    var cli: ShoeboxCLI

    init() throws {
        root = Scratch.root.appendingPathComponent("shoebox-tracker-\(UUID().uuidString)/library")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        cli = ShoeboxCLI(library: root)
        cli.environment["SHOEBOX_NOW"] = "2026-11-22T10:15:03Z"
        try must(cli.run(["init"]))
    }

    /// A folder beside the library (outside it) for the test's own files.
    var outside: URL { root.deletingLastPathComponent() }
    var storeURL: URL { root.appendingPathComponent("Tracker/tracker.json") }
    var photosURL: URL { root.appendingPathComponent("Tracker/photos") }

    @discardableResult
    func must(_ r: ShoeboxCLI.Result) throws -> ShoeboxCLI.Result {
        guard r.status == 0 else { throw Failure("exit \(r.status): \(r.stderr)") }
        return r
    }

    /// `tracker ARGS --json` that must succeed, decoded.
    func json(_ args: [String], env: [String: String] = [:]) throws -> Any {
        let r = try must(cli.run(["tracker"] + args + ["--json"], extraEnvironment: env))
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8), options: [.fragmentsAllowed])
    }

    func object(_ args: [String], env: [String: String] = [:]) throws -> [String: Any] {
        guard let o = try json(args, env: env) as? [String: Any] else { throw Failure("tracker \(args) did not print an object") }
        return o
    }

    func array(_ args: [String]) throws -> [[String: Any]] {
        guard let a = try json(args) as? [[String: Any]] else { throw Failure("tracker \(args) did not print an array") }
        return a
    }

    /// `tracker ARGS` expected to fail.
    func fails(_ args: [String], env: [String: String] = [:]) throws -> ShoeboxCLI.Result {
        try cli.run(["tracker"] + args, extraEnvironment: env)
    }

    func project(_ system: String = "Warhammer 40K", army: String = "Ultramarines", name: String? = nil) throws -> String {
        try object(["project", "add", "--game-system", system, "--army", army] + (name.map { ["--name", $0] } ?? []))["id"] as! String
    }

    func mini(_ project: String, _ name: String = "Captain", type: String = "character") throws -> String {
        try object(["mini", "add", project, "--name", name, "--type", type])["id"] as! String
    }

    func photo(_ mini: String, _ source: String, env: [String: String] = [:]) throws -> [String: Any] {
        try object(["photo", "add", mini, source], env: env)
    }

    /// The store's bytes (nil when absent), to show a failure left it as it was.
    func storeBytes() -> Data? { try? Data(contentsOf: storeURL) }

    /// Names in Tracker/photos/, hidden ones included.
    func photoFiles() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: photosURL.path)) ?? []).sorted() }

    /// A photo of the repository's test data.
    static func testPhoto(_ name: String) -> URL {
        TestRoll.repositoryRoot.appendingPathComponent("test-data/photos/\(name)")
    }
}

func sha256(_ url: URL) throws -> String {
    String(try TestRoll.run("/usr/bin/sha256sum", [url.path]).stdout.prefix(64))
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
