import Foundation
import TestSupport
import XCTest

/// An analysed copy of the Tidy roll (seed 11: four bursts, a byte-identical and an edited copy,
/// screenshots, a Live Photo, videos, photos of 2026), with `tidy` helpers through the built
/// binary. The roll is analysed once per test process (perceptual hashes, scores); each test
/// gets its own copy, rescanned (a copy has new inodes).
struct Tidying {
    let made: TestRoll.Made
    let cli: ShoeboxCLI
    var root: URL { made.root }

    nonisolated(unsafe) private static var template: TestRoll.Made?
    private static let lock = NSLock()

    static func roll(now: String = "2026-11-26T12:00:00Z") throws -> Tidying {
        let template = try lock.withLock { () throws -> TestRoll.Made in
            if let t = Self.template { return t }
            let made = try TestRoll.make(seed: 11, count: 40, arguments: ["--long-side", "640", "--live", "1", "--videos", "2"])
            let cli = try ShoeboxCLI.scanned(made)
            let r = try cli.run(["analyze"])
            guard r.status == 0 else { throw TidyFailure("analyze failed: \(r.stderr)") }
            Self.template = made
            return made
        }
        let copy = Scratch.root.appendingPathComponent("shoebox-tidy-\(UUID().uuidString)/roll")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try TestRoll.run("/bin/cp", ["-a", template.root.path, copy.path])
        var cli = ShoeboxCLI(library: copy)
        cli.environment["SHOEBOX_NOW"] = now
        let t = Tidying(made: TestRoll.Made(root: copy, entries: template.entries), cli: cli)
        try t.ok(["scan"])
        return t
    }

    /// Runs a command that must succeed.
    @discardableResult
    func ok(_ args: [String]) throws -> ShoeboxCLI.Result {
        let r = try cli.run(args)
        guard r.status == 0 else { throw TidyFailure("shoebox \(args.joined(separator: " ")) failed (\(r.status)): \(r.stderr)") }
        return r
    }

    func json(_ args: [String]) throws -> [String: Any] {
        guard let d = try cli.json(args) as? [String: Any] else { throw TidyFailure("\(args) --json is not an object") }
        return d
    }

    func array(_ args: [String]) throws -> [[String: Any]] {
        guard let a = try cli.json(args) as? [[String: Any]] else { throw TidyFailure("\(args) --json is not an array") }
        return a
    }

    func status() throws -> [String: Any] { try json(["tidy", "status"]) }

    /// Assets of an item (`next`'s `item`, an entry of `tidy list`): a group's items or the asset.
    static func members(_ item: [String: Any]) -> [[String: Any]] {
        (item["items"] as? [[String: Any]]) ?? [item]
    }

    /// The paths of every asset of the session's list, in order.
    func sessionPaths() throws -> [String] {
        try array(["tidy", "list", "--all"]).flatMap { Self.members($0).map { $0["path"] as! String } }
    }

    /// Asset ids by path (`list --json`).
    func ids() throws -> [String: String] { try cli.assetsByPath().mapValues { $0["id"] as! String } }

    /// Entries that are items of their own (a Live Photo's movie is part of its photo).
    var items: [RollEntry] { made.entries.filter { $0.live_photo_of == nil } }
}

struct TidyFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
