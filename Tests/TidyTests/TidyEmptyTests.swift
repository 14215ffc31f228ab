import Foundation
import TestSupport
import XCTest

/// The trash review and `empty`: what moves, what is said, what can come back.
final class TidyEmptyTests: XCTestCase {
    func testEmptyMovesTheMarkedFilesLivePhotoPairIncludedAndStatesTheStats() throws {
        let t = try Tidying.roll()
        let ids = try t.ids()
        let live = t.items.first { $0.live_video != nil }!
        let plain = t.items.filter { $0.kind == "photo" && $0.live_video == nil && $0.duplicate_of == nil }.prefix(2).map(\.path)
        for p in [live.path] + plain { try t.ok(["tidy", "delete", ids[p]!]) }
        // The trash review lists the three; one is put back.
        XCTAssertEqual(Set(try t.array(["tidy", "trash"]).map { $0["path"] as! String }), Set([live.path] + plain))
        let unmarked = try t.json(["tidy", "unmark", ids[plain[1]]!])
        XCTAssertEqual(unmarked["decision"] as? String, "keep")
        XCTAssertEqual(Set(try t.array(["tidy", "trash"]).map { $0["path"] as! String }), Set([live.path, plain[0]]))

        let files = [live.path, live.live_video!, plain[0]]
        let bytes = try files.reduce(Int64(0)) { $0 + (try FileManager.default.attributesOfItem(atPath: t.root.appendingPathComponent($1).path)[.size] as! NSNumber).int64Value }
        let e = try t.json(["tidy", "empty"])
        XCTAssertEqual(e["removed"] as? Int, 2, "a Live Photo counts once")
        XCTAssertEqual((e["freed_bytes"] as? NSNumber)?.int64Value, bytes, "its movie's bytes count")
        XCTAssertEqual(e["reviewed"] as? Int, 3)
        XCTAssertEqual(e["purge_date"] as? String, "2026-12-26T12:00:00Z")
        for p in files {
            XCTAssertFalse(FileManager.default.fileExists(atPath: t.root.appendingPathComponent(p).path), "\(p) left the library")
        }
        let trashed = try t.array(["trash", "list"]).map { $0["original_path"] as! String }
        XCTAssertEqual(Set(trashed), Set(files), "every file is in Recently Deleted, none deleted for good")
        XCTAssertTrue(FileManager.default.fileExists(atPath: t.root.appendingPathComponent(plain[1]).path))
        XCTAssertEqual(try t.status()["marked"] as? Int, 0)
        XCTAssertEqual(try t.status()["removed"] as? Int, 2)

        // The text form says it the brief's way.
        try t.ok(["tidy", "delete", ids[plain[1]]!])
        let said = try t.ok(["tidy", "empty"]).stdout
        XCTAssertTrue(said.range(of: #"^\d+\.\d (GB|MB|kB) freed from the library \(in Recently Deleted until 2026-12-26"#, options: .regularExpression) != nil, said)
        XCTAssertTrue(said.contains("\n1 photo removed\n"), said)
        XCTAssertTrue(said.contains("3 photos reviewed this session"), "the photo put back and marked again counts once: \(said)")

        // Undo cannot go back past empty; restore brings a file back with its id.
        let undo = try t.cli.run(["tidy", "undo"])
        XCTAssertEqual(undo.status, 1)
        XCTAssertTrue(undo.stderr.contains("since `tidy empty`"), undo.stderr)
        try t.ok(["restore", ids[plain[0]]!])
        XCTAssertTrue(FileManager.default.fileExists(atPath: t.root.appendingPathComponent(plain[0]).path))
        XCTAssertEqual(try t.ids()[plain[0]], ids[plain[0]])
    }

    func testNothingMarkedAndBadReferencesAreOneLine() throws {
        let t = try Tidying.roll()
        let empty = try t.ok(["tidy", "empty"])
        XCTAssertTrue(empty.stderr.contains("Nothing is marked for deletion"), empty.stderr)
        let ids = try t.ids()
        for args in [["tidy", "unmark", ids[t.items[0].path]!], ["tidy", "keep", "no/such/file.jpg"],
                     ["tidy", "keep", t.items[0].path, "--others", "delete"]] {
            let r = try t.cli.run(args)
            XCTAssertEqual(r.status, 1, "\(args)")
            XCTAssertEqual(r.stderrLines.count, 1, r.stderr)
        }
        let usage = try t.cli.run(["tidy", "keep", "--others", "delete"])
        XCTAssertEqual(usage.status, 2, usage.stderr)
    }
}
