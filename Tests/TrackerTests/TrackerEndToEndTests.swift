// `shoebox tracker` through the built binary, one test per acceptance criterion of brief 002
// that has a meaning here (the number is in each test's name).
//
// Criteria that are iOS-only, with SPEC's mapping ("Tracker (002)", the iOS-notion table):
// - 5.1–5.5 camera permission, capture UI, camera unavailable → "camera → file, library asset or
//   phone capture": photos come from a file or a library asset (`photo add MINI FILE|ASSET`,
//   TrackerPhotoTests); phone capture is the web app's (`serve --lan`), not this module.
// - 6.1, 6.2, 6.4 photo-library permission and the picker → assets named by id or path on the
//   command line; an unreadable file is one line naming it and the fix (`chmod`).
// - 7.1 Core Data → JSON files in Tracker/ (every test here reads them back in a new process);
//   7.3, 7.5 offline / no servers → the module has no network code at all.
// - 8.4 share sheet → `export -o DIR`, a folder the user names outside the library.
// - 10.1–10.5 SwiftUI, navigation, swipe-to-delete, loading states → the web app (another issue);
//   the CLI's `rm` commands and one-line messages here.
// - 11.1–11.5 permission prompts and Settings → "permission denied: say which, and the command
//   that fixes it" (TrackerFailureTests.req9_2_permissionFailure…).
// - 12.4, 12.5 loading indicators and iOS alerts → one clear line on stderr and a non-zero exit.
// 9.4 (termination keeps saved data) is `bench/faults.py`'s tracker operation (kill -9 during writes).
import Foundation
import Testing
import TestSupport

@Suite struct TrackerEndToEndTests {
    @Test func req1_1_and_1_5_projectsNeedAKnownGameSystemAndAnArmy() throws {
        let t = try TrackerLibrary()
        // What the parser sees is bad usage (exit 2); values the tracker checks are exit 1, one line.
        #expect(try t.fails(["project", "add", "--army", "Orks"]).status == 2)
        #expect(try t.fails(["project", "add", "--game-system", "40k"]).status == 2)
        for (system, army) in [("Necromunda", "Orks"), ("", "Orks"), ("Warhammer 40K", ""), ("aos", "   ")] {
            let r = try t.fails(["project", "add", "--game-system", system, "--army", army])
            #expect(r.status == 1 && r.stderrLines.count == 1, "\(system)/\(army): \(r.status) \(r.stderr)")
        }
        #expect(try t.fails(["project", "add", "--game-system", "Necromunda", "--army", "Orks"]).stderr.contains("Age of Sigmar"))
        #expect(t.storeBytes() == nil, "a refused project wrote the store")
        // 1.5: the three systems, as named and in short forms.
        for (text, system) in [("Age of Sigmar", "Age of Sigmar"), ("40k", "Warhammer 40K"), ("horus heresy", "Horus Heresy")] {
            let p = try t.object(["project", "add", "--game-system", text, "--army", "Army"])
            #expect(p["game_system"] as? String == system)
            #expect(Set(p.keys) == ["id", "game_system", "army", "name", "created_at"])
            #expect(p["name"] is NSNull)
            // $SHOEBOX_NOW's instant, in local time with its offset.
            let created = (p["created_at"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }
            #expect(created == ISO8601DateFormatter().date(from: "2026-11-22T10:15:03Z"))
        }
    }

    @Test func req1_2_projectListIsGroupedByGameSystemThenArmy() throws {
        let t = try TrackerLibrary()
        for (s, a) in [("hh", "Sons of Horus"), ("40k", "Ultramarines"), ("aos", "Stormcast Eternals"), ("40k", "Orks"),
                       ("aos", "Nighthaunt"), ("hh", "Imperial Fists")] {
            _ = try t.project(s, army: a)
        }
        let list = try t.array(["project", "list"])
        #expect(list.map { $0["army"] as! String } == ["Nighthaunt", "Stormcast Eternals", "Orks", "Ultramarines", "Imperial Fists", "Sons of Horus"])
        #expect(list.map { $0["game_system"] as! String } == ["Age of Sigmar", "Age of Sigmar", "Warhammer 40K", "Warhammer 40K", "Horus Heresy", "Horus Heresy"])
    }

    @Test func req1_3_projectUpdatesPersistAtOnce() throws {
        let t = try TrackerLibrary()
        let id = try t.project(army: "Ultramarines", name: "Old")
        let updated = try t.object(["project", "update", String(id.prefix(8)), "--army", "Blood Angels", "--name", "New"])
        #expect(updated["army"] as? String == "Blood Angels" && updated["name"] as? String == "New")
        // A new process reads it from disk.
        let shown = try t.object(["project", "show", id])
        #expect(shown["army"] as? String == "Blood Angels" && shown["name"] as? String == "New")
        #expect(try t.fails(["project", "update", id]).status == 2)
        let before = t.storeBytes()
        #expect(try t.fails(["project", "update", id, "--army", ""]).status == 1)
        #expect(try t.fails(["project", "update", "ffffffff", "--army", "X"]).status == 1)
        #expect(t.storeBytes() == before)
        #expect(try t.object(["project", "update", id, "--name", ""])["name"] is NSNull)
    }

    @Test func req2_1_and_2_5_miniaturesNeedANameAndATroopOrCharacterType() throws {
        let t = try TrackerLibrary()
        let p = try t.project()
        #expect(try t.fails(["mini", "add", p, "--name", "Tank", "--type", "vehicle"]).status == 2)
        #expect(try t.fails(["mini", "add", p, "--type", "troop"]).status == 2)
        for bad in [["mini", "add", p, "--name", " ", "--type", "troop"], ["mini", "add", "no-such-project", "--name", "X", "--type", "troop"]] {
            let r = try t.fails(bad)
            #expect(r.status == 1 && r.stderrLines.count == 1, "\(bad): \(r.stderr)")
        }
        let m = try t.object(["mini", "add", p, "--name", "Intercessor", "--type", "troop"])
        #expect(Set(m.keys) == ["id", "project_id", "name", "type", "progress", "history", "recipe_ids", "photo_ids"])
        #expect(m["type"] as? String == "troop" && m["progress"] as? String == "unpainted" && m["project_id"] as? String == p)
        _ = try t.mini(p, "Chaplain", type: "character")
        #expect(try t.array(["mini", "list", "--project", p]).map { $0["type"] as! String } == ["troop", "character"])
    }

    @Test func req2_2_and_2_3_progressUpdatesAreRecordedWithTheirTime() throws {
        let t = try TrackerLibrary()
        let m = try t.mini(try t.project())
        let stages = ["primed", "basecoated", "detailed", "completed"]
        for (i, stage) in stages.enumerated() {
            _ = try t.object(["mini", "update", m, "--progress", stage], env: ["SHOEBOX_NOW": "2026-12-0\(i + 1)T12:00:00Z"])
        }
        let shown = try t.object(["mini", "show", m])
        #expect(shown["progress"] as? String == "completed")
        let history = shown["history"] as? [[String: String]] ?? []
        #expect(history.map { $0["progress"]! } == ["unpainted"] + stages)
        let at = history.dropFirst().map { ISO8601DateFormatter().date(from: $0["at"]!) }
        #expect(at == (1...4).map { ISO8601DateFormatter().date(from: "2026-12-0\($0)T12:00:00Z") })
        #expect(try t.fails(["mini", "update", m, "--progress", "varnished"]).status == 2)
        #expect(try t.fails(["mini", "update", m]).status == 2)
        // A rename keeps the history.
        let renamed = try t.object(["mini", "update", m, "--name", "Captain Titus"])
        #expect(renamed["name"] as? String == "Captain Titus" && (renamed["history"] as? [Any])?.count == 5)
    }

    @Test func req3_1_to_3_4_recipesAreStructuredFilterableLinkableAndIndependent() throws {
        let t = try TrackerLibrary()
        #expect(try t.fails(["recipe", "add", "--name", ""]).status == 1)
        #expect(try t.fails(["recipe", "add", "--step", "x"]).status == 2)
        #expect(try t.fails(["recipe", "add", "--name", "X", "--type", "monster"]).status == 2)
        let r = try t.object(["recipe", "add", "--name", "Ultramarine blue", "--type", "troop", "--step", "Prime black",
                              "--step", "Basecoat Macragge Blue, two thin coats", "--paint", "Macragge Blue", "--paint", "Nuln Oil",
                              "--technique", "edge highlight"])
        #expect(Set(r.keys) == ["id", "name", "type", "steps", "paints", "techniques"])
        #expect(r["steps"] as? [String] == ["Prime black", "Basecoat Macragge Blue, two thin coats"])
        #expect(r["paints"] as? [String] == ["Macragge Blue", "Nuln Oil"] && r["techniques"] as? [String] == ["edge highlight"])
        // 3.4: updated on its own; a list given replaces that list whole.
        let rid = r["id"] as! String
        let changed = try t.object(["recipe", "update", rid, "--step", "Prime grey", "--step", "Contrast paint", "--no-type"])
        #expect(changed["steps"] as? [String] == ["Prime grey", "Contrast paint"] && changed["type"] is NSNull)
        #expect(changed["paints"] as? [String] == ["Macragge Blue", "Nuln Oil"] && changed["name"] as? String == "Ultramarine blue")
        #expect(try t.fails(["recipe", "update", rid]).status == 2)
        #expect(try t.fails(["recipe", "update", rid, "--type", "troop", "--no-type"]).status == 2)
        #expect(try t.fails(["recipe", "update", rid, "--name", " "]).status == 1)
        _ = try t.object(["recipe", "update", rid, "--type", "troop"])
        let gold = try t.object(["recipe", "add", "--name", "Gold trim", "--type", "character"])["id"] as! String
        let untyped = try t.object(["recipe", "add", "--name", "Bases"])
        #expect(untyped["type"] is NSNull)
        // 3.3: only the recipes of that type.
        #expect(try t.array(["recipe", "list", "--type", "character"]).map { $0["id"] as! String } == [gold])
        #expect(try t.array(["recipe", "list", "--type", "troop"]).map { $0["id"] as! String } == [r["id"] as! String])
        #expect(try t.array(["recipe", "list"]).count == 3)
        // Links keep integrity: both ends must exist; deleting the recipe unlinks it.
        let p = try t.project()
        let m = try t.mini(p)
        #expect((try t.object(["recipe", "link", gold, m])["recipe_ids"] as? [String]) == [gold])
        for bad in [["recipe", "link", "0000000000", m], ["recipe", "link", gold, "0000000000"]] {
            let f = try t.fails(bad)
            #expect(f.status == 1 && f.stderrLines.count == 1)
        }
        #expect((try t.object(["recipe", "unlink", gold, m])["recipe_ids"] as? [String]) == [])
        _ = try t.object(["recipe", "link", gold, m])
        let removed = try t.object(["recipe", "rm", gold])
        #expect(removed["miniature_ids"] as? [String] == [m])
        #expect((try t.object(["mini", "show", m])["recipe_ids"] as? [String]) == [])
        // 3.4: independent of projects — deleting the project leaves the recipes.
        _ = try t.object(["project", "rm", p])
        #expect(try t.array(["recipe", "list"]).count == 2)
    }

    @Test func req9_5_aVersion1FileIsMigrated() throws {
        let t = try TrackerLibrary()
        try FileManager.default.createDirectory(at: t.photosURL, withIntermediateDirectories: true)
        let photo = "0b6c9f4e-2a57-4c1e-9d3a-5f3f4c1d2e10"
        try FileManager.default.copyItem(at: TrackerLibrary.testPhoto("kite.jpg"), to: t.photosURL.appendingPathComponent("\(photo).jpg"))
        let v1 = """
            {"schema_version": 1,
             "projects": [{"id": "9d7e0c52-1111-4d2e-8a51-0f6c3a1b2c3d", "game_system": "Age of Sigmar", "army": "Stormcast", "name": null, "created_at": "2025-01-02T03:04:05Z"}],
             "miniatures": [{"id": "5e4d3c2b-2222-4a1b-9c8d-7e6f5a4b3c2d", "project_id": "9d7e0c52-1111-4d2e-8a51-0f6c3a1b2c3d", "name": "Liberator", "type": "troop", "progress": "primed", "progress_updated_at": "2025-02-01T10:00:00Z"}],
             "recipes": [{"id": "7a6b5c4d-3333-4e2f-8a9b-1c2d3e4f5a6b", "name": "Gold", "steps": ["Retributor Armour"], "paints": ["Retributor Armour"], "techniques": [], "miniature_ids": ["5e4d3c2b-2222-4a1b-9c8d-7e6f5a4b3c2d"]}],
             "photos": [{"id": "\(photo)", "mini_id": "5e4d3c2b-2222-4a1b-9c8d-7e6f5a4b3c2d", "file": "Tracker/photos/\(photo).jpg", "taken_at": null, "added_at": "2025-02-01T11:00:00Z", "sha256": "x"}]}
            """
        try Data(v1.utf8).write(to: t.storeURL)
        let m = try t.object(["mini", "show", "5e4d3c2b"])
        #expect(m["history"] as? [[String: String]] == [["progress": "primed", "at": "2025-02-01T10:00:00Z"]])
        #expect(m["recipe_ids"] as? [String] == ["7a6b5c4d-3333-4e2f-8a9b-1c2d3e4f5a6b"] && m["photo_ids"] as? [String] == [photo])
        #expect(try t.array(["recipe", "list"]).first?["type"] is NSNull)
        // Reading does not rewrite it; the next change writes version 2 with everything kept.
        #expect(t.storeBytes() == Data(v1.utf8))
        _ = try t.object(["mini", "update", "5e4d3c2b", "--progress", "basecoated"])
        let stored = try JSONSerialization.jsonObject(with: t.storeBytes() ?? Data()) as? [String: Any] ?? [:]
        #expect(stored["schema_version"] as? Int == 2)
        #expect((stored["miniatures"] as? [[String: Any]])?.first?["recipe_ids"] as? [String] == ["7a6b5c4d-3333-4e2f-8a9b-1c2d3e4f5a6b"])
        #expect(try t.array(["photo", "list", "5e4d3c2b"]).count == 1)
        #expect(FileManager.default.fileExists(atPath: t.photosURL.appendingPathComponent("\(photo).jpg").path))
    }
}
