import Foundation
import Testing
@testable import Imaging
import TestSupport

@Suite("down-sampling, thumbnails, perceptual hash", .enabled(if: Fixtures.available))
struct DownsampleAndHashTests {
    @Test("1-pixel black and white stripes reduced 4× come out uniform grey, not aliased")
    func stripes() {
        let w = 400, h = 300
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h { for x in stride(from: 1, to: w, by: 2) { for c in 0..<3 { pixels[(y * w + x) * 3 + c] = 255 } } }
        let stripes = RGBImage(width: w, height: h, pixels: pixels)
        let small = Downsample.area(stripes, longSide: 100)
        #expect(small.width == 100 && small.height == 75)
        #expect(small.pixels.allSatisfy { (126...129).contains($0) }, "range \(small.pixels.min()!)…\(small.pixels.max()!)")
        // Picking every 4th pixel (what an aliasing resize does) gives solid black: the test can fail.
        #expect((0..<100).allSatisfy { pixels[($0 * 4) * 3] == 0 })
    }

    @Test("never up-samples; keeps the aspect")
    func noUpsampling() {
        let image = RGBImage(width: 30, height: 20, pixels: [UInt8](repeating: 7, count: 30 * 20 * 3))
        #expect(Downsample.area(image, longSide: 256) == image)
        let tall = RGBImage(width: 300, height: 1000, pixels: [UInt8](repeating: 7, count: 300 * 1000 * 3))
        let t = Downsample.area(tall, longSide: 256)
        #expect(t.width == 77 && t.height == 256)
    }

    @Test("thumbnails: 4:2:0 JPEG that decodes back to the same picture")
    func thumbnail() throws {
        let dir = try Fixtures.folder()
        let source = try Fixtures.decode(URL(fileURLWithPath: Fixtures.photo("kite.jpg")), .jpeg, minLongSide: 1024)
        for side in [256, 1024] {
            let small = Downsample.area(source.image, longSide: side)
            let bytes = try ThumbnailEncoder.jpeg(small)
            let url = dir.appendingPathComponent("thumb\(side).jpg")
            try Data(bytes).write(to: url)
            let back = try Fixtures.decode(url, .jpeg, orientation: 1)
            #expect(back.image.longSide == side && Fixtures.mad(back.image, small) < 3)
            #expect(try Fixtures.run("identify", ["-format", "%[jpeg:sampling-factor]", url.path]).hasPrefix("2x2,1x1,1x1"))
        }
    }

    /// Measured on these seven photos: re-encodes at quality 30 and half size 0–4 bits away,
    /// the 21 pairs of different photos 19–39 apart (kite and milkyway, both a dark foreground
    /// under a bright sky, are the 19). The test holds the margin: every variant ≤ 8, every
    /// different pair ≥ 16, and all but one pair ≥ 20.
    @Test("pHash: a re-encode or resize of a photo is within 8 bits; different photos are far apart")
    func perceptualHash() throws {
        let dir = try Fixtures.folder()
        let names = ["kite.jpg", "path.jpg", "coffee.jpg", "rocket.jpg", "colorfulcups.jpg", "milkyway.jpg", "chelsea.jpg"]
        var hashes: [UInt64] = [], variants: [Int] = []
        for name in names {
            let original = URL(fileURLWithPath: Fixtures.photo(name))
            let hash = PerceptualHash.of(try Fixtures.decode(original, .jpeg, minLongSide: 1024).image)
            hashes.append(hash)
            let variant = dir.appendingPathComponent("low-" + name)
            try Fixtures.run("convert", [original.path, "-resize", "50%", "-quality", "30", variant.path])
            let other = PerceptualHash.of(try Fixtures.decode(variant, .jpeg, minLongSide: 1024).image)
            variants.append(PerceptualHash.distance(hash, other))
            #expect(PerceptualHash.distance(hash, other) <= 8, "\(name): \(PerceptualHash.distance(hash, other))")
            // Hashing the 256-pixel thumbnail instead of the decode changes little.
            let thumb = PerceptualHash.of(Downsample.area(try Fixtures.decode(original, .jpeg, minLongSide: 1024).image, longSide: 256))
            #expect(PerceptualHash.distance(hash, thumb) <= 8)
        }
        var pairs: [Int] = []
        for i in 0..<names.count { for j in (i + 1)..<names.count {
            let d = PerceptualHash.distance(hashes[i], hashes[j])
            pairs.append(d)
            #expect(d >= 16, "\(names[i]) vs \(names[j]): \(d)")
        } }
        #expect(pairs.filter { $0 < 20 }.count <= 1)
        print("pHash: variants \(variants), different pairs \(pairs.sorted())")
        #expect(PerceptualHash.distance(0b1011, 0b0110) == 3)
    }

    @Test("box reduction: blocks cut by the edge average what they hold; RGBA goes onto white first")
    func boxEdges() throws {
        // 3×3 RGBA, factor 2: blocks of 4, 2, 2 and 1 pixels. Opaque grey levels, except the
        // centre pixel (in the first block) which is half-transparent black.
        var rgba: [UInt8] = []
        for v in [0, 40, 80, 120, 0, 160, 200, 220, 240] as [UInt8] { rgba += [v, v, v, 255] }
        rgba[4 * 4 + 3] = 128                   // centre: black at alpha 128 → (255·127 + 127)/255 = 127
        let reduced = try #require(rgba.withUnsafeBufferPointer {
            BoxReduction.reduce(plane: $0.baseAddress!, stride: 12, width: 3, height: 3, channels: 4,
                                premultiplied: false, factor: 2)
        })
        #expect(reduced.width == 2 && reduced.height == 2)
        // (0 + 40 + 120 + 127) / 4 = 71.75 → 72; (80 + 160) / 2; (200 + 220) / 2; 240.
        #expect(reduced.pixels == [72, 72, 72, 120, 120, 120, 210, 210, 210, 240, 240, 240])
        #expect(BoxReduction.factor(longSide: 12000, minLongSide: 960) == 12)
        #expect(BoxReduction.factor(longSide: 1919, minLongSide: 960) == 1)
    }
}
