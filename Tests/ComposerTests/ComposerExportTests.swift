import Foundation
import TestSupport
import XCTest

/// `compose export` through the built binary: the story decoded by libheif's own tool, each band
/// compared with ImageMagick's fill crop of its photo (`-auto-orient -resize W×H^ -gravity center
/// -extent W×H`).
final class ComposerExportTests: XCTestCase {
    /// 30 dB: the same picture with encoding noise; a band off by a crop, a turn or a photo is
    /// far below (~10–15 dB).
    static let minimumPSNR = 30.0

    func testOneToFourPhotosEachBandMatchesImageMagick() throws {
        let c = try Composing.library()
        let order = ["wide.jpg", "tall.png", "photo.heic", "r6.jpg"]
        for n in 1...4 {
            try c.ok(["add"] + order.prefix(n))
            let story = try c.export("story\(n).heic")
            let info = try TestRoll.run("/usr/bin/heif-info", [story.path]).stdout
            XCTAssertTrue(info.contains("image: 1080x1920"), "heif-info of a \(n)-photo story: \(info)")
            XCTAssertTrue(info.contains("color profile: nclx"), "the story is tagged sRGB: \(info)")
            let psnrs = try Composing.bandPSNRs(story, sources: order.prefix(n).map(c.file))
            for (i, p) in psnrs.enumerated() {
                XCTAssertGreaterThanOrEqual(p, Self.minimumPSNR, "band \(i + 1) of \(n) (\(order[i])) against ImageMagick")
            }
            XCTAssertEqual(try c.draft().count, 0, "an export clears the draft")
        }
    }

    func testPhotosTurnedByEXIFOrientationComeOutUpright() throws {
        let c = try Composing.library()
        let turned = ["r6.jpg", "r8.jpg", "r3.jpg"]
        try c.ok(["add"] + turned)
        let story = try c.export("turned.heic")
        let psnrs = try Composing.bandPSNRs(story, sources: turned.map(c.file))
        for (i, p) in psnrs.enumerated() {
            XCTAssertGreaterThanOrEqual(p, Self.minimumPSNR, "\(turned[i]) upright in band \(i + 1)")
        }
        // The same photo not turned (orientation ignored) would not match: the test can fail.
        let decoded = try Composing.decoded(story)
        let band = c.out.appendingPathComponent("band-r6.png"), unturned = c.out.appendingPathComponent("unturned-r6.png")
        try Composing.band(decoded, 0, of: 3, to: band)
        try TestRoll.run(Composing.convert, [c.file("r6.jpg").path, "-resize", "1080x640^", "-gravity", "center",
                                             "-extent", "1080x640", "+repage", unturned.path])
        XCTAssertLessThan(try Composing.psnr(band, unturned), 20, "the stored, unturned pixels are not what the story shows")
    }

    func testFacesMoveTheCropToKeepThemInside() throws {
        let c = try Composing.library()
        // A face tagged near the left edge (MWG region: centre x, y, size normalised; -m: the
        // photo's own XMP has a minor flaw exiftool otherwise refuses to write past), where a
        // centred crop of a portrait band would cut it off.
        let region = "{AppliedToDimensions={W=1440,H=900,Unit=pixel},RegionList=[{Area={X=0.1,Y=0.45,W=0.08,H=0.12,Unit=normalized},Name=Ana,Type=Face}]}"
        try ExiftoolFiles.write(["-m", "-XMP-mwg-rs:RegionInfo=" + region], to: c.file("wide.jpg"))
        XCTAssertEqual(try c.cli.run(["scan"]).status, 0)
        let shown = try c.cli.json(["show", "wide.jpg"]) as! [String: Any]
        let face = try XCTUnwrap((shown["faces"] as? [[String: Any]])?.first, "the tagged face is on the asset")
        try c.ok(["add", "wide.jpg"])
        let story = try c.export("face.heic")
        let decoded = try Composing.decoded(story)
        let left = c.out.appendingPathComponent("left.png"), centre = c.out.appendingPathComponent("centre.png")
        try Composing.reference(c.file("wide.jpg"), width: 1080, height: 1920, gravity: "West", to: left)
        try Composing.reference(c.file("wide.jpg"), width: 1080, height: 1920, gravity: "center", to: centre)
        XCTAssertGreaterThanOrEqual(try Composing.psnr(decoded, left), Self.minimumPSNR, "the crop moved to the face's side")
        XCTAssertLessThan(try Composing.psnr(decoded, centre), 20, "not the centred crop")
        // The face box, in the scaled photo (1440×900 → 3072×1920), lies inside the crop [0, 1080).
        let x = (face["x"] as! Double) * 3072, w = (face["w"] as! Double) * 3072
        XCTAssertTrue(x >= 0 && x + w <= 1080, "face from \(x) to \(x + w) inside the 1080 px crop")
    }

    func testSaveIndexesTheStoryInTheLibrary() throws {
        let c = try Composing.library()
        try c.ok(["add", "wide.jpg", "photo.heic"])
        let r = try c.ok(["export", "--save", "--json"])
        let made = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        XCTAssertTrue(made["file"] is NSNull, "--save alone writes no file outside the library")
        let saved = try XCTUnwrap(made["saved"] as? [String: Any])
        let path = try XCTUnwrap(saved["path"] as? String)
        XCTAssertTrue(path.hasPrefix("Collages/Story ") && path.hasSuffix(".heic"), path)
        let listed = try XCTUnwrap(try c.cli.assetsByPath()[path], "the saved story is indexed")
        XCTAssertEqual(listed["id"] as? String, saved["id"] as? String)
        XCTAssertEqual(listed["width"] as? Int, 1080)
        XCTAssertEqual(listed["height"] as? Int, 1920)
        XCTAssertEqual(listed["format"] as? String, "heic")
        XCTAssertEqual(made["size"] as? Int, (try FileManager.default.attributesOfItem(atPath: c.file(path).path)[.size] as? Int))
        XCTAssertEqual(try c.draft().count, 0)
        // A second story at the same second gets its own name.
        try c.ok(["add", "tall.png"])
        let again = try c.cli.json(["compose", "export", "--save"]) as! [String: Any]
        let second = (again["saved"] as! [String: Any])["path"] as! String
        XCTAssertNotEqual(second, path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: c.file(path).path))
    }

    func testDefaultNameInTheCurrentFolderNeverReplaces() throws {
        let c = try Composing.library()
        let env = "SHOEBOX_NOW=2026-03-04T05:06:07Z SHOEBOX_LIBRARY='\(c.root.path)' TZ=UTC"
        for _ in 0..<2 {
            try c.ok(["add", "wide.jpg"])
            let r = try TestRoll.run("/bin/sh", ["-c", "cd '\(c.out.path)' && env \(env) '\(ShoeboxCLI.binary)' compose export"], allowFailure: true)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: c.out.path).sorted()
        XCTAssertEqual(names, ["Story 2026-03-04 05.06.07 (2).heic", "Story 2026-03-04 05.06.07.heic"])
    }
}
