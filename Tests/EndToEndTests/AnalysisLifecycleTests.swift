import Foundation
import Testing
import TestSupport

/// What happens to an asset's analysis over its life, through the command line: a better
/// analyser re-runs on old results, a changed file gets new thumbnails (the old ones go), a
/// purged asset takes its thumbnails with it, a video gets a perceptual hash from its poster
/// frame, and a face can be named by its own id.
@Suite(.serialized) struct AnalysisLifecycleTests {
    static func thumbnails(_ cli: ShoeboxCLI, of id: String) throws -> [String] {
        let folder = cli.library.appendingPathComponent(".shoebox/thumbs/\(id.prefix(2))")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix(id + ".") }.sorted()
    }

    @Test func anOlderAnalysersResultIsAnalysedAgain() throws {
        let made = try TestRoll.make(seed: 35, count: 6, arguments: ["--no-heic"])
        let cli = try ShoeboxCLI.scanned(made)
        let first = try cli.json(["analyze"]) as! [String: Any]
        let total = first["analyzed"] as! Int
        #expect(total >= 6)
        // One sidecar says its analysis came from analyser version 0; the index follows the sidecars.
        let asset = try cli.assetsByPath().values.first { $0["kind"] as? String == "photo" }!
        let id = asset["id"] as! String
        let sidecar = cli.library.appendingPathComponent(".shoebox/sidecars/\(id).json")
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: sidecar)) as! [String: Any]
        var a = json["asset"] as! [String: Any], analysis = a["analysis"] as! [String: Any]
        analysis["version"] = 0
        analysis["phash"] = "0000000000000000"
        a["analysis"] = analysis; json["asset"] = a
        try JSONSerialization.data(withJSONObject: json).write(to: sidecar)
        #expect(try cli.run(["rebuild"]).status == 0)
        let second = try cli.json(["analyze"]) as! [String: Any]
        #expect(second["analyzed"] as? Int == 1, "\(second)")
        let shown = try cli.json(["show", id]) as! [String: Any]
        #expect(shown["phash"] as? String == asset["phash"] as? String, "the current analyser's hash is back")
        #expect((try cli.json(["analyze"]) as! [String: Any])["analyzed"] as? Int == 0)
    }

    /// A library analysed by the previous analyser (dlib's HOG, whose boxes stopped at the brows)
    /// is analysed again by the current one: every asset once, and what the user said stays —
    /// a name given to a person, a face forgotten.
    @Test func anUpgradedAnalyserKeepsTheUsersNamesAndForgottenFaces() throws {
        let made = try TestRoll.make(seed: 21, count: 60, arguments: ["--portraits", "0.5", "--no-heic"])
        let cli = try ShoeboxCLI.scanned(made)
        _ = try cli.json(["analyze"])
        let people = try cli.json(["people", "list"]) as! [[String: Any]]
        let ana = try #require(people.first { $0["name"] as? String == "Ana" })
        _ = try cli.json(["people", "name", ana["id"] as! String, "Ana Lima"])
        let tom = try #require(people.first { $0["name"] as? String == "Tom" })
        let forgotten = (tom["face"] as! [String: Any])["id"] as! String
        #expect(try cli.run(["people", "forget", forgotten]).status == 0)
        let before = try cli.assetsByPath(["--person", "Ana Lima"]).count
        // Every sidecar as the previous analyser left it: version 1, each face boxed as HOG did
        // (a smaller square from the brows down: IoU ~0.45 with the present box).
        let sidecars = cli.library.appendingPathComponent(".shoebox/sidecars")
        for name in try FileManager.default.contentsOfDirectory(atPath: sidecars.path) where name.hasSuffix(".json") {
            let url = sidecars.appendingPathComponent(name)
            var json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
            var asset = json["asset"] as! [String: Any]
            guard var analysis = asset["analysis"] as? [String: Any] else { continue }
            analysis["version"] = 1
            analysis["faces"] = (analysis["faces"] as? [[String: Any]] ?? []).map { face in
                var f = face
                let x = f["x"] as! Double, y = f["y"] as! Double, w = f["w"] as! Double, h = f["h"] as! Double
                f["x"] = x + 0.1 * w; f["w"] = 0.8 * w
                f["y"] = y + 0.35 * h; f["h"] = 0.6 * h
                return f
            }
            asset["analysis"] = analysis; json["asset"] = asset
            try JSONSerialization.data(withJSONObject: json).write(to: url)
        }
        #expect(try cli.run(["rebuild"]).status == 0)
        let total = try cli.assetsByPath().values.filter { $0["analyzed"] as? Bool == true }.count
        #expect(total == 0, "every asset waits for the new analyser")
        _ = try cli.json(["analyze"])
        #expect(try cli.assetsByPath().values.allSatisfy { $0["analyzed"] as? Bool == true })
        let after = try cli.json(["people", "list"]) as! [[String: Any]]
        #expect(after.filter { $0["name"] as? String == "Ana Lima" }.count == 1, "\(after)")
        #expect(try cli.assetsByPath(["--person", "Ana Lima"]).count == before)
        let assetID = String(forgotten.prefix { $0 != "#" })
        let faces = (try cli.json(["show", assetID]) as! [String: Any])["faces"] as? [[String: Any]] ?? []
        #expect(!faces.contains { $0["person"] as? String == tom["id"] as? String }, "the forgotten face came back: \(faces)")
    }

    @Test func aChangedFileGetsNewThumbnailsAndAPurgedOneTakesThemAlong() throws {
        let made = try TestRoll.make(seed: 36, count: 6, arguments: ["--no-heic"])
        let cli = try ShoeboxCLI.scanned(made)
        _ = try cli.json(["analyze"])
        let (path, asset) = try cli.assetsByPath().first { $0.value["format"] as? String == "jpeg" && $0.value["kind"] as? String == "photo" }!
        let id = asset["id"] as! String, oldSHA = asset["sha256"] as! String
        let before = try Self.thumbnails(cli, of: id)
        #expect(before.count == 2 && before.allSatisfy { $0.contains(oldSHA.prefix(16)) }, "\(before)")
        // An edit: the photo turned upside down and saved again, same path, same id.
        let url = made.root.appendingPathComponent(path)
        try TestRoll.run("/usr/bin/convert", [url.path, "-rotate", "180", "-quality", "85", url.path])
        #expect(try cli.run(["scan"]).status == 0)
        let changed = try cli.json(["show", id]) as! [String: Any]
        let newSHA = changed["sha256"] as! String
        #expect(newSHA != oldSHA && changed["analyzed"] as? Bool == false)
        #expect((try cli.json(["analyze"]) as! [String: Any])["analyzed"] as? Int == 1)
        let after = try Self.thumbnails(cli, of: id)
        #expect(after.count == 2 && after.allSatisfy { $0.contains(newSHA.prefix(16)) }, "old thumbnails left: \(after)")
        #expect((try cli.json(["show", id]) as! [String: Any])["phash"] as? String != asset["phash"] as? String)
        // Trashed, then purged 31 days later: its thumbnails go with it.
        #expect(try cli.run(["trash", id]).status == 0)
        #expect(try Self.thumbnails(cli, of: id).count == 2, "a trashed photo can come back: its thumbnails stay")
        let later = ISO8601DateFormatter().string(from: Date().addingTimeInterval(31 * 86400))
        let purge = try cli.run(["trash", "purge"], extraEnvironment: ["SHOEBOX_NOW": later])
        #expect(purge.status == 0, "\(purge.stderr)")
        #expect(try cli.run(["show", id]).status == 1)
        #expect(try Self.thumbnails(cli, of: id).isEmpty)
    }

    @Test func videosGetAPerceptualHashFromTheirPosterFrame() throws {
        let made = try TestRoll.make(seed: 37, count: 4, arguments: ["--no-heic", "--videos", "2"])
        let cli = try ShoeboxCLI.scanned(made)
        _ = try cli.json(["analyze"])
        let videos = try cli.assetsByPath().values.filter { $0["kind"] as? String == "video" }
        #expect(videos.count >= 2)
        for v in videos {
            let phash = v["phash"] as? String ?? ""
            #expect(v["analyzed"] as? Bool == true && phash.count == 16 && phash != "0000000000000000", "\(v["path"] ?? ""): \(phash)")
            #expect(try Self.thumbnails(cli, of: v["id"] as! String).count == 2)
        }
    }
}
