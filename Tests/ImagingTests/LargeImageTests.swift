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

    @Test("a 100-megapixel interlaced (Adam7) PNG is reduced pass by pass, without a full-size image")
    func hundredMegapixelInterlacedPNG() throws {
        let url = dir.appendingPathComponent("interlaced.png")
        try Fixtures.run("vips", ["black", url.path + "[compression=1,interlace]", "12000", "8400", "--bands", "3"])
        let p = try Fixtures.probe(url, .png)
        #expect(p.width == 1000 && p.height == 700)
        #expect(p.peakMiB < 120, "peak RSS \(p.peakMiB) MiB (the RGB image alone is 288 MiB)")
    }
}
