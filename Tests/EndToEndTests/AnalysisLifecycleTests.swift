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
