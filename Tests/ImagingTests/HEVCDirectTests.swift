import Foundation
import Testing
@testable import Imaging
@testable import Metadata
import TestSupport

/// libde265 fed directly (HEVCDecoder) gives libheif's pixels: every HEIC of the sample library,
/// and made ones for the layouts it lacks (grids, irot/imir, BT.709 limited range, Display P3).
@Suite("HEIC through libde265 directly", .enabled(if: Fixtures.available))
struct HEVCDirectTests {
    let dir: URL
    init() throws { dir = try Fixtures.folder() }

    /// Decodes `url` both ways at full size and reduced; the figures (PSNR in dB, full size first).
    @discardableResult
    func compare(_ url: URL, minLongSides: [Int] = [100_000, 1024, 300]) throws -> [Double] {
        let fd = open(url.path, O_RDONLY)
        defer { close(fd) }
        var figures: [Double] = []
        for need in minLongSides {
            let theirs = try HEIFDecoder.decode(fd: fd, name: url.lastPathComponent, minLongSide: need, limits: .default, direct: false)
            guard theirs.source != .embeddedThumbnail else { continue }
            let ours = try #require(try HEVCDecoder.decode(fd: fd, name: url.lastPathComponent, minLongSide: need, limits: .default),
                                    "\(url.lastPathComponent) not taken by the direct path")
            #expect(ours.image.width == theirs.image.width && ours.image.height == theirs.image.height
                    && ours.fullWidth == theirs.fullWidth && ours.fullHeight == theirs.fullHeight && ours.source == theirs.source,
                    "\(url.lastPathComponent) at \(need): \(ours.image.width)×\(ours.image.height) of \(ours.fullWidth)×\(ours.fullHeight) vs \(theirs.image.width)×\(theirs.image.height) of \(theirs.fullWidth)×\(theirs.fullHeight)")
            guard ours.image.pixels.count == theirs.image.pixels.count else { continue }
            let db = psnr(ours.image, theirs.image)
            #expect(db >= 40, "\(url.lastPathComponent) at \(need): \(db) dB")
            figures.append(db)
        }
        print("PSNR \(url.lastPathComponent): \(figures.map { String(format: "%.1f", $0) }.joined(separator: " / ")) dB")
        return figures
    }

    func psnr(_ a: RGBImage, _ b: RGBImage) -> Double {
        var sum = 0.0
        for (x, y) in zip(a.pixels, b.pixels) { let d = Double(x) - Double(y); sum += d * d }
        let mse = sum / Double(max(1, a.pixels.count))
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    var kite: RGBImage {
        get throws {
            let jpeg = dir.appendingPathComponent("kite-src.jpg")
            try Fixtures.run("convert", [Fixtures.photo("kite.jpg"), "-resize", "1200x750!", "-quality", "95", jpeg.path])
            return try Fixtures.reference(jpeg)
        }
    }

    @Test("every HEIC of the sample library: libheif's pixels, size and orientation (PSNR ≥ 40 dB)")
    func sampleLibrary() throws {
        let root = TestRoll.repositoryRoot.appendingPathComponent("sample-library")
        let files = FileManager.default.enumerator(atPath: root.path)!.compactMap { $0 as? String }
            .filter { $0.lowercased().hasSuffix(".heic") }.sorted()
        #expect(files.count >= 17)
        for f in files { try compare(root.appendingPathComponent(f)) }
    }

    @Test("irot and imir as libheif applies them (EXIF orientations 2…8 written as HEIF transformations)",
          arguments: 2...8)
    func turned(orientation: Int) throws {
        let url = dir.appendingPathComponent("turned\(orientation).heic")
        try HEIFWriter.write(try kite, to: url, orientation: orientation)
        try compare(url)
    }

    @Test("a grid of 256-px tiles cropped to 1200×750, upright and turned (irot on the grid)", arguments: [0, 1, 3])
    func grid(quarterTurns: Int) throws {
        let url = dir.appendingPathComponent("grid\(quarterTurns).heic")
        try HEIFGridWriter.write(try kite, tile: 256, to: url, quarterTurns: quarterTurns)
        let items = try HEIFItems.primary(MemoryByteSource([UInt8](try Data(contentsOf: url))))
        #expect(items.tiles.count == 15 && items.columns == 5)
        try compare(url)
    }

    @Test("colour as libheif: BT.709 limited range, Display P3 nclx", arguments: ["709limited", "p3"])
    func colour(variant: String) throws {
        let url = dir.appendingPathComponent("\(variant).heic")
        if variant == "p3" {
            try HEIFWriter.write(try kite, to: url, nclxPrimaries: 12)
        } else {
            let jpeg = dir.appendingPathComponent("kite-src.jpg")
            _ = try kite
            try Fixtures.run("heif-enc", ["-q", "90", "--matrix_coefficients=1", "--full_range_flag=0", jpeg.path, "-o", url.path])
        }
        try compare(url)
    }

    /// Sides of 2³² − 1 in `ispe`: their product overflowed an Int before it met the pixel limit
    /// (`Fuzz/run HEIFItems` found it). The direct path refuses; libheif names the problem.
    @Test("an ispe of 4294967295 × 4294967295: refused in one line, no crash")
    func sidesBeyondTwoToThe31() throws {
        let url = dir.appendingPathComponent("huge.heic")
        try HEIFWriter.write(try kite, to: url, orientation: 1)
        var bytes = [UInt8](try Data(contentsOf: url))
        let ispe = try #require(bytes.indices.dropLast(16).first { bytes[$0..<$0 + 4] == [0x69, 0x73, 0x70, 0x65] })
        for i in ispe + 8..<ispe + 16 { bytes[i] = 0xFF }
        try Data(bytes).write(to: url)
        #expect(throws: HEIFItems.Refusal.self) { try HEIFItems.primary(MemoryByteSource(bytes)) }
        let error = #expect(throws: ImagingError.self) { try Fixtures.decode(url, .heic) }
        #expect(error?.description.hasPrefix("huge.heic: ") == true && error?.description.contains("\n") == false, "\(String(describing: error))")
    }

    @Test("truncated or corrupt HEICs: one clear error, no crash", arguments: [0.95, 0.6, 0.3, 0.02])
    func damaged(fraction: Double) throws {
        let url = dir.appendingPathComponent("whole.heic")
        try HEIFGridWriter.write(try kite, tile: 256, to: url)
        let bytes = [UInt8](try Data(contentsOf: url))
        let cut = dir.appendingPathComponent("cut.heic")
        try Data(bytes.prefix(Int(Double(bytes.count) * fraction))).write(to: cut)
        var flipped = bytes
        for i in stride(from: Int(Double(bytes.count) * (1 - fraction)), to: bytes.count, by: 97) { flipped[i] ^= 0x5A }
        let garbled = dir.appendingPathComponent("garbled.heic")
        try Data(flipped).write(to: garbled)
        for url in [cut, garbled] {
            do {
                let d = try Fixtures.decode(url, .heic)
                #expect(d.image.pixels.count == d.image.width * d.image.height * 3)
            } catch let e as ImagingError {
                #expect(e.description.hasPrefix(url.lastPathComponent + ": ") && !e.description.contains("\n"), "\(e)")
            }
        }
        // Cut inside the coded data: the direct path refuses and libheif names the problem.
        if fraction < 0.9, fraction > 0.1 {
            #expect(throws: ImagingError.self) { try Fixtures.decode(cut, .heic) }
        }
    }
}
