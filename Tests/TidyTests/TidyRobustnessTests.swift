import Foundation
import TestSupport
import XCTest

/// Damaged and planted session files: one line naming the file, nothing outside touched.
final class TidyRobustnessTests: XCTestCase {
    func testADamagedSessionIsOneLineAndANewSessionMendsIt() throws {
        let t = try Tidying.roll()
        try t.ok(["tidy", "delete"])
        let state = t.root.appendingPathComponent(".shoebox/tidy.json")
        for garbage in [Data("{\"schema\": 1, \"session\": ".utf8), Data(repeating: 0xFF, count: 300),
                        Data("{\"schema\": 99}".utf8)] {
            try garbage.write(to: state)
            let r = try t.cli.run(["tidy", "next"])
            XCTAssertEqual(r.status, 1)
            XCTAssertEqual(r.stderrLines.count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains(".shoebox/tidy.json"), r.stderr)
        }
        try t.ok(["tidy", "filter", "all"])
        XCTAssertEqual(try t.status()["marked"] as? Int, 1, "the decision made before is kept")

        // A list that does not match its session (torn, or another session's).
        let list = try FileManager.default.contentsOfDirectory(atPath: t.root.appendingPathComponent(".shoebox").path)
            .first { $0.hasPrefix("tidy-") }!
        let listURL = t.root.appendingPathComponent(".shoebox/" + list)
        let text = try String(contentsOf: listURL, encoding: .utf8)
        try Data(text.utf8.dropLast(3)).write(to: listURL)
        let torn = try t.cli.run(["tidy", "next"])
        XCTAssertEqual(torn.status, 1)
        XCTAssertTrue(torn.stderr.contains(list), torn.stderr)
    }

    func testALinkPlantedAtTheSessionFileIsNeverFollowed() throws {
        let t = try Tidying.roll()
        try t.ok(["tidy", "status"])
        let outside = t.root.deletingLastPathComponent().appendingPathComponent("victim.json")
        let content = Data("keep me".utf8)
        try content.write(to: outside)
        let state = t.root.appendingPathComponent(".shoebox/tidy.json")
        try FileManager.default.removeItem(at: state)
        try FileManager.default.createSymbolicLink(at: state, withDestinationURL: outside)
        // The session file is one Shoebox owns: a link there stops every writing command, naming
        // it, and `doctor` names it too; nothing is written through it.
        for args in [["tidy", "keep"], ["tidy", "filter", "all"], ["scan"]] {
            let r = try t.cli.run(args)
            XCTAssertEqual(r.status, 1, "\(args)")
            XCTAssertEqual(r.stderrLines.count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains(".shoebox/tidy.json"), r.stderr)
        }
        let doctor = try t.cli.run(["doctor"])
        XCTAssertNotEqual(doctor.status, 0)
        XCTAssertTrue((doctor.stdout + doctor.stderr).contains(".shoebox/tidy.json"), doctor.stdout)
        XCTAssertEqual(try Data(contentsOf: outside), content, "the file outside the library is untouched")
        // Once the link is gone, a new session starts; the decisions made before are kept.
        try FileManager.default.removeItem(at: state)
        try t.ok(["tidy", "filter", "all"])
        XCTAssertEqual(try Data(contentsOf: outside), content)
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: state.path))
    }
}
