import Foundation
import TestSupport
import XCTest

/// The draft through the built binary: it lasts across processes until export or clear, and a
/// fifth photo, a bad position, an empty export, an output that exists or is a link are each one
/// line on stderr, exit 1, nothing changed.
final class ComposerDraftCommandTests: XCTestCase {
    var draftFile: URL!

    func testDraftLastsAcrossProcessesInTheOrderGiven() throws {
        let c = try Composing.library()
        try c.ok(["add", "wide.jpg", "tall.png"])
        try c.ok(["add", "photo.heic"])
        XCTAssertEqual(try c.draftPaths(), ["wide.jpg", "tall.png", "photo.heic"])
        try c.ok(["move", "3", "1"])
        XCTAssertEqual(try c.draftPaths(), ["photo.heic", "wide.jpg", "tall.png"])
        try c.ok(["replace", "2", "r8.jpg"])
        try c.ok(["remove", "3"])
        let items = try c.draft()
        XCTAssertEqual(items.map { $0["path"] as! String }, ["photo.heic", "r8.jpg"])
        XCTAssertEqual(items.map { $0["position"] as! Int }, [1, 2])
        XCTAssertEqual(items[1]["width"] as? Int, 1440, "the asset shape, upright")
        let list = try c.ok(["list"]).stdout
        XCTAssertTrue(list.hasPrefix("1 ") && list.contains("photo.heic") && list.contains("\n2 "), list)
        try c.ok(["clear"])
        XCTAssertEqual(try c.draft().count, 0)
    }

    /// Runs `compose args` expecting exit 1 with one line on stderr holding `words`, and the
    /// draft's file unchanged.
    func refused(_ c: Composing, _ args: [String], _ words: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try? Data(contentsOf: c.file(".shoebox/composer.json"))
        let r = try c.cli.run(["compose"] + args)
        XCTAssertEqual(r.status, 1, "compose \(args): \(r.stderr)", file: file, line: line)
        XCTAssertEqual(r.stderrLines.count, 1, "one line: \(r.stderr)", file: file, line: line)
        XCTAssertTrue(r.stderr.contains(words), "compose \(args) says \(words): \(r.stderr)", file: file, line: line)
        XCTAssertEqual(try? Data(contentsOf: c.file(".shoebox/composer.json")), before, "the draft is unchanged", file: file, line: line)
    }

    func testFifthPhotoAndBadPositionsChangeNothing() throws {
        let c = try Composing.library()
        try refused(c, ["export", "-o", c.out.appendingPathComponent("empty.heic").path], "empty")
        try refused(c, ["move", "1", "2"], "empty")
        try c.ok(["add", "wide.jpg", "tall.png", "photo.heic"])
        try refused(c, ["add", "r6.jpg", "r8.jpg"], "at most 4")
        try c.ok(["add", "r6.jpg"])
        try refused(c, ["add", "r3.jpg"], "at most 4")
        try refused(c, ["move", "0", "2"], "no position 0")
        try refused(c, ["move", "1", "5"], "no position 5")
        try refused(c, ["remove", "5"], "no position 5")
        try refused(c, ["replace", "9", "r3.jpg"], "no position 9")
        try refused(c, ["replace", "1", "tall.png"], "already at position 2")
        try refused(c, ["replace", "1", "nothing-here.jpg"], "nothing-here.jpg")
        XCTAssertEqual(try c.draftPaths(), ["wide.jpg", "tall.png", "photo.heic", "r6.jpg"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: c.out.path), [], "no story written")
    }

    func testOutputThatExistsOrIsALinkIsNeverWrittenThrough() throws {
        let c = try Composing.library()
        try c.ok(["add", "wide.jpg"])
        let taken = c.out.appendingPathComponent("taken.heic")
        try Data("mine".utf8).write(to: taken)
        try refused(c, ["export", "-o", taken.path], "already exists")
        XCTAssertEqual(try Data(contentsOf: taken), Data("mine".utf8))
        let target = c.out.appendingPathComponent("target.txt"), link = c.out.appendingPathComponent("link.heic")
        try Data("target".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        try refused(c, ["export", "-o", link.path], "symbolic link")
        XCTAssertEqual(try Data(contentsOf: target), Data("target".utf8))
        let dangling = c.out.appendingPathComponent("dangling.heic")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: c.out.appendingPathComponent("made-through-link.heic").path)
        try refused(c, ["export", "-o", dangling.path], "symbolic link")
        XCTAssertFalse(FileManager.default.fileExists(atPath: c.out.appendingPathComponent("made-through-link.heic").path))
        try refused(c, ["export", "-o", c.file("inside.heic").path], "inside the library")
        try refused(c, ["export", "-o", c.out.appendingPathComponent("no-such-folder/x.heic").path], "does not exist")
        XCTAssertEqual(try c.draftPaths(), ["wide.jpg"], "a failed export keeps the draft")
        let names = try FileManager.default.contentsOfDirectory(atPath: c.out.path).sorted()
        XCTAssertEqual(names, ["dangling.heic", "link.heic", "taken.heic", "target.txt"], "no temporary left behind")
    }

    func testTrashedPhotoStopsTheExportAndAPurgedOneLeavesTheDraft() throws {
        let c = try Composing.library()
        try c.ok(["add", "wide.jpg", "tall.png"])
        XCTAssertEqual(try c.cli.run(["trash", "tall.png"]).status, 0)
        XCTAssertEqual(try c.draft().map { $0["state"] as! String }, ["present", "trashed"], "a trashed photo stays, shown so")
        try refused(c, ["export", "-o", c.out.appendingPathComponent("s.heic").path], "position 2")
        let purge = try c.cli.run(["trash", "purge"], extraEnvironment: ["SHOEBOX_NOW": "2099-01-01T00:00:00Z"])
        XCTAssertEqual(purge.status, 0, purge.stderr)
        let r = try c.cli.run(["compose", "list", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("left the composer draft"), r.stderr)
        XCTAssertEqual(try c.draftPaths(), ["wide.jpg"])
        XCTAssertNoThrow(try c.export("after-purge.heic"))
    }

    func testDamagedOrPlantedDraftIsOneLineAndClearRecovers() throws {
        let c = try Composing.library()
        let file = c.file(".shoebox/composer.json")
        for bytes in [Data("{\"schema\":1,\"items\":[\"not-an-id\"]}".utf8), Data([0xff, 0xfe, 0x00]), Data("[1,2".utf8),
                      Data(count: 1 << 20)] {
            try bytes.write(to: file)
            let r = try c.cli.run(["compose", "list"])
            XCTAssertEqual(r.status, 1)
            XCTAssertEqual(r.stderrLines.count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains(".shoebox/composer.json") && r.stderr.contains("compose clear"), r.stderr)
        }
        try c.ok(["clear"])
        XCTAssertEqual(try c.draft().count, 0)
        // A link planted for the draft is not followed: neither read nor written through.
        let outside = c.out.appendingPathComponent("elsewhere.json")
        try Data("{\"schema\":1,\"items\":[]}".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: outside)
        let r = try c.cli.run(["compose", "add", "wide.jpg"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(try Data(contentsOf: outside), Data("{\"schema\":1,\"items\":[]}".utf8))
    }
}
