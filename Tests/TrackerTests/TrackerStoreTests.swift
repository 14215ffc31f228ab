import Foundation
import PhotoLibrary
import Testing
@testable import Tracker

/// The tracker's pure parts: validation, ordering, cascades, links, the file's versions and
/// integrity, CSV — fast, no binary, no disk.
@Suite struct TrackerStoreTests {
    let now = "2026-11-22T10:15:03Z"

    func sample() throws -> (TrackerData, Project, Miniature, Recipe) {
        var d = TrackerData()
        let p = try d.addProject(gameSystem: "Warhammer 40K", army: "Ultramarines", name: "Strike force", at: now)
        let m = try d.addMini(project: p.id, name: "Captain", type: .character, at: now)
        let r = try d.addRecipe(name: "Blue armour", type: .character, steps: ["Prime", "Base \"Macragge\", thin"], paints: ["Macragge Blue"], techniques: ["layering"])
        _ = try d.link(recipe: r.id, mini: m.id, linked: true)
        return (d, p, m, r)
    }

    @Test func req1_1_projectNeedsGameSystemAndArmy() throws {
        var d = TrackerData()
        #expect(throws: ShoeboxError.self) { try d.addProject(gameSystem: "", army: "Orks", name: nil, at: now) }
        #expect(throws: ShoeboxError.self) { try d.addProject(gameSystem: "40k", army: "  ", name: nil, at: now) }
        #expect(throws: ShoeboxError.self) { try d.addProject(gameSystem: "Necromunda", army: "Orks", name: nil, at: now) }
        #expect(d.projects.isEmpty)
        // Requirement 1.5: the three systems, by name in any case or a short form.
        for text in ["Age of Sigmar", "warhammer 40k", "HORUS HERESY", "aos", "40k", "hh"] {
            #expect(GameSystem(userText: text) != nil, "\(text)")
        }
    }

    @Test func req1_2_projectsOrderedByGameSystemThenArmy() throws {
        var d = TrackerData()
        for (s, a) in [("hh", "Sons of Horus"), ("40k", "Ultramarines"), ("aos", "Stormcast"), ("40k", "Orks"), ("aos", "Nighthaunt")] {
            _ = try d.addProject(gameSystem: s, army: a, name: nil, at: now)
        }
        #expect(d.projectsInOrder.map(\.army) == ["Nighthaunt", "Stormcast", "Orks", "Ultramarines", "Sons of Horus"])
    }

    @Test func req2_2_progressHistoryKeepsEveryStageWithItsTime() throws {
        var (d, _, m, _) = try sample()
        _ = try d.updateMini(m.id, progress: .primed, name: nil, at: "2026-11-23T09:00:00Z")
        let after = try d.updateMini(String(m.id.prefix(8)), progress: .basecoated, name: nil, at: "2026-11-24T09:00:00Z")
        #expect(after.progress == .basecoated)
        #expect(after.history == [ProgressStep(progress: .unpainted, at: now), ProgressStep(progress: .primed, at: "2026-11-23T09:00:00Z"),
                                  ProgressStep(progress: .basecoated, at: "2026-11-24T09:00:00Z")])
        #expect(throws: ShoeboxError.self) { try d.updateMini(m.id, progress: nil, name: " ", at: now) }
    }

    @Test func req1_4_and_2_4_cascadesDropMinisAndPhotos() throws {
        var (d, p, m, _) = try sample()
        let other = try d.addMini(project: p.id, name: "Sergeant", type: .troop, at: now)
        for mini in [m, other] {
            try d.addPhoto(TrackerPhoto(id: TrackerData.newID(), mini_id: mini.id, file: "Tracker/photos/x.jpg", taken_at: nil, added_at: now, sha256: ""))
        }
        let (_, dropped) = try d.removeMini(other.id)
        #expect(dropped.count == 1 && d.photos.count == 1)
        let (_, all) = try d.removeProject(p.id)
        #expect(all.count == 1 && d.photos.isEmpty && d.miniatures.isEmpty && d.recipes.count == 1)
    }

    @Test func req3_4_deletingARecipeUnlinksIt_andLinksNeedBothEnds() throws {
        var (d, _, m, r) = try sample()
        #expect(d.miniatures[0].recipe_ids == [r.id])
        #expect(throws: ShoeboxError.self) { try d.link(recipe: "nope-nope", mini: m.id, linked: true) }
        #expect(throws: ShoeboxError.self) { try d.link(recipe: r.id, mini: "nope-nope", linked: true) }
        _ = try d.link(recipe: r.id, mini: m.id, linked: true)
        #expect(d.miniatures[0].recipe_ids == [r.id])
        _ = try d.removeRecipe(r.id)
        #expect(d.miniatures[0].recipe_ids.isEmpty)
    }

    @Test func req9_5_fileRoundTripsAndVersion1Migrates() throws {
        let (d, _, _, _) = try sample()
        let (back, version) = try TrackerFile.decode(TrackerFile.encode(d))
        #expect(back == d && version == 2)
        let v1 = """
            {"schema_version": 1,
             "projects": [{"id": "p1", "game_system": "Age of Sigmar", "army": "Stormcast", "name": null, "created_at": "2025-01-02T03:04:05Z"}],
             "miniatures": [{"id": "m1", "project_id": "p1", "name": "Liberator", "type": "troop", "progress": "primed", "progress_updated_at": "2025-02-01T10:00:00Z"}],
             "recipes": [{"id": "r1", "name": "Gold", "steps": ["Retributor"], "paints": [], "techniques": [], "miniature_ids": ["m1"]}],
             "photos": [{"id": "f1", "mini_id": "m1", "file": "Tracker/photos/f1.jpg", "taken_at": null, "added_at": "2025-02-01T11:00:00Z", "sha256": "ab"}]}
            """
        let (migrated, old) = try TrackerFile.decode(Data(v1.utf8))
        #expect(old == 1)
        #expect(migrated.miniatures[0].history == [ProgressStep(progress: .primed, at: "2025-02-01T10:00:00Z")])
        #expect(migrated.miniatures[0].recipe_ids == ["r1"] && migrated.miniatures[0].photo_ids == ["f1"])
        #expect(migrated.recipes[0].type == nil)
    }

    @Test func req9_2_damagedOrNewerFilesAreOneLine() throws {
        for bad in ["", "{", "[]", "{\"schema_version\": 3}", "{\"schema_version\": 0}", "{\"schema_version\": 2}",
                    "{\"schema_version\": 2, \"projects\": [{\"id\": \"a\"}], \"miniatures\": [], \"recipes\": [], \"photos\": []}",
                    "{\"schema_version\": 2, \"projects\": [], \"miniatures\": [{\"id\":\"m\",\"project_id\":\"p\",\"name\":\"x\",\"type\":\"tank\",\"progress\":\"primed\",\"history\":[],\"recipe_ids\":[],\"photo_ids\":[]}], \"recipes\": [], \"photos\": []}"] {
            do {
                _ = try TrackerFile.decode(Data(bad.utf8))
                Issue.record("\(bad) decoded")
            } catch let e as ShoeboxError {
                #expect(!e.description.contains("\n") && e.description.contains("Tracker/tracker.json"), "\(e)")
            }
        }
        #expect(throws: ShoeboxError.self) { try TrackerFile.decode(Data([0xFF, 0xFE])) }
    }

    @Test func req9_3_integrityFindingsAreSaidAndLinksRepaired() throws {
        var (d, _, m, _) = try sample()
        d.miniatures[0].recipe_ids.append("gone")
        d.miniatures[0].photo_ids = ["ghost"]
        d.miniatures.append(Miniature(id: "orphan", project_id: "missing", name: "Lost", type: .troop, progress: .unpainted,
                                      history: [ProgressStep(progress: .unpainted, at: now)], recipe_ids: [], photo_ids: []))
        d.photos.append(TrackerPhoto(id: "evil", mini_id: m.id, file: "Tracker/photos/../../etc/passwd", taken_at: nil, added_at: now, sha256: ""))
        let r = TrackerIntegrity.check(d)
        #expect(r.repaired)
        #expect(r.problems.count == 4, "\(r.problems)")
        #expect(r.data.miniatures[0].recipe_ids.count == 1 && r.data.miniatures[0].photo_ids == ["evil"])
        // Nothing the user made is dropped on its own.
        #expect(r.data.miniatures.count == 2 && r.data.photos.count == 1)
        for bad in ["Tracker/photos/../x.jpg", "/etc/passwd", "Tracker/photos/.hidden", "Tracker/x.jpg", "Tracker/photos/a/b.jpg", "Tracker/photos/"] {
            #expect(!TrackerIntegrity.isPhotoFile(bad), "\(bad)")
        }
        #expect(TrackerIntegrity.isPhotoFile("Tracker/photos/0b2f.jpg"))
    }

    @Test func req8_5_csvQuotingFollowsRFC4180AndReadsBack() throws {
        let rows = [["a", "b,c", "say \"hi\""], ["multi\nline", "", "x\r\ny"]]
        let text = CSV.table(rows)
        #expect(text == "a,\"b,c\",\"say \"\"hi\"\"\"\r\n\"multi\nline\",,\"x\r\ny\"\r\n")
        #expect(CSV.parse(text) == rows)
    }

    @Test func req4_3_photosOrderByCaptureTimeElseTimeAdded() throws {
        var (d, _, m, _) = try sample()
        let photos = [("a", "2024-05-01T10:00:00Z", "2026-01-01T00:00:00Z"), ("b", nil, "2024-06-01T00:00:00Z"),
                      ("c", "2023-01-01T00:00:00", "2026-01-02T00:00:00Z"), ("d", nil, "2022-01-01T00:00:00Z")]
        for (id, taken, added) in photos {
            try d.addPhoto(TrackerPhoto(id: id, mini_id: m.id, file: "Tracker/photos/\(id).jpg", taken_at: taken, added_at: added, sha256: ""))
        }
        #expect(d.photos(ofMini: m.id).map(\.id) == ["d", "c", "a", "b"])
    }
}
