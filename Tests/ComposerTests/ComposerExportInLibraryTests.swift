import Foundation
import TestSupport
import XCTest

/// Issue 32: `compose export` without -o, run as the README runs it (`cd ~/Pictures`), i.e. with
/// the current folder inside the library, saves the story into Collages/ instead of failing.
final class ComposerExportInLibraryTests: XCTestCase {
    /// `shoebox compose export` run with `folder` as the current folder (without `library`: found from it).
    static func export(in folder: URL, library: URL? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ShoeboxCLI.binary)
        p.arguments = ["compose", "export"] + (library.map { ["--library", $0.path] } ?? [])
        p.currentDirectoryURL = folder
        var env = ProcessInfo.processInfo.environment
        env["SHOEBOX_LIBRARY"] = nil
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    func testExportWithoutOInsideTheLibrarySavesIntoCollages() throws {
        let c = try Composing.library()
        try c.ok(["add", "wide.jpg", "tall.png"])
        _ = try c.cli.json(["analyze"])
        let r = try Self.export(in: c.root)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("inside the library"), r.stderr)
        let collages = try FileManager.default.contentsOfDirectory(atPath: c.file("Collages").path)
        XCTAssertEqual(collages.count, 1, "\(collages)")
        XCTAssertTrue(collages[0].hasPrefix("Story ") && collages[0].hasSuffix(".heic"))
        XCTAssertTrue(r.stdout.contains("Saved Collages/\(collages[0])"), r.stdout)
        // Nothing was written loose in the library's folder, and the draft is cleared.
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: c.root.path).contains { $0.hasPrefix("Story ") })
        XCTAssertEqual(try c.draft().count, 0)
        // The saved story is analysed when saved: tidy does not nag about it (issue 32).
        let story = try XCTUnwrap(try c.cli.assetsByPath()["Collages/\(collages[0])"])
        XCTAssertEqual(story["analyzed"] as? Bool, true)
        XCTAssertFalse(try c.cli.run(["tidy", "status"]).stderr.contains("not analysed"))

        // From outside the library, the file goes into the current folder as before.
        try c.ok(["add", "wide.jpg"])
        let outside = try Self.export(in: c.out, library: c.root)
        XCTAssertEqual(outside.status, 0, outside.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: c.out.path).filter { $0.hasPrefix("Story ") }.count, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: c.file("Collages").path).count, 1, "not saved again")
    }
}
