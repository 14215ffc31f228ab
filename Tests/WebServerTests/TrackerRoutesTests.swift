import Foundation
import Testing
import TestSupport

/// The painting tracker through HTTP (the `/tracker` pages' calls), checked through
/// `shoebox tracker … --json` and the files on the same library: what the page does is what the
/// command does, and the commands see it.
@Suite(.serialized) struct TrackerRoutesTests {
    typealias Object = [String: Any]

    static func object(_ reply: ServedLibrary.Reply) throws -> Object {
        try #require(try reply.json() as? Object, "not an object: \(reply.status) \(reply.text)")
    }

    static func tracker(_ cli: ShoeboxCLI, _ args: [String]) throws -> Any { try cli.json(["tracker"] + args) }

    @Test func projectsMinisAndRecipesAreTheCommandsRecords() throws {
        let cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        let served = try ServedLibrary(cli)
        let created = try served.post("/api/tracker/projects", ["game_system": "40k", "army": "Ultramarines", "name": "Strike force"])
        #expect(created.status == 201)
        let project = try Self.object(created)
        #expect(project["game_system"] as? String == "Warhammer 40K", "\"40k\" is read as the command reads it")
        let listed = try #require(try Self.tracker(cli, ["project", "list"]) as? [Object])
        #expect(listed.map { $0["id"] as? String } == [project["id"] as? String])
        #expect((try served.json("/api/tracker/projects") as? [Object])?.first?["army"] as? String == "Ultramarines")

        // Refusals name their field (the page marks that input) in the tracker's words.
        let empty = try served.post("/api/tracker/projects", ["game_system": "Age of Sigmar", "army": "  "])
        #expect(empty.status == 400)
        #expect(try Self.object(empty)["field"] as? String == "army")
        #expect(empty.text.contains("a project needs a non-empty army"))
        let unknown = try served.post("/api/tracker/projects", ["game_system": "Kill Team", "army": "Kommandos"])
        #expect(unknown.status == 400)
        #expect(try Self.object(unknown)["field"] as? String == "game_system")
        #expect(unknown.text.contains("is not a game system Shoebox knows"))
        #expect((try Self.tracker(cli, ["project", "list"]) as? [Any])?.count == 1, "nothing made by a refusal")

        let pid = try #require(project["id"] as? String)
        let mini = try Self.object(try served.post("/api/tracker/minis", ["project": pid, "name": "Captain", "type": "character"]))
        let mid = try #require(mini["id"] as? String)
        _ = try served.post("/api/tracker/minis", ["project": pid, "name": "Intercessor", "type": "troop"])
        let noName = try served.post("/api/tracker/minis", ["project": pid, "name": "", "type": "troop"])
        #expect(noName.status == 400)
        #expect(try Self.object(noName)["field"] as? String == "name")
        #expect(try served.post("/api/tracker/minis", ["project": pid, "name": "X", "type": "vehicle"]).status == 400)
        for stage in ["primed", "basecoated"] {
            #expect(try served.post("/api/tracker/minis/\(mid)/update", ["progress": stage]).status == 200)
        }
        let shown = try #require(try Self.tracker(cli, ["mini", "show", mid]) as? Object)
        #expect((shown["history"] as? [Object])?.compactMap { $0["progress"] as? String } == ["unpainted", "primed", "basecoated"])
        #expect((try served.json("/api/tracker/minis?project=\(pid)") as? [Any])?.count == 2)

        let recipe = try Self.object(try served.post("/api/tracker/recipes", [
            "name": "Blue armour", "type": "troop", "steps": ["Prime grey", "Basecoat blue"], "paints": ["Macragge Blue"], "techniques": []]))
        let rid = try #require(recipe["id"] as? String)
        let linked = try Self.object(try served.post("/api/tracker/recipes/\(rid)/link", ["mini": mid]))
        #expect(linked["recipe_ids"] as? [String] == [rid])
        #expect((try Self.tracker(cli, ["mini", "show", mid]) as? Object)?["recipe_ids"] as? [String] == [rid])
        let edited = try Self.object(try served.post("/api/tracker/recipes/\(rid)/update",
                                                     ["steps": ["Basecoat blue", "Prime grey", "Edge highlight"], "type": NSNull(), "paints": []]))
        #expect(edited["steps"] as? [String] == ["Basecoat blue", "Prime grey", "Edge highlight"], "steps in their new order")
        #expect(edited["type"] is NSNull && (edited["paints"] as? [Any])?.isEmpty == true, "null clears the type, [] empties a list")
        let blank = try served.post("/api/tracker/recipes/\(rid)/update", ["steps": ["One", " "]])
        #expect(blank.status == 400)
        #expect(try Self.object(blank)["field"] as? String == "steps")
        #expect(((try Self.tracker(cli, ["recipe", "show", rid]) as? Object)?["steps"] as? [String])?.count == 3, "a refused list changes nothing")
        _ = try served.post("/api/tracker/recipes", ["name": "Skin", "type": "character"])
        let troop = try #require(try served.json("/api/tracker/recipes?type=character") as? [Object])
        #expect(troop.map { $0["name"] as? String } == ((try Self.tracker(cli, ["recipe", "list", "--type", "character"])) as? [Object])?.map { $0["name"] as? String })
        let removed = try Self.object(try served.post("/api/tracker/recipes/\(rid)/delete", [:]))
        #expect(removed["removed"] as? String == "recipe" && removed["miniature_ids"] as? [String] == [mid])
        #expect(((try Self.tracker(cli, ["mini", "show", mid]) as? Object)?["recipe_ids"] as? [Any])?.isEmpty == true)
    }

    @Test func photosComeFromAFileOrTheLibraryByContentAndGoWithTheirProject() throws {
        let cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        let served = try ServedLibrary(cli)
        let pid = try #require(try Self.object(try served.post("/api/tracker/projects", ["game_system": "aos", "army": "Stormcast"]))["id"] as? String)
        let mid = try #require(try Self.object(try served.post("/api/tracker/minis", ["project": pid, "name": "Liberator", "type": "troop"]))["id"] as? String)
        let jpeg = try Data(contentsOf: TestRoll.repositoryRoot.appendingPathComponent("test-data/photos/kite.jpg"))
        let upload = try served.request("/api/tracker/minis/\(mid)/photos?name=kite.jpg", method: "POST", body: jpeg)
        #expect(upload.status == 201, "\(upload.text)")
        let photo = try Self.object(upload)
        let file = cli.library.appendingPathComponent(try #require(photo["file"] as? String))
        #expect(try Data(contentsOf: file) == jpeg, "the copy is the upload byte for byte")
        let picture = try served.request("/media/tracker/\(photo["id"] as! String)")
        #expect(picture.status == 200 && picture.body == jpeg && picture.headers["content-type"] == "image/jpeg")

        // Not an image: refused by content, in words, and nothing is left behind.
        let before = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path).sorted()
        let text = try served.request("/api/tracker/minis/\(mid)/photos?name=notes.jpg", method: "POST", body: Data("not a photo at all\n".utf8))
        #expect(text.status == 400 && text.text.contains("notes.jpg is not an image Shoebox recognises"), "\(text.text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path).sorted() == before)

        // From the library, by asset id: a HEIC, shown to the browser as a JPEG.
        let assets = try #require(try cli.json(["list"]) as? [Object])
        let heic = try #require(assets.first { $0["format"] as? String == "heic" })
        let picked = try served.post("/api/tracker/minis/\(mid)/photos/library", ["id": heic["id"]!])
        #expect(picked.status == 201, "\(picked.text)")
        let copy = try Self.object(picked)
        #expect(copy["sha256"] as? String == heic["sha256"] as? String)
        let shownHEIC = try served.request("/media/tracker/\(copy["id"] as! String)?size=256")
        #expect(shownHEIC.status == 200 && shownHEIC.headers["content-type"] == "image/jpeg" && shownHEIC.body.starts(with: [0xFF, 0xD8]))
        let listed = try #require(try Self.tracker(cli, ["photo", "list", mid]) as? [Object])
        #expect(Set(listed.compactMap { $0["id"] as? String }) == [photo["id"] as! String, copy["id"] as! String])
        #expect((try served.json("/api/tracker/minis/\(mid)/photos") as? [Object])?.map { $0["id"] as? String } == listed.map { $0["id"] as? String })

        let gone = try Self.object(try served.post("/api/tracker/photos/\(photo["id"] as! String)/delete", [:]))
        #expect(gone["files_removed"] as? [String] == [photo["file"] as! String])
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let heicFile = cli.library.appendingPathComponent(copy["file"] as! String)
        let project = try Self.object(try served.post("/api/tracker/projects/\(pid)/delete", [:]))
        #expect(project["photo_ids"] as? [String] == [copy["id"] as! String])
        #expect(!FileManager.default.fileExists(atPath: heicFile.path), "the project's photos' files go with it")
        #expect((try Self.tracker(cli, ["mini", "list"]) as? [Any])?.isEmpty == true)
    }

    @Test func idsAreCheckedAndAFullDiskIsSaidInWords() throws {
        let cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        let served = try ServedLibrary(cli)
        #expect(try served.request("/api/tracker/minis/..%2F..%2Fetc").status == 400)
        #expect(try served.request("/api/tracker/projects/0000").status == 400, "a prefix is the CLI's, not the web's")
        let missing = try served.request("/api/tracker/projects/\(UUID().uuidString.lowercased())")
        #expect(missing.status == 404 && missing.text.contains("no project"))
        #expect(try served.request("/media/tracker/\(UUID().uuidString)").status == 404)
        #expect(try served.request("/tracker/minis/nope").status == 400)
        #expect(try served.request("/tracker/recipes/new").status == 200)
        served.stop()

        let full = try ServedLibrary(cli, environment: ["SHOEBOX_TRACKER_TEST_FAIL": "store:ENOSPC"])
        let refused = try full.post("/api/tracker/projects", ["game_system": "Horus Heresy", "army": "Sons of Horus"])
        #expect(refused.status == 507 && refused.text.contains("is full"), "\(refused.text)")
        #expect((try Self.tracker(cli, ["project", "list"]) as? [Any])?.isEmpty == true)
    }

    @Test func theExportDownloadsAreTheCommandsFiles() throws {
        let cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        let served = try ServedLibrary(cli)
        let pid = try #require(try Self.object(try served.post("/api/tracker/projects", ["game_system": "hh", "army": "Sons of Horus", "name": "Justaerin"]))["id"] as? String)
        _ = try served.post("/api/tracker/minis", ["project": pid, "name": "Terminator, \"the first\"", "type": "troop"])
        _ = try served.post("/api/tracker/projects", ["game_system": "aos", "army": "Nighthaunt"])
        let json = try served.request("/api/tracker/export?format=json&project=\(pid)")
        #expect(json.status == 200 && json.headers["content-disposition"]?.contains("attachment") == true)
        let doc = try #require(try json.json() as? Object)
        #expect((doc["projects"] as? [Object])?.map { $0["id"] as? String } == [pid])
        #expect((doc["miniatures"] as? [Object])?.count == 1)
        let all = try #require(try served.json("/api/tracker/export?format=json") as? Object)
        #expect((all["projects"] as? [Any])?.count == 2)
        #expect(try served.request("/api/tracker/export?format=xml").status == 400)

        let out = Scratch.root.appendingPathComponent("tracker-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        _ = try cli.json(["tracker", "export", "--format", "csv", "-o", out.path])
        let zip = try served.request("/api/tracker/export?format=csv")
        #expect(zip.status == 200 && zip.headers["content-type"] == "application/zip")
        let unzipped = out.appendingPathComponent("unzipped")
        try FileManager.default.createDirectory(at: unzipped, withIntermediateDirectories: true)
        let archive = out.appendingPathComponent("export.zip")
        try zip.body.write(to: archive)
        _ = try TestRoll.run("/usr/bin/unzip", ["-q", archive.path, "-d", unzipped.path])
        let names = try FileManager.default.contentsOfDirectory(atPath: unzipped.path).sorted()
        #expect(names == ["miniatures.csv", "photos.csv", "progress_history.csv", "projects.csv", "recipe_items.csv", "recipe_links.csv", "recipes.csv"])
        for name in names {
            #expect(try Data(contentsOf: unzipped.appendingPathComponent(name)) == Data(contentsOf: out.appendingPathComponent(name)), "\(name) as the command writes it")
        }
    }
}
