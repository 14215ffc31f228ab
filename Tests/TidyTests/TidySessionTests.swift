import Foundation
import TestSupport
import XCTest

/// A review session through the built binary, every command a new process (so every step is a
/// restart): decisions of every kind, groups, undo, the session's place.
final class TidySessionTests: XCTestCase {
    func testAFullSessionWithEveryDecisionAndUndoAcrossRestarts() throws {
        let t = try Tidying.roll()
        let started = try t.status()
        XCTAssertEqual(started["filter"] as? String, "all")
        XCTAssertEqual(started["position"] as? Int, 0)
        // Every asset of the roll is in it once, a Live Photo once (its movie is part of it).
        XCTAssertEqual(started["total"] as? Int, t.items.count)
        XCTAssertEqual(try t.sessionPaths().sorted(), t.items.map(\.path).sorted())

        // Walk the session: keep, delete, maybe on whole items; on a group keep one member and
        // mark the others; remember what each asset should end up as.
        var expected: [String: String] = [:]
        var decidedGroup = false
        var step = 0
        while let item = try t.json(["tidy", "next"])["item"] as? [String: Any], step < 12 {
            let members = Tidying.members(item)
            if item["group"] != nil, !decidedGroup {
                let best = members[0]["id"] as! String
                let r = try t.json(["tidy", "keep", best, "--others", "delete"])
                XCTAssertEqual(r["decided"] as? [String], [best])
                XCTAssertEqual(Set(r["others"] as? [String] ?? []), Set(members.dropFirst().map { $0["id"] as! String }))
                expected[best] = "keep"
                for m in members.dropFirst() { expected[m["id"] as! String] = "delete" }
                decidedGroup = true
            } else {
                let decision = ["keep", "delete", "maybe"][step % 3]
                let r = try t.json(["tidy", decision])
                XCTAssertEqual(Set(r["decided"] as? [String] ?? []), Set(members.map { $0["id"] as! String }))
                for m in members { expected[m["id"] as! String] = decision }
            }
            step += 1
        }
        XCTAssertTrue(decidedGroup, "the newest items of the roll include a group of similar shots")
        let reviewed = try t.status()
        XCTAssertEqual(reviewed["reviewed"] as? Int, expected.count)
        XCTAssertEqual(reviewed["position"] as? Int, expected.count)
        XCTAssertEqual(reviewed["marked"] as? Int, expected.values.filter { $0 == "delete" }.count)
        XCTAssertEqual(reviewed["maybe"] as? Int, expected.values.filter { $0 == "maybe" }.count)
        XCTAssertEqual(Set(try t.array(["tidy", "trash"]).map { $0["id"] as! String }),
                       Set(expected.filter { $0.value == "delete" }.keys))
        XCTAssertEqual(Set(try t.array(["tidy", "maybes"]).map { $0["id"] as! String }),
                       Set(expected.filter { $0.value == "maybe" }.keys))

        // Undo, each a new process, back to the start: the marks go, the place returns.
        let nextBefore = try t.json(["tidy", "next"])["item"] as? [String: Any]
        var undone = 0
        while try t.cli.run(["tidy", "undo"]).status == 0 { undone += 1 }
        XCTAssertEqual(undone, step)
        let back = try t.status()
        XCTAssertEqual(back["position"] as? Int, 0)
        XCTAssertEqual(back["marked"] as? Int, 0)
        XCTAssertEqual(back["maybe"] as? Int, 0)
        XCTAssertEqual(back["reviewed"] as? Int, 0)
        let undoMore = try t.cli.run(["tidy", "undo"])
        XCTAssertEqual(undoMore.status, 1)
        XCTAssertEqual(undoMore.stderrLines.count, 1, undoMore.stderr)
        XCTAssertTrue(undoMore.stderr.contains("nothing to undo"), undoMore.stderr)
        XCTAssertNotNil(nextBefore)
    }

    func testKeepingOneOfAGroupOffersTheOthersAndTheGroupStaysUntilDecided() throws {
        let t = try Tidying.roll()
        // Skip to the first group.
        var item = try t.json(["tidy", "next"])["item"] as! [String: Any]
        while item["group"] == nil {
            try t.ok(["tidy", "keep"])
            item = try t.json(["tidy", "next"])["item"] as! [String: Any]
        }
        let members = Tidying.members(item).map { $0["id"] as! String }
        XCTAssertGreaterThan(members.count, 1)
        let kept = try t.ok(["tidy", "keep", members[0]])
        XCTAssertTrue(kept.stderr.contains("Delete the other \(members.count - 1) similar photo"), kept.stderr)
        XCTAssertTrue(kept.stderr.contains("--others delete"), kept.stderr)
        // The group is still under review, its first member decided.
        let still = try t.json(["tidy", "next"])["item"] as! [String: Any]
        XCTAssertEqual(still["group"] as? String, item["group"] as? String)
        XCTAssertEqual(Tidying.members(still).first?["decision"] as? String, "keep")
        // Deciding the rest moves on.
        for id in members.dropFirst() { try t.ok(["tidy", "delete", id]) }
        let after = try t.json(["tidy", "next"])["item"] as? [String: Any]
        XCTAssertNotEqual(after?["group"] as? String, item["group"] as? String)
        XCTAssertEqual(Set(try t.array(["tidy", "trash"]).map { $0["id"] as! String }), Set(members.dropFirst()))
    }

    func testTheSessionKeepsItsListWhenFilesVanishAndArrive() throws {
        let t = try Tidying.roll()
        let list = try t.array(["tidy", "list"])
        let total = try t.status()["total"] as! Int
        // The second item's files vanish, and a new photo arrives.
        let gone = Tidying.members(list[1]).map { $0["path"] as! String }
        for p in gone { try FileManager.default.removeItem(at: t.root.appendingPathComponent(p)) }
        let newcomer = t.root.appendingPathComponent("2026/new.jpg")
        try FileManager.default.createDirectory(at: newcomer.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: t.root.appendingPathComponent(t.items.first { $0.format == "jpeg" && $0.kind == "photo" }!.path), to: newcomer)
        try t.ok(["scan"])
        XCTAssertEqual(try t.status()["total"] as? Int, total, "the session's size does not change")
        try t.ok(["tidy", "keep"])  // the first item
        // The vanished item is passed over: the third item is next.
        let next = try t.json(["tidy", "next"])["item"] as! [String: Any]
        XCTAssertEqual(Tidying.members(next).map { $0["path"] as! String }, Tidying.members(list[2]).map { $0["path"] as! String })
        XCTAssertFalse(try t.sessionPaths().contains("2026/new.jpg"))
        // A new session sees the newcomer.
        try t.ok(["tidy", "filter", "all"])
        XCTAssertTrue(try t.sessionPaths().contains("2026/new.jpg"))
    }

    func testAKilledDecisionIsFinishedOnTheNextStart() throws {
        let t = try Tidying.roll()
        let first = Tidying.members(try t.json(["tidy", "next"])["item"] as! [String: Any]).map { $0["id"] as! String }
        try t.ok(["tidy", "delete"])
        // As if killed after the session was written and before the marks: the marks go back.
        let library = t.root.appendingPathComponent(".shoebox/tidy.json")
        let saved = try Data(contentsOf: library)
        try t.ok(["tidy", "undo"])
        try saved.write(to: library)
        XCTAssertEqual(try t.array(["tidy", "trash"]).count, 0)
        // The next writing command finishes it.
        _ = try t.status()
        XCTAssertEqual(Set(try t.array(["tidy", "trash"]).map { $0["id"] as! String }), Set(first))
    }
}
