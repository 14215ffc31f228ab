import Foundation
import Testing
import TestSupport

/// The command-line contract of SPEC.md as a script sees it: spellings, exit codes, one-line errors.
@Suite(.serialized)
struct CommandLineEndToEndTests {
    static func scannedSampleCopy() throws -> (ShoeboxCLI, TestRoll.Made) {
        let copy = try TestRoll.sampleCopy()
        return (try ShoeboxCLI.scanned(copy), copy)
    }

    @Test func listingsFilterLikeTheGroundTruth() throws {
        let (cli, roll) = try Self.scannedSampleCopy()
        let photos = roll.entries.filter { $0.live_photo_of == nil }
        #expect(try cli.assetsByPath().count == photos.count)
        let tom = try cli.assetsByPath(["--person", "Tom"])
        #expect(Set(tom.keys) == Set(photos.filter { $0.persons.contains { $0.name == "Tom" } }.map(\.path)))
        let screenshots = try cli.assetsByPath(["--kind", "screenshot"])
        #expect(Set(screenshots.keys) == Set(photos.filter { $0.kind == "screenshot" }.map(\.path)))
        let year = try #require(photos.compactMap(\.taken_at).first.map { Int($0.prefix(4))! })
        let inYear = try cli.assetsByPath(["--year", String(year)])
        // Files without a date in their metadata fall back to a date in their name, else their mtime.
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(secondsFromGMT: 0)!
        func expectedYear(_ e: RollEntry) -> Int {
            if let t = e.taken_at { return Int(t.prefix(4))! }
            if let r = e.path.range(of: "Screenshot ") { return Int(e.path[r.upperBound...].prefix(4))! }
            return utc.component(.year, from: Date(timeIntervalSince1970: e.mtime))
        }
        #expect(Set(inYear.keys) == Set(photos.filter { expectedYear($0) == year }.map(\.path)))
        // Sorted by size, largest first; --limit cuts the list.
        let bySize = try cli.json(["list", "--sort", "size", "--limit", "5"]) as! [[String: Any]]
        let sizes = bySize.map { $0["size"] as! Int }
        #expect(sizes.count == 5 && sizes == sizes.sorted(by: >))
        #expect(sizes.first == photos.map(\.size).max())
        // Every field of the contract is present in every asset, null or not.
        let fields = ["id", "path", "kind", "format", "size", "width", "height", "taken_at", "taken_at_source", "year",
                      "gps", "place", "persons", "faces", "score", "is_utility", "sha256", "similar_group",
                      "duplicate_of", "live_video", "state"]
        let all = try cli.json(["list"]) as! [[String: Any]]
        for a in all { for f in fields { #expect(a.keys.contains(f), "\(a["path"]!) lacks \(f)") } }
        // The human listing prints one line per asset, with a usable id prefix.
        let human = try cli.run(["list", "--person", "Tom"])
        #expect(human.status == 0 && human.stdout.split(separator: "\n").count == tom.count)
        let prefix = String(human.stdout.prefix(13))
        #expect(try cli.run(["show", prefix]).status == 0)
    }

    @Test func errorsAreOneLineWithTheRightExitCode() throws {
        let (cli, _) = try Self.scannedSampleCopy()
        let missing = try cli.run(["show", "no/such/photo.jpg"])
        #expect(missing.status == 1 && missing.stderrLines.count == 1 && missing.stderr.contains("no/such/photo.jpg"))
        let badUsage = try cli.run(["list", "--sort", "colour"])
        #expect(badUsage.status == 2)
        let elsewhere = Scratch.root.appendingPathComponent("not-a-library-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let noLibrary = try ShoeboxCLI(library: elsewhere).run(["list"])
        #expect(noLibrary.status == 1 && noLibrary.stderrLines.count == 1 && noLibrary.stderr.contains("shoebox init"))
        // `--library` may come before the command, as SPEC spells it, and $SHOEBOX_LIBRARY works too.
        let before = try TestRoll.run(ShoeboxCLI.binary, ["--library", cli.library.path, "list", "--json"], allowFailure: true)
        #expect(before.status == 0 && before.stdout.hasPrefix("["))
        var env = ProcessInfo.processInfo.environment
        env["SHOEBOX_LIBRARY"] = cli.library.path
        let viaEnv = try TestRoll.run(ShoeboxCLI.binary, ["list", "--json"], environment: env, allowFailure: true)
        #expect(viaEnv.status == 0 && viaEnv.stdout == before.stdout)
        // Initialising twice is an error that changes nothing.
        let twice = try cli.run(["init"])
        #expect(twice.status == 1 && twice.stderr.contains("already"))
    }

    @Test func doctorSaysWhenTheIndexIsBehindTheDisk() throws {
        let (cli, roll) = try Self.scannedSampleCopy()
        let clean = try cli.json(["doctor"]) as! [String: Any]
        let checks = clean["checks"] as! [[String: Any]]
        #expect(checks.allSatisfy { $0["status"] as? String != "problem" }, "\(checks)")
        let some = try #require(roll.entries.first { $0.format == "jpeg" })
        try FileManager.default.copyItem(at: roll.root.appendingPathComponent(some.path),
                                         to: roll.root.appendingPathComponent("new arrival.jpg"))
        let behind = try cli.run(["doctor"])
        #expect(behind.status == 1)
        #expect(behind.stdout.contains("1 files not indexed") && behind.stdout.contains("scan"))
        try cli.run(["scan"], extraEnvironment: ["SHOEBOX_NOW": "2026-11-22T10:15:03Z"])
        #expect(try cli.run(["doctor"]).status == 0)
        // $SHOEBOX_NOW is the clock: the new asset was first seen "then".
        let arrival = try cli.json(["show", "new arrival.jpg"]) as! [String: Any]
        let firstSeen = try #require(arrival["first_seen"] as? String)
        let formatter = ISO8601DateFormatter()
        #expect(formatter.date(from: firstSeen) == formatter.date(from: "2026-11-22T10:15:03Z"), "\(firstSeen)")
    }
}
