import Foundation
import Testing
@testable import Imaging
import TestSupport

/// JPEG DCT scaling, damaged and oversized JPEGs, PNG variants.
@Suite("JPEG and PNG decoding", .enabled(if: Fixtures.available))
struct JPEGAndPNGTests {
    let dir: URL
    init() throws { dir = try Fixtures.folder() }

    @Test("a 4032-pixel JPEG is DCT-scaled to the smallest power of two still ≥ minLongSide")
    func dctScaling() throws {
        let url = dir.appendingPathComponent("camera.jpg")
        try Fixtures.run("convert", [Fixtures.photo("kite.jpg"), "-resize", "4032x2520!", "-quality", "90", url.path])
        let cases: [(need: Int, denominator: Int, long: Int)] = [(1024, 2, 2016), (1008, 4, 1008), (256, 8, 504), (3000, 1, 4032)]
        for c in cases {
            let d = try Fixtures.decode(url, .jpeg, minLongSide: c.need, orientation: 1)
            #expect(d.source == (c.denominator == 1 ? .full : .dctScaled(denominator: c.denominator)), "minLongSide \(c.need): \(d.source)")
            #expect(d.image.longSide == c.long && d.image.longSide >= min(c.need, 4032))
            #expect(d.fullWidth == 4032 && d.fullHeight == 2520 && !d.damaged)
        }
        // The scaled decode is the picture, not just its size.
        let half = try Fixtures.decode(url, .jpeg, minLongSide: 1024, orientation: 1).image
        let reference = Downsample.area(try Fixtures.decode(url, .jpeg, minLongSide: 4032, orientation: 1).image, longSide: 2016)
        #expect(Fixtures.mad(half, reference) < 3)
    }

    @Test("a 100-megapixel JPEG decodes at 1/8 without allocating the full image")
    func hundredMegapixels() throws {
        let url = dir.appendingPathComponent("big.jpg")
        // vips streams, so making it costs little memory (ImageMagick would hold 800 MB).
        try Fixtures.run("vips", ["gaussnoise", url.path + "[Q=70]", "12000", "8400"])
        let before = Memory.peakRSS()
        let d = try Fixtures.decode(url, .jpeg, minLongSide: 1024, orientation: 1)
        #expect(d.source == .dctScaled(denominator: 8) && d.image.width == 1500 && d.image.height == 1050)
        #expect(d.fullWidth == 12000 && d.fullHeight == 8400)
        // The whole image would be 302 MB of RGB; the file plus the 1/8 image are far less.
        let grown = Memory.peakRSS() - before
        #expect(grown < 150 << 20, "peak RSS grew \(grown >> 20) MiB")
    }

    @Test("a JPEG whose entropy stream is overwritten decodes as damaged, an intact one does not")
    func corruptEntropy() throws {
        let url = dir.appendingPathComponent("coffee.jpg")
        try Fixtures.run("convert", [Fixtures.photo("coffee.jpg"), "-quality", "90", url.path])
        #expect(try !Fixtures.decode(url, .jpeg, orientation: 1).damaged)
        var bytes = [UInt8](try Data(contentsOf: url))
        for i in (bytes.count / 2)..<(bytes.count / 2 + 300) { bytes[i] = i % 7 == 0 ? 0xFF : 0xA5 }
        let bad = dir.appendingPathComponent("bad.jpg")
        try Data(bytes).write(to: bad)
        do {
            let d = try Fixtures.decode(bad, .jpeg, orientation: 1)
            #expect(d.damaged)
            #expect(d.image.width == 600 && d.image.height == 400)
        } catch let error as ImagingError {
            #expect(error.code == .corrupt && !error.description.contains("\n"))
        }
    }

    @Test("a truncated JPEG gives its top part, flagged damaged; a stub of one fails clearly")
    func truncatedJPEG() throws {
        let url = dir.appendingPathComponent("coffee.jpg")
        try Fixtures.run("convert", [Fixtures.photo("coffee.jpg"), "-quality", "90", url.path])
        let bytes = try Data(contentsOf: url)
        let half = dir.appendingPathComponent("half.jpg")
        try bytes.prefix(bytes.count / 2).write(to: half)
        let d = try Fixtures.decode(half, .jpeg, orientation: 1)
        #expect(d.damaged && d.image.width == 600)
        let stub = dir.appendingPathComponent("stub.jpg")
        try bytes.prefix(100).write(to: stub)
        let error = try #require(throws: ImagingError.self) { try Fixtures.decode(stub, .jpeg, orientation: 1) }
        #expect(error.code == .corrupt && error.description.hasPrefix("stub.jpg: "))
    }

    @Test("a JPEG declaring 65000×65000 is refused under a lower limit and bounded under the default")
    func declaredHuge() throws {
        let url = dir.appendingPathComponent("small.jpg")
        try Fixtures.run("convert", ["-size", "64x48", "xc:gray", "-quality", "90", url.path])
        var bytes = [UInt8](try Data(contentsOf: url))
        // SOF0/SOF2: FF C0|C2, length (2), precision (1), height (2), width (2).
        let sof = try #require((0..<(bytes.count - 9)).first { bytes[$0] == 0xFF && (bytes[$0 + 1] == 0xC0 || bytes[$0 + 1] == 0xC2) })
        for offset in [5, 7] { bytes[sof + offset] = 0xFD; bytes[sof + offset + 1] = 0xE8 }   // 65000
        let bomb = dir.appendingPathComponent("bomb.jpg")
        try Data(bytes).write(to: bomb)
        let refused = try #require(throws: ImagingError.self) {
            try Fixtures.decode(bomb, .jpeg, minLongSide: 1024, orientation: 1, limits: DecodeLimits(maxPixels: 40_000_000))
        }
        #expect(refused.code == .tooLarge && refused.description.contains("65000×65000"))
        // Under the default 120 MP, 1/8 scale (8125×8125, 66 MP) is allowed: no gigabytes, one flag.
        let before = Memory.peakRSS(), start = Date()
        let d = try Fixtures.decode(bomb, .jpeg, minLongSide: 1024, orientation: 1)
        #expect(d.source == .dctScaled(denominator: 8) && d.damaged)
        #expect(Memory.peakRSS() - before < 600 << 20)
        #expect(Date().timeIntervalSince(start) < 30)
    }

    @Test("a CMYK JPEG (Adobe, YCCK, no profile) comes out as ImageMagick converts it to sRGB")
    func cmyk() throws {
        let url = dir.appendingPathComponent("cmyk.jpg")
        try Fixtures.run("convert", [Fixtures.photo("coffee.jpg"), "-colorspace", "CMYK", url.path])
        let d = try Fixtures.decode(url, .jpeg, orientation: 1)
        let reference = try Fixtures.reference(url, ["-colorspace", "sRGB"])
        #expect(Fixtures.mad(d.image, reference) < 1.5, "\(Fixtures.mad(d.image, reference))")
        #expect(Fixtures.mad(d.image, try Fixtures.reference(URL(fileURLWithPath: Fixtures.photo("coffee.jpg")))) < 3)
    }

    @Test("PNG: 16-bit (with and without gAMA), palette, grey, interlaced and alpha (composited on white) match ImageMagick",
          arguments: [("rgb16", ["-depth", "16"]),
                      ("rgb16-no-gAMA", ["-depth", "16", "-define", "png:exclude-chunk=gAMA,cHRM,sRGB,iCCP"]), ("palette", ["-colors", "200", "-type", "Palette"]),
                      ("grey", ["-colorspace", "Gray"]), ("interlaced", ["-interlace", "PNG"]),
                      ("alpha", ["-alpha", "set", "-channel", "A", "-evaluate", "set", "50%", "+channel"])])
    func pngVariants(name: String, options: [String]) throws {
        let url = dir.appendingPathComponent(name + ".png")
        try Fixtures.run("convert", [Fixtures.photo("coffee.jpg")] + options + [url.path])
        let reference = try Fixtures.reference(url, ["-background", "white", "-flatten"])
        let d = try Fixtures.decode(url, .png, orientation: 1)
        #expect(d.image.width == 600 && d.image.height == 400)
        #expect(Fixtures.mad(d.image, reference) < 1.5, "\(name): \(Fixtures.mad(d.image, reference))")
        // Asked for less, the rows are averaged 4×4 while read (Adam7 passes too): the same
        // picture as the full decode area-reduced.
        let reduced = try Fixtures.decode(url, .png, minLongSide: 150, orientation: 1)
        #expect(reduced.source == .boxReduced(factor: 4) && reduced.fullWidth == 600 && reduced.fullHeight == 400)
        let area = Downsample.area(d.image, longSide: 150)
        #expect(Fixtures.mad(reduced.image, area) < 0.5, "\(name): \(Fixtures.mad(reduced.image, area))")
    }

    @Test("a truncated PNG fails with one clear error")
    func truncatedPNG() throws {
        let url = dir.appendingPathComponent("coffee.png")
        try Fixtures.run("convert", [Fixtures.photo("coffee.jpg"), url.path])
        let bytes = try Data(contentsOf: url)
        let cut = dir.appendingPathComponent("cut.png")
        try bytes.prefix(bytes.count / 2).write(to: cut)
        let error = try #require(throws: ImagingError.self) { try Fixtures.decode(cut, .png, orientation: 1) }
        #expect(error.code == .corrupt && error.description.hasPrefix("cut.png: ") && !error.description.contains("\n"))
    }
}
