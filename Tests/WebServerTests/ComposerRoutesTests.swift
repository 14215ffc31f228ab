import Foundation
import Testing
import TestSupport

/// The composer through HTTP (the `/compose` page's calls), checked through `shoebox compose …
/// --json` and `list`/`show --json` on the same library: a change in the browser is the command's
/// change, an export writes nothing until "Save to library", and what is saved is the story.
@Suite(.serialized) struct ComposerRoutesTests {
    typealias Object = [String: Any]

    static func ids(_ value: Any?) -> [String] { (value as? [Object] ?? []).compactMap { $0["id"] as? String } }

    /// Photos of the sample library (present, not videos), JPEG and HEIC mixed, in `list`'s order.
    static func photos(_ cli: ShoeboxCLI, _ n: Int) throws -> [String] {
        let all = try #require(try cli.json(["list", "--kind", "photo"]) as? [Object])
        let heic = all.filter { ($0["format"] as? String) == "heic" }, jpeg = all.filter { ($0["format"] as? String) == "jpeg" }
        let mixed = zip(jpeg, heic).flatMap { [$0, $1] }
        return Array(Self.ids(mixed).prefix(n))
    }

    func draft(_ cli: ShoeboxCLI) throws -> [String] { Self.ids(try cli.json(["compose", "list"])) }

    @Test func eachChangeIsTheCommandsChangeAndAFifthPhotoIsRefused() throws {
        let cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        let served = try ServedLibrary(cli)
        let p = try Self.photos(cli, 6)
        #expect(try served.json("/api/composer") as? [Any] != nil && (try draft(cli)).isEmpty)

        let added = try served.post("/api/composer/add", ["ids": Array(p[0..<3])])
        #expect(added.status == 200)
        #expect(try Self.ids(try added.json()) == Array(p[0..<3]) && (try draft(cli)) == Array(p[0..<3]), "the order given")
        #expect((try added.json() as? [Object])?.map { $0["position"] as? Int } == [1, 2, 3])

        let fifth = try served.post("/api/composer/add", ["ids": [p[3], p[4]]])
        #expect(fifth.status == 400 && fifth.text.contains("at most 4"), "\(fifth.text)")
        #expect(try draft(cli) == Array(p[0..<3]), "nothing added")

        let moved = try served.post("/api/composer/move", ["from": 3, "to": 1])
        #expect(try Self.ids(try moved.json()) == [p[2], p[0], p[1]] && (try draft(cli)) == [p[2], p[0], p[1]])
        let replaced = try served.post("/api/composer/replace", ["position": 2, "id": p[5]])
        #expect(try Self.ids(try replaced.json()) == [p[2], p[5], p[1]] && (try draft(cli)) == [p[2], p[5], p[1]])
        let twice = try served.post("/api/composer/replace", ["position": 1, "id": p[1]])
        #expect(twice.status == 400 && twice.text.contains("already at position 3"), "\(twice.text)")
        let removed = try served.post("/api/composer/remove", ["position": 1])
        #expect(try Self.ids(try removed.json()) == [p[5], p[1]] && (try draft(cli)) == [p[5], p[1]])
        #expect(Self.ids(try served.json("/api/composer")) == [p[5], p[1]], "the page reads what `compose list` prints")

        for (body, words) in [(["from": 9, "to": 1] as Object, "no position 9"), (["from": true, "to": 1], "whole number"),
                              (["from": 1.5, "to": 1], "whole number"), (["to": 1], "must be a position")] {
            let r = try served.post("/api/composer/move", body)
            #expect(r.status == 400 && r.text.contains(words), "\(body): \(r.text)")
        }
        #expect(try served.post("/api/composer/replace", ["position": 1, "id": "../x"]).status == 400)
        #expect(try draft(cli) == [p[5], p[1]], "refusals change nothing")

        let cleared = try served.post("/api/composer/clear", [:])
        #expect(try (try cleared.json() as? [Any])?.isEmpty == true && (try draft(cli)).isEmpty)
    }

    @Test func exportShowsTheStoryWritesNothingAndSaveKeepsItOnce() throws {
        let cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        let served = try ServedLibrary(cli)
        let p = try Self.photos(cli, 4)
        _ = try served.post("/api/composer/add", ["ids": p])
        let before = try #require(try cli.json(["list"]) as? [Any]).count

        let exported = try served.post("/api/composer/export", [:])
        #expect(exported.status == 200, "\(exported.text)")
        let story = try #require(try exported.json() as? Object)
        #expect(story["width"] as? Int == 1080 && story["height"] as? Int == 1920)
        #expect(story["photos"] as? [String] == p && story["file"] is NSNull && story["saved"] is NSNull)
        let name = try #require(story["name"] as? String)
        #expect(name.hasPrefix("Story ") && name.hasSuffix(".heic"))
        #expect(try draft(cli).isEmpty, "the draft ends with the export, as `compose export` ends it")
        #expect(try #require(try cli.json(["list"]) as? [Any]).count == before, "nothing saved")
        #expect(!FileManager.default.fileExists(atPath: cli.library.appendingPathComponent("Collages").path))

        let heic = try served.request(try #require(story["heic"] as? String))
        #expect(heic.status == 200 && heic.headers["content-type"] == "image/heic" && heic.headers["cache-control"] == "no-store")
        #expect(heic.body.count == story["size"] as? Int)
        let jpeg = try served.request(try #require(story["jpeg"] as? String))
        #expect(jpeg.status == 200 && jpeg.headers["content-type"] == "image/jpeg")
        let dir = Scratch.root.appendingPathComponent("compose-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (heicFile, jpegFile) = (dir.appendingPathComponent("s.heic"), dir.appendingPathComponent("s.jpg"))
        try heic.body.write(to: heicFile)
        try jpeg.body.write(to: jpegFile)
        #expect(try TestRoll.run("/usr/bin/heif-info", [heicFile.path]).stdout.contains("1080x1920"))
        #expect(try TestRoll.run("/usr/bin/identify", ["-format", "%wx%h", jpegFile.path]).stdout == "1080x1920")
        // The JPEG shown is the HEIC's picture (both encodings of one canvas).
        let decoded = dir.appendingPathComponent("s.png")
        try TestRoll.run("/usr/bin/heif-convert", [heicFile.path, decoded.path])
        let psnr = try TestRoll.run("/usr/bin/compare", ["-metric", "PSNR", decoded.path, jpegFile.path, "null:"], allowFailure: true).stderr
        #expect((Double(psnr.split(separator: " ").first ?? "") ?? 0) > 35, "PSNR of the JPEG against the HEIC: \(psnr)")
        // The same story as `compose export` makes of the same photos, byte for byte.
        let byCommand = dir.appendingPathComponent("command.heic")
        #expect(try cli.run(["compose", "add"] + p).status == 0 && (try cli.run(["compose", "export", "-o", byCommand.path])).status == 0)
        #expect(try Data(contentsOf: byCommand) == heic.body, "the page's story is not the command's")
        let download = try served.request(try #require(story["heic"] as? String) + "?download=1")
        #expect(download.headers["content-disposition"]?.contains("attachment; filename=\"\(name)\"") == true)

        let token = try #require(story["render"] as? String)
        let saved = try #require(try served.post("/api/composer/save", ["render": token]).json() as? Object)
        let asset = try #require(saved["saved"] as? Object)
        let path = try #require(asset["path"] as? String)
        #expect(path == "Collages/\(name)" && saved["photos"] as? [String] == p)
        let savedID = try #require(asset["id"] as? String)
        let shown = try #require(try cli.json(["show", savedID]) as? Object)
        #expect(shown["width"] as? Int == 1080 && shown["height"] as? Int == 1920 && shown["format"] as? String == "heic")
        #expect(try Data(contentsOf: cli.library.appendingPathComponent(path)) == heic.body, "the bytes offered are the bytes saved")
        let again = try #require(try served.post("/api/composer/save", ["render": token]).json() as? Object)
        #expect((again["saved"] as? Object)?["id"] as? String == asset["id"] as? String, "a second save is the same photo")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.library.appendingPathComponent("Collages").path).count == 1)
        #expect(try #require(try cli.json(["list"]) as? [Any]).count == before + 1)
    }

    @Test func unknownRendersAndAnEmptyDraftAreOneLine() throws {
        let cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        let served = try ServedLibrary(cli)
        let empty = try served.post("/api/composer/export", [:])
        #expect(empty.status == 400 && empty.text.contains("the composer draft is empty"))
        #expect(try served.request("/media/render/\(String(repeating: "a", count: 32)).jpg").status == 404)
        #expect(try served.request("/media/render/..%2Fx.jpg").status == 400)
        #expect(try served.request("/media/render/\(String(repeating: "A", count: 32)).jpg").status == 400)
        let gone = try served.post("/api/composer/save", ["render": String(repeating: "0", count: 32)])
        #expect(gone.status == 404 && gone.text.contains("export it again"))
        #expect(try served.post("/api/composer/save", ["render": "../../etc"]).status == 400)
    }
}
