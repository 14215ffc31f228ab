import Foundation
import Testing
@testable import Imaging
import Metadata
import TestSupport

/// Issue 32: TIFF pixels through libtiff, upright and sRGB like every other format.
@Suite("TIFF decoding", .enabled(if: Fixtures.available))
struct TIFFDecodeTests {
    let dir: URL
    init() throws { dir = try Fixtures.folder() }

    @Test("the real TIFF decodes upright (orientation 6) and matches its JPEG original turned")
    func realTIFF() throws {
        let tiff = URL(fileURLWithPath: Fixtures.photo("coffee.tif"))
        let d = try Fixtures.decode(tiff, .tiff)
        #expect(d.image.width == 400 && d.image.height == 600 && d.fullWidth == 400 && d.fullHeight == 600)
        #expect(d.source == .full && !d.damaged)
        let jpeg = try Fixtures.decode(URL(fileURLWithPath: Fixtures.photo("coffee.jpg")), .jpeg, orientation: 6)
        #expect(Fixtures.mad(d.image, jpeg.image) < 2, "mean difference \(Fixtures.mad(d.image, jpeg.image))")
        // Reduced while reading when a smaller picture is enough.
        let small = try Fixtures.decode(tiff, .tiff, minLongSide: 150)
        #expect(small.source == .boxReduced(factor: 4) && small.image.width == 100 && small.image.height == 150)
        #expect(small.fullWidth == 400 && small.fullHeight == 600)
    }

    @Test("16-bit, tiled, grey, CMYK and alpha TIFFs as ImageMagick writes them decode to the same picture")
    func variants() throws {
        let reference = try Fixtures.decode(URL(fileURLWithPath: Fixtures.photo("coffee.jpg")), .jpeg, orientation: 1).image
        let cases: [(String, [String], Double)] = [
            ("16bit.tif", ["-depth", "16"], 2),
            ("tiled.tif", ["-define", "tiff:tile-geometry=128x128", "-compress", "jpeg", "-quality", "95"], 4),
            ("lzw.tif", ["-compress", "lzw"], 2),
            ("alpha.tif", ["-alpha", "on"], 2),
        ]
        for (name, options, tolerance) in cases {
            let url = dir.appendingPathComponent(name)
            try Fixtures.run("convert", [Fixtures.photo("coffee.jpg")] + options + [url.path])
            let d = try Fixtures.decode(url, .tiff, orientation: 1)
            #expect(Fixtures.mad(d.image, reference) < tolerance, "\(name): \(Fixtures.mad(d.image, reference))")
        }
        let grey = dir.appendingPathComponent("grey.tif")
        try Fixtures.run("convert", [Fixtures.photo("camera.jpg"), grey.path])
        let g = try Fixtures.decode(grey, .tiff)
        #expect(g.image.width == 512 && g.image.height == 512)
        let cmyk = dir.appendingPathComponent("cmyk.tif")
        try Fixtures.run("convert", [Fixtures.photo("coffee.jpg"), "-colorspace", "CMYK", cmyk.path])
        #expect(try Fixtures.decode(cmyk, .tiff).image.width == 600)
    }

    @Test("a TIFF cut short is damaged or one line naming the file, never a crash")
    func truncated() throws {
        let url = dir.appendingPathComponent("strips.tif")
        // Rows in many strips and the directory first, so the cut loses pixels, not the tags.
        try Fixtures.run("convert", [Fixtures.photo("coffee.jpg"), "-define", "tiff:rows-per-strip=8", url.path])
        let bytes = try Data(contentsOf: url)
        let cut = dir.appendingPathComponent("cut.tif")
        try bytes.prefix(bytes.count * 2 / 3).write(to: cut)
        do {
            let d = try Fixtures.decode(cut, .tiff)
            #expect(d.damaged)
        } catch let e as ImagingError {
            #expect(!e.description.contains("\n") && e.description.contains("cut.tif"))
        }
    }

    @Test("a 100-megapixel TIFF, in strips or deflate tiles, decodes in bands without the full image in memory")
    func hundredMegapixels() throws {
        let noise = dir.appendingPathComponent("noise.v"), grey = dir.appendingPathComponent("grey.v")
        try Fixtures.run("vips", ["gaussnoise", noise.path, "12000", "8400", "--mean", "128", "--sigma", "30"])
        try Fixtures.run("vips", ["cast", noise.path, grey.path, "uchar"])
        let strips = dir.appendingPathComponent("big.tif"), tiles = dir.appendingPathComponent("tiles.tif")
        try Fixtures.run("vips", ["bandjoin", "\(grey.path) \(grey.path) \(grey.path)", strips.path])
        try Fixtures.run("vips", ["copy", strips.path, tiles.path + "[compression=deflate,tile,tile-width=256,tile-height=256]"])
        try? FileManager.default.removeItem(at: noise)
        for url in [strips, tiles] {
            let p = try Fixtures.probe(url, .tiff)
            #expect(p.width == 1000 && p.height == 700 && p.source == "boxReduced(factor:12)", "\(url.lastPathComponent)")
            // The whole image is 302 MB of RGB (403 MB as libtiff's RGBA): measured 67–75 MiB.
            #expect(p.peakMiB < 120, "\(url.lastPathComponent): peak RSS \(p.peakMiB) MiB")
        }
        try? FileManager.default.removeItem(at: strips)
        try? FileManager.default.removeItem(at: tiles)
    }

}
