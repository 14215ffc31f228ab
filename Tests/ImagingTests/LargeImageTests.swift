import Foundation
import Testing
@testable import Imaging
import TestSupport

/// Memory stays bounded whatever the image (issue 15): a 100-megapixel PNG, a large HEIC, a
/// 30-frame HEIC burst, each decoded in a process of its own (`Fixtures.probe`) whose peak RSS
/// is that decode's. The bounds sit between the old figures (full-size buffers) and the new.
@Suite("Large images: bounded memory", .enabled(if: Fixtures.available && Fixtures.tool("vips") != nil))
struct LargeImageTests {
    let dir: URL
    init() throws { dir = try Fixtures.folder() }

    @Test("a 100-megapixel transparent PNG decodes row by row, 12× reduced, on white, in < 120 MiB (was 820 MiB)")
    func hundredMegapixelPNG() throws {
        let url = dir.appendingPathComponent("panorama.png")
        // vips streams: 0.5 s and 45 MB to make. Four bands of zeros: black, fully transparent.
        try Fixtures.run("vips", ["black", url.path + "[compression=1]", "12000", "8400", "--bands", "4"])
        let p = try Fixtures.probe(url, .png)
        #expect(p.width == 1000 && p.height == 700 && p.source == "boxReduced(factor:12)")
        // The whole image as RGBA would be 403 MB, twice that with the compositing copy the
        // simplified API's path made (measured 820 MiB).
        #expect(p.peakMiB < 120, "peak RSS \(p.peakMiB) MiB")
        let d = try Fixtures.decode(url, .png, minLongSide: 960)
        #expect(d.fullWidth == 12000 && d.fullHeight == 8400 && d.source == .boxReduced(factor: 12))
        #expect(d.image.pixels.allSatisfy { $0 == 255 }, "transparent must come out white")
    }

    /// A fuzzing find: a 4×3 PNG of 1.8 KB whose iTXt chunk declares 2 GB made libpng allocate
    /// 2 GB before it found the file's end (Debian's libpng sets no chunk ceiling). Text chunks
    /// are skipped unread now; the file fails in one line, in the memory of a small decode.
    @Test("a PNG chunk declaring 2 GB fails in one line without the allocation")
    func chunkDeclaringTwoGigabytes() throws {
        let small = dir.appendingPathComponent("small.png")
        try Fixtures.run("convert", ["-size", "4x3", "xc:red", small.path])
        var bytes = [UInt8](try Data(contentsOf: small))
        let ihdrEnd = 8 + 12 + 13  // signature, then IHDR (length, type, 13 bytes, CRC)
        let chunk: [UInt8] = [0x78, 0x44, 0x00, 0x8F] + Array("iTXt".utf8) + [UInt8](repeating: 0x41, count: 64)
        bytes.insert(contentsOf: chunk, at: ihdrEnd)
        let bomb = dir.appendingPathComponent("itxt-2gb.png")
        try Data(bytes).write(to: bomb)
        let error = try #require(throws: ImagingError.self) { try Fixtures.decode(bomb, .png, minLongSide: 960) }
        #expect(error.code == .corrupt && !error.description.contains("\n"), "\(error)")
        let r = try TestRoll.run("/usr/bin/time", ["-f", "peak %M", try Fixtures.probeBinary(), bomb.path, "png", "960"], allowFailure: true)
        let kib = Int(r.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }?.dropFirst(5) ?? "") ?? Int.max
        #expect(r.status != 0 && kib >> 10 < 120, "peak RSS \(kib >> 10) MiB: \(r.stderr)")
    }

    @Test("a 100-megapixel interlaced (Adam7) PNG is reduced pass by pass, without a full-size image")
    func hundredMegapixelInterlacedPNG() throws {
        let url = dir.appendingPathComponent("interlaced.png")
        try Fixtures.run("vips", ["black", url.path + "[compression=1,interlace]", "12000", "8400", "--bands", "3"])
        let p = try Fixtures.probe(url, .png)
        #expect(p.width == 1000 && p.height == 700)
        #expect(p.peakMiB < 120, "peak RSS \(p.peakMiB) MiB (the RGB image alone is 288 MiB)")
    }

    @Test("a 24-megapixel HEIC is reduced from libheif's YCbCr planes: < 5.2 bytes per pixel of peak RSS (libheif's RGB copy made it 6)")
    func largeHEIC() throws {
        let png = dir.appendingPathComponent("big.png"), url = dir.appendingPathComponent("big.heic")
        let tiny = dir.appendingPathComponent("tiny.heic")
        try Fixtures.run("vips", ["black", png.path + "[compression=1]", "6000", "4000", "--bands", "3"])
        // ultrafast: 2 s for 24 MP instead of 10; a 100-megapixel one would take 25 s and 1.5 GB.
        try Fixtures.run("heif-enc", ["-q", "50", "-p", "preset=ultrafast", png.path, "-o", url.path])
        try Fixtures.run("convert", ["-size", "16x16", "xc:gray", png.path])
        try Fixtures.run("heif-enc", ["-q", "50", png.path, "-o", tiny.path])
        let p = try Fixtures.probe(url, .heic), base = try Fixtures.probe(tiny, .heic)
        #expect(p.width == 1000 && p.height == 667 && p.source == "boxReduced(factor:6)")
        // libheif 1.15 decodes the whole image: its decoder's picture, the copy it hands over
        // and a cropped copy (1.5 bytes a pixel each in 4:2:0) are the floor, 4.4 bytes a pixel
        // measured. Asking it for RGB added 3 bytes a pixel of RGB beside the 4:2:0 planes.
        let grown = Double(p.peakMiB - base.peakMiB) * 1_048_576 / 24_000_000
        #expect(grown < 5.2, "peak RSS grew \(p.peakMiB - base.peakMiB) MiB, \(grown) bytes a pixel")
    }

    @Test("a 30-frame HEIC burst (15 MB) gives its primary frame at the peak RSS of that frame alone")
    func burst() throws {
        // Noise, so each frame weighs what a photo does (half a megabyte); frame i's mean level
        // is 40 + 6i, which tells the frames apart.
        var frames: [String] = []
        for i in 0..<30 {
            let url = dir.appendingPathComponent("frame\(i).png")
            try Fixtures.run("vips", ["gaussnoise", url.path, "800", "600", "--mean", "\(40 + i * 6)", "--sigma", "30"])
            frames.append(url.path)
        }
        // ultrafast: 4.5 s for the 30 frames (x265's default preset takes several times that).
        let burst = dir.appendingPathComponent("burst.heic"), single = dir.appendingPathComponent("single.heic")
        try Fixtures.run("heif-enc", ["-q", "90", "-p", "preset=ultrafast"] + frames + ["-o", burst.path])
        try Fixtures.run("heif-enc", ["-q", "90", "-p", "preset=ultrafast", frames[0], "-o", single.path])
        // heif-info lists every top-level image (and complains about trailing brands it cannot
        // parse, with status 0).
        #expect(try Fixtures.run("heif-info", [burst.path]).components(separatedBy: "image: 800x600").count == 31)
        let d = try Fixtures.decode(burst, .heic, minLongSide: 960)
        #expect(d.image.width == 800 && d.image.height == 600 && d.source == .full)
        let mean = Double(d.image.pixels.reduce(0) { $0 + Int($1) }) / Double(d.image.pixels.count)
        #expect(abs(mean - 40) < 4, "mean level \(mean): the first frame's is 40, the last's 214")
        // Reading the file into memory for libheif, which copied it again, cost twice the
        // burst's size (30 MB here) on top of the frame.
        let b = try Fixtures.probe(burst, .heic), s = try Fixtures.probe(single, .heic)
        #expect(b.peakMiB <= s.peakMiB + 8, "burst \(b.peakMiB) MiB, its first frame alone \(s.peakMiB) MiB")
    }
}
