import Foundation
import Testing
import TestSupport

/// Issue 13: a folder named `.shoebox` deep in a library — a user's own, or a whole library
/// copied in — was taken for the library by any command run below it, which then made an index
/// there. The library is now the outermost enclosing folder whose `.shoebox/` is a library's (it
/// holds the index or the sidecars); a path given with `--library` must not be inside another;
/// `init` inside a library refuses.
@Suite(.serialized)
struct NestedLibraryTests {
    /// Runs `shoebox ARGS` (no `--library`) in `folder`, as a user in a shell there.
    static func run(_ args: String, in folder: URL, _ cli: ShoeboxCLI) throws -> ShoeboxCLI.Result {
        var env = ProcessInfo.processInfo.environment
        env["SHOEBOX_LIBRARY"] = nil
        let bin = URL(fileURLWithPath: ShoeboxCLI.binary).deletingLastPathComponent().path
        env["PATH"] = bin + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        let command = "cd '\(folder.path.replacingOccurrences(of: "'", with: "'\\''"))' && shoebox \(args)"
        let r = try TestRoll.run("/bin/sh", ["-c", command], environment: env, allowFailure: true)
        return ShoeboxCLI.Result(status: r.status, stdout: r.stdout, stderr: r.stderr)
    }

    static func tree(_ folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test func aUserFolderNamedShoeboxDeepInTheLibraryIsNotALibrary() throws {
        let cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        defer { try? FileManager.default.removeItem(at: cli.library.deletingLastPathComponent()) }
        let trips = cli.library.appendingPathComponent("Trips")
        let own = trips.appendingPathComponent(".shoebox")
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        try Data("my own notes\n".utf8).write(to: own.appendingPathComponent("config.toml"))
        try Data(contentsOf: cli.library.appendingPathComponent(try #require(try cli.assetsByPath().keys.sorted().first)))
            .write(to: trips.appendingPathComponent("new.jpg"))
        let before = Self.tree(own)

        let scan = try Self.run("scan --json", in: trips, cli)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect((try JSONSerialization.jsonObject(with: Data(scan.stdout.utf8)) as? [String: Any])?["added"] as? Int == 1)
        #expect(try cli.assetsByPath().keys.contains("Trips/new.jpg"))
        #expect(Self.tree(own) == before, "Shoebox wrote into the user's .shoebox folder")
        // `init` there refuses (it is inside the library), and leaves it as it was.
        let initHere = try Self.run("init", in: trips, cli)
        #expect(initHere.status == 1 && initHere.stderrLines.count == 1)
        #expect(initHere.stderr.contains("\(trips.path) is inside the Shoebox library \(cli.library.path)"), "\(initHere.stderr)")
        #expect(Self.tree(own) == before)
    }

    @Test func aLibraryCopiedIntoAnotherIsTheOuterOnesFolder() throws {
        let cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        let base = cli.library.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: base) }
        // A second library, scanned on its own, then moved into the first as `Old`.
        let other = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        defer { try? FileManager.default.removeItem(at: other.library.deletingLastPathComponent()) }
        let old = cli.library.appendingPathComponent("Old")
        try FileManager.default.moveItem(at: other.library, to: old)
        #expect(try cli.run(["scan"]).status == 0)

        let inside = try #require(try FileManager.default.contentsOfDirectory(atPath: old.path).first { !$0.hasPrefix(".") && !$0.contains(" ") })
        let listed = try Self.run("list --json", in: old.appendingPathComponent(inside), cli)
        #expect(listed.status == 0, "\(listed.stderr)")
        let paths = ((try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }
        #expect(paths.contains { $0.hasPrefix("Old/") } && paths.contains { !$0.hasPrefix("Old/") }, "the inner library answered")

        let explicit = ShoeboxCLI(library: old)
        let refused = try explicit.run(["list"])
        #expect(refused.status == 1 && refused.stderrLines.count == 1)
        #expect(refused.stderr.contains("\(old.path) is inside the Shoebox library \(cli.library.path), which indexes its files already"), "\(refused.stderr)")

        let sub = cli.library.appendingPathComponent("Sub")
        let initSub = try ShoeboxCLI(library: sub).run(["init"])
        #expect(initSub.status == 1 && initSub.stderr.contains("is inside the Shoebox library \(cli.library.path)"), "\(initSub.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sub.path))
    }

    /// `init` in a folder whose `.shoebox` is someone else's refuses rather than write into it.
    @Test func initRefusesAFolderWhoseShoeboxIsNotALibrarys() throws {
        let base = Scratch.root.appendingPathComponent("shoebox-nested-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let own = base.appendingPathComponent(".shoebox")
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        try Data("mine\n".utf8).write(to: own.appendingPathComponent("notes.txt"))
        let r = try ShoeboxCLI(library: base).run(["init"])
        #expect(r.status == 1 && r.stderrLines.count == 1)
        #expect(r.stderr.contains("\(own.path) exists but is not a Shoebox library's (no index, no sidecars)"), "\(r.stderr)")
        #expect(Self.tree(own) == ["notes.txt"])
        let list = try ShoeboxCLI(library: base).run(["list"])
        #expect(list.status == 1 && list.stderr.contains("\(base.path) is not a Shoebox library"), "\(list.stderr)")
    }
}
