import Foundation
import TestSupport
import XCTest

/// Issue 32: what tidy says in a terminal — the review's count survives a filter change, an undo
/// says each decision it took back, and the item under review shows its size and score's words.
final class TidyWordingTests: XCTestCase {
    func testTheReviewedCountSurvivesAFilterChangeAndEmptySaysIt() throws {
        let t = try Tidying.roll()
        try t.ok(["tidy", "filter", "all"])
        for _ in 0..<4 { try t.ok(["tidy", "keep"]) }
        try t.ok(["tidy", "delete"])
        let before = try XCTUnwrap(try t.status()["reviewed"] as? Int)
        XCTAssertGreaterThanOrEqual(before, 5)
        try t.ok(["tidy", "filter", "largest"])
        XCTAssertEqual(try t.status()["reviewed"] as? Int, before, "the count went with the filter change")
        // Nothing of the new list to undo: said as such, the decisions stay.
        let undo = try t.cli.run(["tidy", "undo"])
        XCTAssertNotEqual(undo.status, 0)
        XCTAssertTrue(undo.stderr.contains("since the filter changed"), undo.stderr)
        let empty = try t.ok(["tidy", "empty"])
        let said = empty.stdout + empty.stderr
        XCTAssertTrue(said.contains("\(before) photos reviewed this session"), said)
        XCTAssertFalse(said.contains("0 photos reviewed"), said)
    }

    func testUndoSaysEachDecisionItTookBack() throws {
        let t = try Tidying.roll()
        try t.ok(["tidy", "filter", "all"])
        // The first group of the review: keep its best, the others marked for deletion.
        var item = try t.json(["tidy", "next"])
        for _ in 0..<40 {
            guard let i = item["item"] as? [String: Any], Tidying.members(i).count < 2 else { break }
            try t.ok(["tidy", "keep"])
            item = try t.json(["tidy", "next"])
        }
        let members = Tidying.members(try XCTUnwrap(item["item"] as? [String: Any]))
        XCTAssertGreaterThanOrEqual(members.count, 2, "the roll has a group")
        let best = try XCTUnwrap(members.first?["id"] as? String)
        try t.ok(["tidy", "keep", best, "--others", "delete"])
        let undo = try t.ok(["tidy", "undo"])
        let others = members.count - 1
        XCTAssertTrue(undo.stderr.contains("Undone: keep of 1 photo, delete of \(others) photo\(others == 1 ? "" : "s")."), undo.stderr)
    }

    func testTheItemUnderReviewShowsItsPixelSizeAndItsScoreInWords() throws {
        let t = try Tidying.roll()
        try t.ok(["tidy", "filter", "all"])
        let next = try t.ok(["tidy", "next"]).stdout
        let item = try t.json(["tidy", "next"])
        let first = try XCTUnwrap(Tidying.members(try XCTUnwrap(item["item"] as? [String: Any])).first)
        let asset = try XCTUnwrap(try t.cli.assetsByPath().values.first { $0["id"] as? String == first["id"] as? String })
        let size = "\(try XCTUnwrap(asset["width"] as? Int))×\(try XCTUnwrap(asset["height"] as? Int))"
        XCTAssertTrue(next.contains(size + " — "), next)
        // The same words `show` gives after the score.
        let show = try t.ok(["show", try XCTUnwrap(asset["id"] as? String)]).stdout
        let words = try XCTUnwrap(show.split(separator: "\n").first { $0.hasPrefix("score") }?.components(separatedBy: " — ").last)
        XCTAssertTrue(next.contains(size + " — " + words), "\(next)\n\(show)")
    }
}
