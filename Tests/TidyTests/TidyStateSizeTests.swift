import Foundation
import XCTest

/// Issue 28: a valid 97 MB `.shoebox/tidy.json` (a long session's every change) cost 7–11 s and
/// 0.6 GB on every tidy command. The session now keeps the changes `undo` can reach and counts
/// the older ones; a state file larger than any it writes is refused in one line. Figures in
/// docs/BENCHMARKS.md.
final class TidyStateSizeTests: XCTestCase {
    /// What docs/TIDY.md promises: `undo` reaches back this many changes…
    static let undoDepth = 1000
    /// …and a state file past this size is damaged.
    static let stateLimit = 8 << 20

    /// A session of `changes` decisions by reference, round the library's assets, in the state
    /// the CLI wrote for `t`'s session; returns how many assets they decided.
    func writeLongSession(_ t: Tidying, changes: Int) throws -> Int {
        let url = t.root.appendingPathComponent(".shoebox/tidy.json")
        var state = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let session = try XCTUnwrap(state["session"] as? String)
        let ids = try t.ids().values.sorted()
        var log: [[String: Any]] = []
        log.reserveCapacity(changes)
        for n in 0..<changes {
            let mark: [String: Any] = ["decision": ["keep", "maybe"][n / ids.count % 2], "at": "2026-11-26T11:00:00.000Z", "session": session]
            log.append(["kind": "decide", "positionBefore": 0, "positionAssetsBefore": 0,
                        "marks": [["id": ids[n % ids.count], "to": mark]]])
        }
        state["log"] = log
        try JSONSerialization.data(withJSONObject: state, options: [.prettyPrinted]).write(to: url)
        return min(changes, ids.count)
    }

    func fileSize(_ t: Tidying) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: t.root.appendingPathComponent(".shoebox/tidy.json").path)[.size] as? Int)
    }

    /// Changes that fill a state file to just under the limit.
    func changesFilling(_ t: Tidying, below limit: Int) throws -> Int {
        _ = try writeLongSession(t, changes: 1000)
        let perChange = Double(try fileSize(t)) / 1000
        return Int(Double(limit - (256 << 10)) / perChange)
    }

    func testALongSessionKeepsWhatUndoNeedsAndItsCount() throws {
        let t = try Tidying.roll()
        try t.ok(["tidy", "status"])
        let reviewed = try writeLongSession(t, changes: 3 * Self.undoDepth)
        XCTAssertEqual(try t.status()["reviewed"] as? Int, reviewed)
        let id = try XCTUnwrap(try t.ids().values.sorted().first)
        try t.ok(["tidy", "keep", id])
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: t.root.appendingPathComponent(".shoebox/tidy.json"))) as? [String: Any]
        XCTAssertEqual((saved?["log"] as? [Any])?.count, Self.undoDepth, "the session keeps every change it ever made")
        XCTAssertEqual(try t.status()["reviewed"] as? Int, reviewed, "the count forgot the changes it no longer keeps")
        try t.ok(["tidy", "undo"])
        XCTAssertEqual(try t.status()["reviewed"] as? Int, reviewed)
    }

    func testAStateAsLargeAsTheLimitWorksAndOnePastItIsRefusedInOneLine() throws {
        let t = try Tidying.roll()
        try t.ok(["tidy", "status"])
        let fits = try changesFilling(t, below: Self.stateLimit)
        let reviewed = try writeLongSession(t, changes: fits)
        XCTAssertLessThan(try fileSize(t), Self.stateLimit)
        XCTAssertEqual(try t.status()["reviewed"] as? Int, reviewed)
        try t.ok(["tidy", "keep", try XCTUnwrap(try t.ids().values.sorted().first)])
        XCTAssertLessThan(try fileSize(t), 1 << 20, "saved whole again")

        _ = try writeLongSession(t, changes: fits + fits / 10)
        XCTAssertGreaterThan(try fileSize(t), Self.stateLimit)
        let r = try t.cli.run(["tidy", "status"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderrLines.count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains(".shoebox/tidy.json is damaged") && r.stderr.contains("`shoebox tidy filter all` starts a new session"), r.stderr)
        try t.ok(["tidy", "filter", "all"])
        XCTAssertEqual(try t.status()["reviewed"] as? Int, 0)
    }
}
