import Foundation
import Testing
import TestSupport

/// Files made the way cameras and other tools make them (heif-enc, exiftool, ffmpeg), in a
/// fresh library folder.
struct CameraFiles {
    let root: URL
    let cli: ShoeboxCLI

    init() throws {
        root = Scratch.root.appendingPathComponent("shoebox-test-\(UUID().uuidString)/library")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        cli = ShoeboxCLI(library: root)
        #expect(try cli.run(["init"]).status == 0)
    }

    func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    /// A small JPEG of a repository photo, with the EXIF `tags` (exiftool arguments, e.g. `-Make=Apple`).
    func jpeg(_ path: String, photo: String = "coffee.jpg", tags: [String] = []) throws {
        let source = TestRoll.repositoryRoot.appendingPathComponent("test-data/photos/\(photo)").path
        try FileManager.default.createDirectory(at: url(path).deletingLastPathComponent(), withIntermediateDirectories: true)
        try TestRoll.run("/usr/bin/convert", [source, "-resize", "320x320", "-quality", "80", url(path).path])
        if !tags.isEmpty { try exiftool(tags, path) }
    }

    /// A HEIC (heif-enc) of a repository photo, with EXIF `tags`.
    func heic(_ path: String, tags: [String]) throws {
        let jpg = url(path + ".tmp.jpg")
        try TestRoll.run("/usr/bin/convert", [TestRoll.repositoryRoot.appendingPathComponent("test-data/photos/coffee.jpg").path,
                                              "-resize", "320x320", jpg.path])
        try TestRoll.run("/usr/bin/heif-enc", ["-q", "50", jpg.path, "-o", url(path).path])
        try FileManager.default.removeItem(at: jpg)
        try exiftool(tags, path)
    }

    /// A QuickTime movie of `seconds` seconds created at `created` (UTC, ISO 8601), with Apple's
    /// keyed metadata `keys` (as an iPhone writes them: mdta keys).
    func movie(_ path: String, seconds: Int, created: String, keys: [String: String] = [:]) throws {
        var args = ["-nostdin", "-y", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=12",
                    "-t", String(seconds), "-c:v", "libx264", "-preset", "veryfast", "-threads", "1",
                    "-metadata", "creation_time=\(created)"]
        for (k, v) in keys.sorted(by: { $0.key < $1.key }) { args += ["-metadata", "\(k)=\(v)"] }
        if !keys.isEmpty { args += ["-movflags", "use_metadata_tags"] }
        try TestRoll.run("/usr/bin/ffmpeg", args + ["-f", "mov", url(path).path])
    }

    func exiftool(_ tags: [String], _ path: String) throws {
        try TestRoll.run("/usr/bin/exiftool", ["-q", "-q", "-overwrite_original"] + tags + [url(path).path])
    }

    /// Apple's MakerNote holding only `contentIdentifier` (tag 0x0011, exiftool's MediaGroupUUID),
    /// set into a JPEG by exiftool as a whole block: exiftool writes no MakerNote of its own.
    func appleMakerNote(contentIdentifier: String, into path: String) throws {
        let id = Array(contentIdentifier.utf8) + [0]
        func be(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let note = Array("Apple iOS\0".utf8) + [0, 1] + Array("MM".utf8) + be(1, 2)
            + be(0x11, 2) + be(2, 2) + be(id.count, 4) + be(14 + 2 + 12 + 4, 4) + be(0, 4) + id
        let bin = url(path + ".makernote")
        try Data(note).write(to: bin)
        try exiftool(["-MakerNotes<=\(bin.path)"], path)
        try FileManager.default.removeItem(at: bin)
    }

    func scan(_ extra: [String] = []) throws -> ShoeboxCLI.Result {
        let r = try cli.run(["scan"] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        return r
    }
}

/// Live Photos are paired only with evidence: a shared content identifier, or a short movie
/// begun within seconds of the photo. A name alone hid unrelated videos.
@Suite struct LivePhotoEvidenceTests {
    /// IMG_0001.HEIC of 2021 and an 8 s IMG_0001.MOV of 2005, scanned.
    static func unrelatedPhotoAndMovieScanned() throws -> CameraFiles {
        let f = try CameraFiles()
        try f.heic("IMG_0001.HEIC", tags: ["-DateTimeOriginal=2021:08:01 09:30:00", "-OffsetTimeOriginal=+02:00"])
        try f.movie("IMG_0001.MOV", seconds: 8, created: "2005-03-02T17:00:00.000000Z")
        _ = try f.scan()
        return f
    }

    @Test func anUnrelatedMovieOfTheSameNameStaysAVideo() throws {
        let f = try Self.unrelatedPhotoAndMovieScanned()
        let all = try f.cli.assetsByPath()
        #expect(Set(all.keys) == ["IMG_0001.HEIC", "IMG_0001.MOV"])
        #expect(all["IMG_0001.HEIC"]?["live_video"] is NSNull)
        #expect(try f.cli.assetsByPath(["--kind", "video"]).keys.contains("IMG_0001.MOV"))
    }

    @Test func aShortMovieBegunWithTheShotIsItsLivePhoto() throws {
        let f = try CameraFiles()
        try f.heic("IMG_0002.HEIC", tags: ["-DateTimeOriginal=2023:05:14 12:00:00", "-OffsetTimeOriginal=+02:00"])
        try f.movie("IMG_0002.MOV", seconds: 2, created: "2023-05-14T10:00:01.000000Z")
        _ = try f.scan()
        let all = try f.cli.assetsByPath()
        #expect(Array(all.keys) == ["IMG_0002.HEIC"])
        #expect(all["IMG_0002.HEIC"]?["live_video"] as? String == "IMG_0002.MOV")
    }

    @Test func aSharedContentIdentifierPairsAndADifferentOneDoesNot() throws {
        let f = try CameraFiles()
        // Times years apart: only the identifier speaks. The still's identifier is in its MakerNote,
        // which exiftool cannot create; a JPEG gets Apple's MakerNote bytes written whole.
        for (name, id) in [("IMG_0003", "5A1F-EE01"), ("IMG_0004", "77AA-0002")] {
            try f.jpeg("\(name).JPG", tags: ["-Make=Apple", "-DateTimeOriginal=2023:05:14 12:00:00"])
            try f.appleMakerNote(contentIdentifier: "5A1F-EE01", into: "\(name).JPG")
            try f.movie("\(name).MOV", seconds: 2, created: "2019-01-01T00:00:00.000000Z",
                        keys: ["com.apple.quicktime.content.identifier": id])
        }
        _ = try f.scan()
        let all = try f.cli.assetsByPath()
        #expect(all["IMG_0003.JPG"]?["live_video"] as? String == "IMG_0003.MOV")
        #expect(all["IMG_0003.MOV"] == nil)
        #expect(all["IMG_0004.JPG"]?["live_video"] is NSNull)
        #expect(all["IMG_0004.MOV"]?["kind"] as? String == "video")
    }

    /// A library paired by name under the old rules (Derivation 2) is regrouped by its next scan,
    /// without reading a file again: the unrelated movie is a video again, ids unchanged.
    @Test func aLibraryPairedByNameAloneIsRegroupedOnceWithoutReadingAFile() throws {
        let f = try Self.unrelatedPhotoAndMovieScanned()
        let before = try f.cli.assetsByPath()
        let photoID = try #require(before["IMG_0001.HEIC"]?["id"] as? String)
        // What Shoebox before Derivation 3 left in the index: the movie paired by its name.
        try TestRoll.run("/usr/bin/sqlite3", [f.url(".shoebox/index.sqlite").path, """
            UPDATE asset SET live_photo_of = '\(photoID)' WHERE path = 'IMG_0001.MOV';
            UPDATE meta SET value = '2' WHERE key = 'derivation';
            """])
        #expect(try f.cli.assetsByPath()["IMG_0001.MOV"] == nil)
        let r = try f.scan()
        #expect(r.stdout.contains("0 B read"), "\(r.stdout)")
        let after = try f.cli.assetsByPath()
        #expect(after["IMG_0001.MOV"]?["id"] as? String == before["IMG_0001.MOV"]?["id"] as? String)
        #expect(after["IMG_0001.HEIC"]?["live_video"] is NSNull)
    }
}
