import Foundation
import Testing
import TestSupport

/// Photos of miniatures through the built binary: formats by content, byte-identical copies
/// under unique names, files and library assets as sources, chronological order, and the
/// cascades that delete the copies.
@Suite struct TrackerPhotoTests {
    @Test func req4_1_4_2_4_5_onlyJPEGPNGAndHEICByContentCopiedByteForByte() throws {
        let t = try TrackerLibrary()
        let m = try t.mini(try t.project())
        let work = t.outside
        let jpeg = TrackerLibrary.testPhoto("kite.jpg")
        let png = work.appendingPathComponent("kite.png"), heic = work.appendingPathComponent("kite.heic")
        try TestRoll.run("/usr/local/bin/convert", [jpeg.path, "-resize", "400x", png.path], allowFailure: false)
        try TestRoll.run("/usr/bin/heif-enc", ["-q", "60", "-o", heic.path, png.path])
        // A JPEG whose name says text is a JPEG; text named .jpg is not.
        let disguised = work.appendingPathComponent("notes.txt")
        try FileManager.default.copyItem(at: TrackerLibrary.testPhoto("coffee.jpg"), to: disguised)
        let fake = work.appendingPathComponent("fake.jpg")
        try Data("not a photo at all".utf8).write(to: fake)
        let gif = work.appendingPathComponent("anim.gif")
        try TestRoll.run("/usr/local/bin/convert", ["-size", "16x16", "xc:red", gif.path])

        var seen = Set<String>()
        for (source, ext) in [(jpeg, "jpg"), (png, "png"), (heic, "heic"), (disguised, "jpg"), (jpeg, "jpg")] {
            let p = try t.photo(String(m.prefix(6)), source.path)
            #expect(Set(p.keys) == ["id", "mini_id", "file", "taken_at", "added_at", "sha256"])
            #expect(p["mini_id"] as? String == m)
            let file = p["file"] as! String
            #expect(file.hasPrefix("Tracker/photos/") && file.hasSuffix("." + ext), "\(file)")
            #expect(seen.insert(file).inserted, "the same name twice: \(file)")
            // Original quality: the very bytes.
            let copy = t.root.appendingPathComponent(file)
            #expect(try sha256(copy) == sha256(source) && p["sha256"] as? String == (try sha256(source)))
        }
        for bad in [fake, gif, work.appendingPathComponent("missing.jpg")] {
            let r = try t.fails(["photo", "add", m, bad.path])
            #expect(r.status == 1 && r.stderrLines.count == 1, "\(bad.lastPathComponent): \(r.stderr)")
        }
        #expect(try t.fails(["photo", "add", m, fake.path]).stderr.contains("JPEG, PNG and HEIC"))
        #expect(try t.fails(["photo", "add", "no-such-mini", jpeg.path]).status == 1)
        #expect(t.photoFiles().count == 5, "a refused photo left a file: \(t.photoFiles())")
        #expect((try t.object(["mini", "show", m])["photo_ids"] as? [String])?.count == 5)
    }

    /// Issue 28: a 4-byte file that only starts like a JPEG was stored as a photo, and a 2 GiB
    /// sparse file was copied (12 s of writing) before anything looked at it. Now the header must
    /// give an image (its dimensions) and the size a photo can have: refused in one line naming
    /// the file, nothing stored, the tracker file untouched.
    @Test func aFileThatOnlyStartsLikeAPhotoOrIsHugeIsRefusedAndNothingStored() throws {
        let t = try TrackerLibrary()
        let m = try t.mini(try t.project())
        let stub = t.outside.appendingPathComponent("stub.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0]).write(to: stub)
        let sparse = t.outside.appendingPathComponent("sparse.jpg")
        try FileManager.default.copyItem(at: TrackerLibrary.testPhoto("kite.jpg"), to: sparse)
        try TestRoll.run("/usr/bin/truncate", ["-s", "2G", sparse.path])
        let before = t.storeBytes()
        for bad in [stub, sparse] {
            let r = try t.fails(["photo", "add", m, bad.path])
            #expect(r.status == 1 && r.stderrLines.count == 1 && r.stderr.contains(bad.path), "\(bad.lastPathComponent): \(r.stderr)")
        }
        #expect(t.photoFiles().isEmpty, "a refused file was stored: \(t.photoFiles())")
        #expect(t.storeBytes() == before)
        #expect((try t.object(["mini", "show", m])["photo_ids"] as? [String])?.isEmpty == true)
    }

    @Test func req6_3_and_6_5_aLibraryAssetByIdOrPathIsCopiedWhole() throws {
        let t = try TrackerLibrary()
        let folder = t.root.appendingPathComponent("2024")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let original = folder.appendingPathComponent("IMG_0001.jpg")
        try FileManager.default.copyItem(at: TrackerLibrary.testPhoto("camera.jpg"), to: original)
        try t.must(t.cli.run(["scan"]))
        let asset = try #require((try t.cli.json(["list"]) as? [[String: Any]])?.first)
        let m = try t.mini(try t.project())
        let byID = try t.photo(m, asset["id"] as! String)
        let byPath = try t.photo(m, original.path)
        for p in [byID, byPath] {
            #expect(p["sha256"] as? String == asset["sha256"] as? String)
            #expect(try sha256(t.root.appendingPathComponent(p["file"] as! String)) == (try sha256(original)))
        }
        // The original stays where it was; the copies are not indexed (Tracker/ is reserved).
        #expect(FileManager.default.fileExists(atPath: original.path))
        try t.must(t.cli.run(["scan"]))
        #expect((try t.cli.json(["list"]) as? [[String: Any]])?.count == 1)
        #expect(try t.fails(["photo", "add", m, "ffffffff-ffff-4fff-8fff-ffffffffffff"]).status == 1)
    }

    @Test func req4_3_photosAreListedByCaptureTimeElseTimeAdded() throws {
        try #require(ExiftoolFiles.available, "needs exiftool and ImageMagick")
        let t = try TrackerLibrary()
        let m = try t.mini(try t.project())
        let dir = try ExiftoolFiles.folder()
        // Added in this order; taken 2021, 2019, (none: added "2020"), 2023, and one PNG from 2018.
        var added: [String: String] = [:]
        for (name, date) in [("b", "2021:03:04 10:00:00"), ("a", "2019:05:06 07:08:09"), ("c", nil), ("e", "2023:01:01 00:00:00")] as [(String, String?)] {
            let url = try ExiftoolFiles.jpeg(dir.appendingPathComponent("\(name).jpg"), tags: date.map { ["-DateTimeOriginal=\($0)"] } ?? [])
            // The undated one is added "in 2020"; the others later (a capture time after the
            // clock would be implausible and ignored).
            let p = try t.photo(m, url.path, env: ["SHOEBOX_NOW": date == nil ? "2020-06-01T12:00:00Z" : "2026-11-22T10:15:03Z"])
            added[name] = p["id"] as? String
            #expect((p["taken_at"] is NSNull) == (date == nil), "\(name): \(p["taken_at"] ?? "")")
        }
        let png = dir.appendingPathComponent("d.png")
        try TestRoll.run("/usr/local/bin/convert", ["-size", "32x32", "xc:blue", png.path])
        try ExiftoolFiles.write(["-XMP-exif:DateTimeOriginal=2018-02-03T04:05:06"], to: png)
        added["d"] = try t.photo(m, png.path)["id"] as? String
        let listed = try t.array(["photo", "list", m]).map { $0["id"] as! String }
        #expect(listed == ["d", "a", "c", "b", "e"].map { added[$0]! })
        #expect(try t.array(["photo", "list", m]).first?["taken_at"] as? String == "2018-02-03T04:05:06")
    }

    @Test func req4_4_2_4_1_4_deletesRemoveTheCopiesWithTheRecords() throws {
        let t = try TrackerLibrary()
        let p = try t.project()
        let keep = try t.project("aos", army: "Stormcast")
        let a = try t.mini(p, "A"), b = try t.mini(p, "B"), c = try t.mini(keep, "C")
        var files: [String: [String]] = [:]
        for (mini, photo) in [(a, "kite.jpg"), (a, "coffee.jpg"), (b, "camera.jpg"), (c, "rocket.jpg")] {
            files[mini, default: []].append(try t.photo(mini, TrackerLibrary.testPhoto(photo).path)["file"] as! String)
        }
        func exists(_ f: String) -> Bool { FileManager.default.fileExists(atPath: t.root.appendingPathComponent(f).path) }
        // 4.4: one photo, record and file.
        let first = try t.array(["photo", "list", a])[0]
        let r = try t.object(["photo", "rm", first["id"] as! String])
        #expect(Set(r.keys) == ["removed", "id", "miniature_ids", "photo_ids", "files_removed"] && r["removed"] as? String == "photo")
        #expect(r["files_removed"] as? [String] == [first["file"] as! String] && !exists(first["file"] as! String))
        #expect((try t.object(["mini", "show", a])["photo_ids"] as? [String])?.count == 1)
        // 2.4: a miniature and its photos.
        _ = try t.object(["mini", "rm", b])
        #expect(try !exists(files[b]![0]) && t.array(["mini", "list"]).count == 2)
        // 1.4: a project, its miniatures and their photos; the other project is untouched.
        let gone = try t.object(["project", "rm", p])
        #expect(gone["miniature_ids"] as? [String] == [a])
        #expect(files[a]!.allSatisfy { !exists($0) } && exists(files[c]![0]))
        #expect(try t.array(["mini", "list"]).map { $0["id"] as! String } == [c])
        #expect(t.photoFiles() == [(files[c]![0] as NSString).lastPathComponent])
        #expect(try t.fails(["photo", "list", a]).status == 1)
    }
}
