import CStreamDecode
import CTIFF
import Metadata

/// A plain TIFF through libtiff's RGBA interface, which knows every photometric, bit depth,
/// compression and layout (strips or tiles) libtiff reads, 16-bit brought to 8 and alpha
/// premultiplied. Read a band of rows at a time (`row_offset`) through the descriptor and reduced
/// while reading as PNG rows are (`BoxReduction`), so a large scan never exists at full size in
/// memory. The first directory only (a multi-page TIFF is its first page).
enum TIFFDecoder {
    /// A band's RGBA buffer stays about this large, whatever the width.
    static let bandBytes = 16 << 20

    static func decode(fd: Int32, name: String, minLongSide: Int, orientation: Int?, limits: DecodeLimits) throws -> DecodedImage {
        let source = FileByteSource(fd: fd, size: try FileBytes.size(fd, name: name))
        let tiff: TIFFFile
        do { tiff = try TIFFFile(source, name: name) } catch {
            throw ImagingError(.corrupt, name, "\(error)")
        }
        var message = [CChar](repeating: 0, count: 1024)
        var img = TIFFRGBAImage()
        guard TIFFRGBAImageOK(tiff.handle, &message) == 1, TIFFRGBAImageBegin(&img, tiff.handle, 0, &message) == 1 else {
            throw ImagingError(.unsupported, name, "TIFF not decodable: \(text(message))")
        }
        defer { TIFFRGBAImageEnd(&img) }
        let w = Int(img.width), h = Int(img.height)
        guard w > 0, h > 0 else { throw ImagingError(.corrupt, name, "TIFF declares an empty image") }
        guard limits.allows(width: w, height: h) else {
            throw ImagingError(.tooLarge, name, "\(w)×\(h) TIFF is over the \(limits.maxPixels / 1_000_000)-megapixel limit")
        }
        // Rows as stored, top first: the orientation is applied below, as for every format.
        img.req_orientation = img.orientation
        let factor = BoxReduction.factor(longSide: max(w, h), minLongSide: minLongSide)
        let (reduced, failedBands, bands) = try readReduced(&img, width: w, height: h, factor: factor, name: name)
        guard failedBands < bands else {
            throw ImagingError(.corrupt, name, "TIFF image data not decodable: \(tiff.lastError ?? "no row could be read")")
        }
        var pixels = reduced
        if let icc = tiff.iccProfile() { ColorConversion.rgbToSRGB(&pixels, icc: icc) }
        let o = orientation ?? Int(img.orientation)
        let rw = (w + factor - 1) / factor, rh = (h + factor - 1) / factor
        let upright = Orientation.apply((1...8).contains(o) ? o : 1, to: RGBImage(width: rw, height: rh, pixels: pixels))
        let swaps = Orientation.swapsDimensions(o)
        return DecodedImage(image: upright, fullWidth: swaps ? h : w, fullHeight: swaps ? w : h, damaged: failedBands > 0,
                            source: factor == 1 ? .full : .boxReduced(factor: factor))
    }

    /// Bands of rows through `TIFFRGBAImageGet` into the box reduction: the reduced RGB pixels,
    /// and how many of how many bands libtiff could not read whole (a truncated strip).
    private static func readReduced(_ img: inout TIFFRGBAImage, width w: Int, height h: Int, factor: Int,
                                    name: String) throws -> ([UInt8], Int, Int) {
        let rw = (w + factor - 1) / factor, rh = (h + factor - 1) / factor
        var pixels = [UInt8](repeating: 0, count: rw * rh * 3)
        let bandRows = max(1, min(h, bandBytes / (w * 4)))
        var raster = [UInt32](repeating: 0, count: w * bandRows)
        var failed = 0, bands = 0
        let ok = pixels.withUnsafeMutableBufferPointer { out -> Bool in
            var box = shoebox_box()
            // RGBA out of libtiff is premultiplied (unassociated alpha is multiplied in).
            guard shoebox_box_init(&box, Int32(w), Int32(h), Int32(factor), 4, 1, 1, out.baseAddress) == 0 else { return false }
            defer { shoebox_box_free(&box) }
            var y = 0
            while y < h {
                let rows = min(bandRows, h - y)
                img.row_offset = Int32(y)
                bands += 1
                let got = raster.withUnsafeMutableBufferPointer { TIFFRGBAImageGet(&img, $0.baseAddress, UInt32(w), UInt32(rows)) }
                if got != 1 { failed += 1 }
                raster.withUnsafeBytes { bytes in
                    let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    for r in 0..<rows {
                        // Each pixel is R, G, B, A in memory (libtiff packs ABGR into a little-endian word).
                        shoebox_box_add(&box, Int32(y + r), 0, 1, base + r * w * 4, Int32(w))
                        if (y + r + 1) % factor == 0 || y + r + 1 == h { shoebox_box_flush(&box) }
                    }
                }
                y += rows
            }
            return true
        }
        guard ok else { throw ImagingError(.io, name, "out of memory") }
        return (pixels, failed, bands)
    }

    private static func text(_ message: [CChar]) -> String {
        let s = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return s.isEmpty ? "unsupported layout" : s
    }
}

extension TIFFFile {
    /// The embedded ICC profile (tag 34675), when there is one.
    func iccProfile() -> [UInt8]? {
        bytes(UInt32(TIFFTAG_ICCPROFILE), limit: 16 << 20)
    }
}
