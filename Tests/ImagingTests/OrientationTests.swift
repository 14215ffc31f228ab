import Foundation
import Testing
@testable import Imaging
import TestSupport

/// EXIF orientation 1–8 (JPEG) and `irot`/`imir` (HEIC) give upright pixels: each decode is
/// compared with the upright picture the files were made from.
@Suite("orientation", .enabled(if: Fixtures.available))
struct OrientationTests {
    let dir: URL
    let upright: URL
    init() throws {
        dir = try Fixtures.folder()
        // path.jpg is asymmetric both ways (a path leading off to one side, sky on top);
        // 400×248 keeps JPEG blocks whole in every turn.
        upright = dir.appendingPathComponent("upright.png")
        try Fixtures.run("convert", [Fixtures.photo("path.jpg"), "-resize", "400x248!", upright.path])
    }

    /// The upright picture's stored form for orientation `o`, as a lossless PNG.
    func stored(_ o: Int) throws -> URL {
        let url = dir.appendingPathComponent("stored\(o).png")
        try Fixtures.run("convert", [upright.path] + Fixtures.inverseTurn[o]! + [url.path])
        return url
    }

    @Test("JPEG: every EXIF orientation decodes upright; ignoring the tag would not", arguments: 1...8)
    func jpeg(o: Int) throws {
        let truth = try Fixtures.reference(upright)
        let url = dir.appendingPathComponent("o\(o).jpg")
        try Fixtures.run("convert", [try stored(o).path, "-quality", "95", url.path])
        try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-Orientation#=\(o)", url.path])
        // Orientation read from the file by the Metadata module (orientation: nil).
        let d = try Fixtures.decode(url, .jpeg)
        #expect(d.image.width == 400 && d.image.height == 248)
        #expect(d.fullWidth == 400 && d.fullHeight == 248)
        let difference = Fixtures.mad(d.image, truth)
        #expect(difference < 3, "orientation \(o): mean difference \(difference)")
        if o != 1 {
            // The same file with the tag ignored is not upright: the comparison can fail.
            let raw = try Fixtures.decode(url, .jpeg, orientation: 1)
            #expect(Fixtures.mad(raw.image, truth) > 15)
        }
    }

    @Test("PNG: an eXIf orientation exiftool writes is applied", arguments: [6, 3])
    func png(o: Int) throws {
        let url = dir.appendingPathComponent("o\(o).png")
        try Fixtures.run("convert", [try stored(o).path, url.path])
        try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-Orientation#=\(o)", url.path])
        let d = try Fixtures.decode(url, .png)
        #expect(d.image.width == 400 && d.image.height == 248)
        #expect(Fixtures.mad(d.image, try Fixtures.reference(upright)) < 1)
    }

    @Test("raw: the DNG's embedded JPEG preview, turned by the raw file's orientation",
          .enabled(if: FileManager.default.fileExists(atPath: OrientationTests.pidng)))
    func rawPreview() throws {
        let url = dir.appendingPathComponent("shot.dng")
        try TestRoll.run(Self.pidng, [TestRoll.repositoryRoot.appendingPathComponent("scripts/make-dng").path,
                                      try stored(6).path, url.path, "--preview=248x400"])
        try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-IFD0:Orientation#=6", url.path])
        let d = try Fixtures.decode(url, .raw)
        #expect(d.image.width == 400 && d.image.height == 248, "\(d.image.width)×\(d.image.height)")
        // The whole image is the sensor's: make-dng writes a 320×240 raw whatever the photo,
        // upright 240×320 under orientation 6 (what exiftool reports as ImageWidth/Height).
        #expect(d.source == .embeddedThumbnail && d.fullWidth == 240 && d.fullHeight == 320, "\(d.fullWidth)×\(d.fullHeight)")
        #expect(Fixtures.mad(d.image, try Fixtures.reference(upright)) < 6)
    }

    static let pidng = (ProcessInfo.processInfo.environment["SHOEBOX_TOOLS"]
        ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/shoebox-tools").path) + "/pidng/bin/python"

    @Test("HEIC: irot/imir written by libheif for each orientation decode upright", arguments: 1...8)
    func heic(o: Int) throws {
        let truth = try Fixtures.reference(upright)
        let url = dir.appendingPathComponent("o\(o).heic")
        try HEIFWriter.write(try Fixtures.reference(try stored(o)), to: url, orientation: o)
        let d = try Fixtures.decode(url, .heic)
        #expect(d.source == .full)
        #expect(d.image.width == 400 && d.image.height == 248, "orientation \(o): \(d.image.width)×\(d.image.height)")
        #expect(d.fullWidth == 400 && d.fullHeight == 248)
        let difference = Fixtures.mad(d.image, truth)
        #expect(difference < 4, "orientation \(o): mean difference \(difference)")
    }

    @Test("HEIC: an EXIF orientation exiftool writes into it is not applied on top")
    func heicExifIgnored() throws {
        let truth = try Fixtures.reference(upright)
        let jpeg = dir.appendingPathComponent("up.jpg")
        try Fixtures.run("convert", [upright.path, "-quality", "95", jpeg.path])
        let url = dir.appendingPathComponent("tagged.heic")
        try Fixtures.run("heif-enc", ["-q", "92", jpeg.path, "-o", url.path])
        try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-Orientation#=6", url.path])
        #expect(try Fixtures.run("exiftool", ["-s3", "-n", "-Orientation", url.path]).contains("6"))
        // Even when the caller passes the tag on, HEIC ignores it.
        for orientation in [nil, 6] as [Int?] {
            let d = try Fixtures.decode(url, .heic, orientation: orientation)
            #expect(d.image.width == 400 && d.image.height == 248)
            #expect(Fixtures.mad(d.image, truth) < 4)
        }
    }
}
