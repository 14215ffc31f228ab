import Foundation
import Testing
@testable import Imaging
import TestSupport

/// HEIC: the embedded thumbnail when it is large enough, the primary image otherwise; damaged
/// and oversized files fail with one line.
@Suite("HEIC", .enabled(if: Fixtures.available))
struct HEIFTests {
    let dir: URL
    let heic: URL
    init() throws {
        dir = try Fixtures.folder()
        let jpeg = dir.appendingPathComponent("kite.jpg")
        try Fixtures.run("convert", [Fixtures.photo("kite.jpg"), "-resize", "1200x750!", "-quality", "95", jpeg.path])
        heic = dir.appendingPathComponent("kite.heic")
        try Fixtures.run("heif-enc", ["-q", "90", "-t", "320", jpeg.path, "-o", heic.path])
    }

    @Test("heif-enc -t 320: the thumbnail serves minLongSide ≤ 320, the primary image anything larger, box-reduced while ≥ minLongSide")
    func thumbnail() throws {
        for need in [64, 256, 320] {
            let d = try Fixtures.decode(heic, .heic, minLongSide: need)
            #expect(d.source == .embeddedThumbnail, "minLongSide \(need)")
            #expect(d.image.longSide == 320 && d.image.width == 320 && d.image.height == 200)
            #expect(d.fullWidth == 1200 && d.fullHeight == 750)
        }
        for need in [1024, 4000] {
            let d = try Fixtures.decode(heic, .heic, minLongSide: need)
            #expect(d.source == .full, "minLongSide \(need)")
            #expect(d.image.width == 1200 && d.image.height == 750)
        }
        // 321 is served by a third of the primary image, averaged in 3×3 blocks.
        let third = try Fixtures.decode(heic, .heic, minLongSide: 321)
        #expect(third.source == .boxReduced(factor: 3) && third.image.width == 400 && third.image.height == 250)
        #expect(third.fullWidth == 1200 && third.fullHeight == 750)
        let fullThird = Downsample.area(try Fixtures.decode(heic, .heic, minLongSide: 1024).image, longSide: 400)
        #expect(Fixtures.mad(third.image, fullThird) < 1.5, "\(Fixtures.mad(third.image, fullThird))")
        // The same picture either way.
        let thumb = try Fixtures.decode(heic, .heic, minLongSide: 256).image
        let full = Downsample.area(try Fixtures.decode(heic, .heic, minLongSide: 1024).image, longSide: 320)
        #expect(Fixtures.mad(thumb, full) < 6)
    }

    @Test("a 10-bit HEIC decodes to the same picture in 8 bits")
    func tenBit() throws {
        let pixels = try Fixtures.reference(dir.appendingPathComponent("kite.jpg"))
        let url = dir.appendingPathComponent("ten.heic")
        try HEIFWriter.write(pixels, to: url, tenBit: true)
        #expect(try Fixtures.run("exiftool", ["-s3", "-BitDepthLuma", url.path]).hasPrefix("10"))
        let d = try Fixtures.decode(url, .heic)
        #expect(d.image.width == 1200 && Fixtures.mad(d.image, pixels) < 4, "\(Fixtures.mad(d.image, pixels))")
    }

    @Test("a transparent HEIC (heif-enc of a PNG with alpha) comes out composited on white, as that PNG does")
    func alphaOnWhite() throws {
        // Alpha rising from 0 at the left edge to 1 at the right, over the photo.
        let png = dir.appendingPathComponent("fade.png")
        try Fixtures.run("convert", [Fixtures.photo("coffee.jpg"), "-alpha", "set", "-channel", "A", "-fx", "i/w", "+channel", png.path])
        let url = dir.appendingPathComponent("fade.heic")
        try Fixtures.run("heif-enc", ["-q", "90", png.path, "-o", url.path])
        #expect(try Fixtures.run("heif-info", [url.path]).contains("alpha channel: yes"))
        let d = try Fixtures.decode(url, .heic)
        let onWhite = try Fixtures.reference(png, ["-background", "white", "-flatten"])
        #expect(d.image.width == 600 && d.image.height == 400)
        #expect(Fixtures.mad(d.image, onWhite) < 3, "\(Fixtures.mad(d.image, onWhite))")
        #expect(Fixtures.mad(d.image, try Fixtures.decode(png, .png).image) < 3)
        // The colour planes alone (alpha dropped, as before) are far from it.
        let planes = try Fixtures.reference(png, ["-alpha", "off"])
        #expect(Fixtures.mad(planes, onWhite) > 20, "\(Fixtures.mad(planes, onWhite))")
        // The same on the reduced path, 4×4 blocks averaged after compositing.
        let reduced = try Fixtures.decode(url, .heic, minLongSide: 150)
        #expect(reduced.source == .boxReduced(factor: 4))
        #expect(Fixtures.mad(reduced.image, Downsample.area(onWhite, longSide: 150)) < 3)
    }

    @Test("YCbCr planes converted here match libheif's own RGB: heif-enc's default, BT.709 limited range, nclx, 10-bit, alpha",
          arguments: ["default", "709limited", "nclx", "tenBit", "alpha"])
    func planesMatchLibheif(variant: String) throws {
        let url = dir.appendingPathComponent("\(variant).heic")
        let jpeg = dir.appendingPathComponent("kite.jpg")
        switch variant {
        case "default": try FileManager.default.copyItem(at: heic, to: url)
        case "709limited":
            try Fixtures.run("heif-enc", ["-q", "90", "--matrix_coefficients=1", "--full_range_flag=0", jpeg.path, "-o", url.path])
        case "nclx": try HEIFWriter.write(try Fixtures.reference(jpeg), to: url, nclxPrimaries: 12)
        case "tenBit": try HEIFWriter.write(try Fixtures.reference(jpeg), to: url, tenBit: true)
        default:
            let png = dir.appendingPathComponent("fade.png")
            try Fixtures.run("convert", [jpeg.path, "-alpha", "set", "-channel", "A", "-fx", "i/w", "+channel", png.path])
            try Fixtures.run("heif-enc", ["-q", "90", png.path, "-o", url.path])
        }
        let fd = open(url.path, O_RDONLY)
        defer { close(fd) }
        for need in [100_000, 300] {
            let ours = try HEIFDecoder.decode(fd: fd, name: variant, minLongSide: need, limits: .default)
            let theirs = try HEIFDecoder.decode(fd: fd, name: variant, minLongSide: need, limits: .default, libheifRGB: true)
            #expect(ours.source == theirs.source && ours.image.width == theirs.image.width)
            let diff = zip(ours.image.pixels, theirs.image.pixels).map { abs(Int($0) - Int($1)) }
            // Equal nearly everywhere (10-bit: 8-bit rounding, mean 0.45). Full size, a few values
            // differ more at sharp chroma edges (the kite's yellow against the sky: 346 of 2.7
            // million by more than 2, at most 27), where libheif's chroma upsampling picks other
            // samples than the nearest one taken here. Reduced 4×, the planes are averaged before
            // conversion, which differs where a block's pixels clip in RGB (P3 colours: 0.85 % of
            // values by more than 2, at most 7).
            let far = diff.filter { $0 > 2 }.count
            let within = need > 1200 ? far * 1000 < diff.count : diff.max()! <= 10
            #expect(Fixtures.mad(ours.image, theirs.image) < 0.6 && within,
                    "\(variant) at \(need): mean \(Fixtures.mad(ours.image, theirs.image)), \(far) values off by more than 2, max \(diff.max()!)")
        }
    }

    @Test("a truncated HEIC fails with one clear error", arguments: [0.5, 0.05])
    func truncated(fraction: Double) throws {
        let bytes = try Data(contentsOf: heic)
        let url = dir.appendingPathComponent("truncated\(fraction).heic")
        try bytes.prefix(Int(Double(bytes.count) * fraction)).write(to: url)
        let error = try #require(throws: ImagingError.self) { try Fixtures.decode(url, .heic) }
        #expect(error.code == .corrupt)
        #expect(error.description.hasPrefix(url.lastPathComponent + ": ") && !error.description.contains("\n"))
    }

    /// The HEIC with every `ispe` box (the primary image's and the thumbnail's) declaring `side`×`side`.
    func declaring(_ side: Int) throws -> URL {
        var bytes = [UInt8](try Data(contentsOf: heic))
        let tag = Array("ispe".utf8)
        var patched = 0
        for i in 0..<(bytes.count - 16) where bytes[i..<(i + 4)].elementsEqual(tag) {
            for offset in [8, 12] {
                for b in 0..<4 { bytes[i + offset + b] = UInt8(truncatingIfNeeded: side >> (24 - 8 * b)) }
            }
            patched += 1
        }
        #expect(patched >= 1)
        let url = dir.appendingPathComponent("bomb\(side).heic")
        try Data(bytes).write(to: url)
        return url
    }

    @Test("a HEIC declaring 60000×60000 (past libheif's limit) or 20000×20000 (past ours) is refused quickly, with bounded memory",
          arguments: [60000, 20000])
    func bomb(side: Int) throws {
        let url = try declaring(side)
        let before = Memory.peakRSS(), start = Date()
        let error = try #require(throws: ImagingError.self) { try Fixtures.decode(url, .heic, minLongSide: 100_000) }
        #expect(error.code == .tooLarge, "\(error)")
        #expect(error.description.contains("\(side)") && !error.description.contains("\n"), "\(error)")
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(Memory.peakRSS() - before < 500 << 20)
    }
}

/// The process's peak resident set size in bytes (getrusage): only grows, so a delta bounds
/// what a call allocated at most (other tests running beside it can only add).
enum Memory {
    static func peakRSS() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
}
