import Foundation
import Testing
import CLCMS2
@testable import Imaging
import TestSupport

/// Wide-gamut photos come out right in sRGB: each decode is compared with ImageMagick's
/// `-profile sRGB` conversion of the same file (lcms2 too, but its own JPEG/PNG decoder and
/// transform set-up). Tolerances: 1.5 levels of 255 for JPEG/PNG, where both sides decode the
/// same bytes and differ only by transform rounding (8- vs 16-bit intermediates); 3 for HEIC,
/// whose reference is made from the lossless source and so includes HEVC's own loss. Reading
/// the same numbers as sRGB (no conversion) is far off each time, so each test can fail.
@Suite("colour to sRGB", .enabled(if: Fixtures.available))
struct ColorTests {
    let dir: URL
    let base: URL
    let srgb: URL
    init() throws {
        dir = try Fixtures.folder()
        base = dir.appendingPathComponent("base.png")
        // Saturated cups: the colours P3 and Adobe RGB reach beyond sRGB.
        try Fixtures.run("convert", [Fixtures.photo("colorfulcups.jpg"), "-strip", "-resize", "600x375!", base.path])
        srgb = dir.appendingPathComponent("srgb.icc")
        let profile = cmsCreate_sRGBProfile()
        defer { cmsCloseProfile(profile) }
        #expect(cmsSaveProfileToFile(profile, srgb.path) != 0)
    }

    func profile(_ name: String) throws -> URL {
        let url = dir.appendingPathComponent(name + ".icc")
        if name == "p3" { try Fixtures.iccProfile(url, primaries: Fixtures.displayP3, gamma: nil) }
        else { try Fixtures.iccProfile(url, primaries: Fixtures.adobeRGB, gamma: 563.0 / 256) }
        return url
    }

    /// A JPEG of the base picture carrying `icc` (exiftool writes the APP2 chunks).
    func jpeg(with icc: URL) throws -> URL {
        let url = dir.appendingPathComponent(icc.deletingPathExtension().lastPathComponent + ".jpg")
        try Fixtures.run("convert", [base.path, "-quality", "95", url.path])
        try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-ICC_Profile<=" + icc.path, url.path])
        return url
    }

    @Test("Display P3 and Adobe RGB JPEGs match ImageMagick's conversion to sRGB", arguments: ["p3", "adobergb"])
    func jpegProfiles(name: String) throws {
        let url = try jpeg(with: try profile(name))
        let reference = try Fixtures.reference(url, ["-profile", srgb.path])
        let naive = try Fixtures.reference(url)   // the stored numbers, read as sRGB
        let d = try Fixtures.decode(url, .jpeg)
        let ours = Fixtures.mad(d.image, reference), unconverted = Fixtures.mad(naive, reference)
        #expect(ours < 1.5, "\(name): \(ours) from the reference")
        #expect(unconverted > 4, "\(name): the unconverted decode is only \(unconverted) away")
        // Not dull: the converted picture is more saturated than its numbers read as sRGB.
        #expect(Fixtures.chroma(d.image) > Fixtures.chroma(naive) + 3)
    }

    @Test("the reference agrees with lcms2's jpgicc, so it is not ImageMagick's alone")
    func jpgiccAgrees() throws {
        let url = try jpeg(with: try profile("p3"))
        let out = dir.appendingPathComponent("jpgicc.jpg")
        try Fixtures.run("jpgicc", ["-q", "100", url.path, out.path])
        let d = try Fixtures.decode(url, .jpeg)
        #expect(Fixtures.mad(d.image, try Fixtures.reference(out)) < 1.5)
    }

    @Test("a PNG's iCCP profile is applied")
    func pngProfile() throws {
        let url = dir.appendingPathComponent("p3.png")
        // Without a profile in the input, ImageMagick's -profile assigns one (writes iCCP).
        try Fixtures.run("convert", [base.path, "-profile", try profile("p3").path, url.path])
        let reference = try Fixtures.reference(url, ["-profile", srgb.path])
        let d = try Fixtures.decode(url, .png)
        #expect(Fixtures.mad(d.image, reference) < 1.5)
        #expect(Fixtures.mad(try Fixtures.reference(base), reference) > 4)
    }

    @Test("a HEIC with an nclx box saying Display P3 (colour_primaries 12) is converted")
    func heicNclxP3() throws {
        let pixels = try Fixtures.reference(base)
        let p3 = dir.appendingPathComponent("p3.heic"), plain = dir.appendingPathComponent("bt709.heic")
        try HEIFWriter.write(pixels, to: p3, nclxPrimaries: 12)
        try HEIFWriter.write(pixels, to: plain, nclxPrimaries: 1)
        let reference = try Fixtures.reference(base, ["-profile", try profile("p3").path, "-profile", srgb.path])
        let d = try Fixtures.decode(p3, .heic)
        let ours = Fixtures.mad(d.image, reference)
        let unconverted = Fixtures.mad(try Fixtures.decode(plain, .heic).image, reference)
        #expect(ours < 3, "\(ours) from the reference")
        #expect(unconverted > ours + 2, "BT.709 decode \(unconverted), P3 decode \(ours)")
    }

    @Test("a HEIC heif-enc made from a P3 JPEG keeps its ICC profile, and it is applied")
    func heicICC() throws {
        let jpeg = try jpeg(with: try profile("p3"))
        let url = dir.appendingPathComponent("p3icc.heic")
        try Fixtures.run("heif-enc", ["-q", "92", jpeg.path, "-o", url.path])
        let reference = try Fixtures.reference(jpeg, ["-profile", srgb.path])
        let d = try Fixtures.decode(url, .heic)
        #expect(Fixtures.mad(d.image, reference) < 3)
        #expect(Fixtures.mad(try Fixtures.reference(jpeg), reference) > 4)
    }
}
