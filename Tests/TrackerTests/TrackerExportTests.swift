import Foundation
import Testing
import TestSupport
import Tracker

/// `tracker export` (requirement 8): everything or one project, JSON and CSV read back and
/// compared with what the commands show, photo references and never photo data, and a folder
/// that is written carefully.
@Suite struct TrackerExportTests {
    /// Two projects with miniatures, progress, recipes (one linked), photos; text that needs quoting.
    func populated() throws -> (TrackerLibrary, keep: String, other: String) {
        let t = try TrackerLibrary()
        let keep = try t.project("40k", army: "Ultramarines, 2nd Company", name: "The \"Fighting\" Second")
        let other = try t.project("aos", army: "Nighthaunt")
        let a = try t.mini(keep, "Captain", type: "character"), b = try t.mini(keep, "Intercessor\nSergeant", type: "troop")
        let c = try t.mini(other, "Spirit Host", type: "troop")
        _ = try t.object(["mini", "update", a, "--progress", "primed"])
        let r = try t.object(["recipe", "add", "--name", "Blue", "--type", "character", "--step", "Prime, then \"zenithal\"",
                              "--step", "Base", "--paint", "Macragge Blue", "--technique", "wash"])["id"] as! String
        _ = try t.object(["recipe", "add", "--name", "Ghostly green", "--type", "troop"])
        _ = try t.object(["recipe", "link", r, a])
        for (m, f) in [(a, "kite.jpg"), (b, "coffee.jpg"), (c, "rocket.jpg")] { _ = try t.photo(m, TrackerLibrary.testPhoto(f).path) }
        return (t, keep, other)
    }

    func csvTables(_ folder: URL) throws -> [String: [[String: String]]] {
        var out: [String: [[String: String]]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".csv") {
            let rows = CSV.parse(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
            out[name] = rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(rows[0], $0)) }
        }
        return out
    }

    @Test func req8_1_8_2_8_5_jsonAndCSVExportsReadBackToWhatTheCommandsShow() throws {
        let (t, _, _) = try populated()
        let jsonDir = t.outside.appendingPathComponent("export-json"), csvDir = t.outside.appendingPathComponent("export-csv")
        let written = try t.object(["export", "--format", "json", "-o", jsonDir.path])
        #expect(Set(written.keys) == ["to", "format", "files", "projects", "miniatures", "recipes", "photos"])
        #expect(written["files"] as? [String] == [jsonDir.appendingPathComponent("tracker.json").path])
        let doc = try JSONSerialization.jsonObject(with: Data(contentsOf: jsonDir.appendingPathComponent("tracker.json"))) as! [String: Any]
        let projects = try t.array(["project", "list"]), minis = try t.array(["mini", "list"]), recipes = try t.array(["recipe", "list"])
        func same(_ a: Any?, _ b: [[String: Any]]) -> Bool { (a as? NSArray) == (b as NSArray) }
        #expect(same(doc["projects"], projects) && same(doc["miniatures"], minis) && same(doc["recipes"], recipes))
        let photos = doc["photos"] as! [[String: Any]]
        #expect(photos.count == 3)
        for p in photos {
            // A reference (id and path relative to the library) that resolves; never the data.
            #expect(Set(p.keys) == ["id", "mini_id", "file", "taken_at", "added_at", "sha256"])
            #expect(try sha256(t.root.appendingPathComponent(p["file"] as! String)) == p["sha256"] as! String)
        }
        #expect(try Data(contentsOf: jsonDir.appendingPathComponent("tracker.json")).count < 20_000, "photo data embedded?")

        _ = try t.object(["export", "--format", "csv", "-o", csvDir.path])
        let csv = try csvTables(csvDir)
        #expect(Set(csv.keys) == ["projects.csv", "miniatures.csv", "progress_history.csv", "recipes.csv", "recipe_items.csv",
                                  "recipe_links.csv", "photos.csv"])
        // Every table read back equals the JSON export, field for field.
        #expect(csv["projects.csv"]!.map { $0["army"]! } == projects.map { $0["army"] as! String })
        #expect(csv["projects.csv"]!.contains { $0["name"] == "The \"Fighting\" Second" && $0["army"] == "Ultramarines, 2nd Company" })
        for (row, m) in zip(csv["miniatures.csv"]!, minis) {
            for key in ["id", "project_id", "name", "type", "progress"] { #expect(row[key] == m[key] as? String, "\(key)") }
            let history = csv["progress_history.csv"]!.filter { $0["mini_id"] == m["id"] as? String }
            #expect(history.map { ["progress": $0["progress"]!, "at": $0["at"]!] } == m["history"] as? [[String: String]])
            #expect(csv["recipe_links.csv"]!.filter { $0["mini_id"] == m["id"] as? String }.map { $0["recipe_id"]! } == m["recipe_ids"] as? [String])
            #expect(csv["photos.csv"]!.filter { $0["mini_id"] == m["id"] as? String }.map { $0["id"]! } == m["photo_ids"] as? [String])
        }
        let blue = recipes.first { $0["name"] as? String == "Blue" }!
        let items = csv["recipe_items.csv"]!.filter { $0["recipe_id"] == blue["id"] as? String }
        #expect(items.filter { $0["kind"] == "step" }.map { $0["text"]! } == blue["steps"] as? [String])
        #expect(items.filter { $0["kind"] == "paint" }.map { $0["text"]! } == blue["paints"] as? [String])
        for (row, p) in zip(csv["photos.csv"]!, photos) {
            #expect(row["file"] == p["file"] as? String && row["sha256"] == p["sha256"] as? String && row["id"] == p["id"] as? String)
        }
    }

    @Test func req8_3_oneProjectExportsOnlyItsOwn() throws {
        let (t, keep, other) = try populated()
        let dir = t.outside.appendingPathComponent("one")
        let r = try t.object(["export", "--project", String(keep.prefix(8)), "--format", "json", "-o", dir.path])
        #expect(r["projects"] as? Int == 1 && r["miniatures"] as? Int == 2 && r["photos"] as? Int == 2 && r["recipes"] as? Int == 1)
        let doc = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("tracker.json"))) as! [String: Any]
        #expect((doc["projects"] as! [[String: Any]]).map { $0["id"] as! String } == [keep])
        #expect((doc["miniatures"] as! [[String: Any]]).allSatisfy { $0["project_id"] as? String == keep })
        let csvDir = t.outside.appendingPathComponent("one-csv")
        _ = try t.object(["export", "--project", other, "--format", "csv", "-o", csvDir.path])
        #expect(try csvTables(csvDir)["miniatures.csv"]!.map { $0["name"]! } == ["Spirit Host"])
        #expect(try t.fails(["export", "--project", "nope-nope", "--format", "csv", "-o", t.outside.appendingPathComponent("x").path]).status == 1)
    }

    @Test func req8_exportNeverClobbersFollowsLinksOrWritesIntoTheLibrary() throws {
        let (t, _, _) = try populated()
        #expect(try t.fails(["export", "--format", "xml", "-o", t.outside.path + "/x"]).status == 2)
        #expect(try t.fails(["export", "--format", "json"]).status == 2)
        // Inside the library: refused, nothing made.
        let inside = try t.fails(["export", "--format", "json", "-o", t.root.appendingPathComponent("Exports").path])
        #expect(inside.status == 1 && inside.stderrLines.count == 1 && !FileManager.default.fileExists(atPath: t.root.appendingPathComponent("Exports").path))
        // A folder holding one of the names, or a link there: refused, nothing replaced or followed.
        let dir = t.outside.appendingPathComponent("busy")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let victim = t.outside.appendingPathComponent("victim.txt")
        try Data("keep me".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("photos.csv"), withDestinationURL: victim)
        let r = try t.fails(["export", "--format", "csv", "-o", dir.path])
        #expect(r.status == 1 && r.stderrLines.count == 1 && r.stderr.contains("photos.csv"), "\(r.stderr)")
        #expect(try Data(contentsOf: victim) == Data("keep me".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["photos.csv"])
        // A link to the library as DIR is inside it too.
        let link = t.outside.appendingPathComponent("to-library")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: t.root)
        #expect(try t.fails(["export", "--format", "json", "-o", link.path]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: t.root.appendingPathComponent("tracker.json").path))
    }
}
