import Foundation
import Testing
import TestSupport

extension CameraFiles {
    /// A DNG of a repository photo (`scripts/make-dng`, PyPI's pidng in the venv
    /// `scripts/install-deps` makes), with EXIF `tags` set by exiftool.
    func dng(_ path: String, tags: [String]) throws {
        let venv = ProcessInfo.processInfo.environment["SHOEBOX_TOOLS"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/shoebox-tools").path
        try TestRoll.run(venv + "/pidng/bin/python", [TestRoll.repositoryRoot.appendingPathComponent("scripts/make-dng").path,
                                                      TestRoll.repositoryRoot.appendingPathComponent("test-data/photos/coffee.jpg").path,
                                                      url(path).path] + tags)
    }
}

/// Camera raw files through LibRaw: indexed as photos of format "raw", a RAW+JPEG shot as one asset.
@Suite struct RAWFileTests {
    @Test func aDNGIsIndexedWithItsDateSizeAndCamera() throws {
        let f = try CameraFiles()
        try f.dng("DSC_0001.DNG", tags: ["-DateTimeOriginal=2022:03:04 05:06:07", "-Make=Nikon", "-Model=Z 6"])
        _ = try f.scan()
        let a = try #require(try f.cli.assetsByPath()["DSC_0001.DNG"])
        #expect(a["kind"] as? String == "photo")
        #expect(a["format"] as? String == "raw")
        #expect(a["raw_type"] as? String == "dng")
        #expect((a["taken_at"] as? String)?.hasPrefix("2022-03-04T05:06:07") == true)
        #expect(a["width"] as? Int == 320 && a["height"] as? Int == 240)
        #expect(a["make"] as? String == "Nikon" && a["model"] as? String == "Z 6")
        let onDisk = try FileManager.default.attributesOfItem(atPath: f.url("DSC_0001.DNG").path)[.size] as? Int
        #expect(a["size"] as? Int == onDisk)
    }

    @Test func aRAWAndJPEGOfOneShotAreOneAssetTrashedAndRestoredTogether() throws {
        let f = try CameraFiles()
        let shot = "-DateTimeOriginal=2022:03:04 05:06:07"
        try f.dng("DSC_0002.NEF.tmp", tags: [shot])
        try FileManager.default.moveItem(at: f.url("DSC_0002.NEF.tmp"), to: f.url("DSC_0002.DNG"))
        try f.jpeg("DSC_0002.JPG", tags: [shot, "-Make=Nikon"])
        // Same name, another day: two shots.
        try f.dng("DSC_0003.DNG", tags: ["-DateTimeOriginal=2022:03:05 05:06:07"])
        try f.jpeg("DSC_0003.JPG", tags: [shot])
        _ = try f.scan()
        let all = try f.cli.assetsByPath()
        #expect(Set(all.keys) == ["DSC_0002.JPG", "DSC_0003.JPG", "DSC_0003.DNG"])
        #expect(all["DSC_0002.JPG"]?["raw_file"] as? String == "DSC_0002.DNG")
        #expect(all["DSC_0003.JPG"]?["raw_file"] is NSNull)
        #expect(try f.cli.run(["list"]).stdout.contains("DSC_0002.JPG [raw+jpeg]"))
        #expect(try f.cli.run(["show", "DSC_0002.JPG"]).stdout.contains("raw file     DSC_0002.DNG"))

        #expect(try f.cli.run(["trash", "DSC_0002.JPG"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: f.url("DSC_0002.JPG").path))
        #expect(!FileManager.default.fileExists(atPath: f.url("DSC_0002.DNG").path))
        #expect(try f.cli.run(["restore", "DSC_0002.JPG"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: f.url("DSC_0002.DNG").path))
        #expect(try f.cli.assetsByPath()["DSC_0002.JPG"]?["raw_file"] as? String == "DSC_0002.DNG")
    }

    @Test func aCR3LikeISOMediaFileOfBrandCrxIsNotAVideo() throws {
        let f = try CameraFiles()
        // A real MP4 whose major brand says Canon raw: the brand, not the boxes, decides.
        try f.movie("IMG_0005.mp4", seconds: 1, created: "2022-03-04T05:06:07.000000Z")
        var bytes = try Data(contentsOf: f.url("IMG_0005.mp4"))
        #expect(bytes[4..<8] == Data("ftyp".utf8))
        bytes.replaceSubrange(8..<12, with: Data("crx ".utf8))
        try bytes.write(to: f.url("IMG_0005.CR3"))
        try FileManager.default.removeItem(at: f.url("IMG_0005.mp4"))
        let r = try f.cli.run(["scan"])
        #expect(try f.cli.assetsByPath(["--kind", "video"]).isEmpty)
        #expect(r.stderr.contains("IMG_0005.CR3") && r.stderr.contains("raw"), "\(r.stderr)")
    }
}
