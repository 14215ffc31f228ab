import CPNG

/// PNG through libpng's simplified API: every bit depth, palette, grey, interlaced; 16-bit
/// reduced to 8; transparency composited on white in sRGB values, as browsers and viewers on a
/// light background show a logo or screenshot (libpng's own compositing works in linear light
/// and comes out visibly lighter than what users see elsewhere). The simplified API reports
/// errors as a message instead of libpng's longjmp, which Swift cannot catch.
enum PNGDecoder {
    static func decode(_ bytes: [UInt8], name: String, orientation: Int, limits: DecodeLimits) throws -> DecodedImage {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        let begun = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard begun != 0 else {
            throw ImagingError(.corrupt, name, "not a decodable PNG: \(message(&image))")
        }
        let w = Int(image.width), h = Int(image.height)
        guard w > 0, h > 0 else { throw ImagingError(.corrupt, name, "PNG declares an empty image") }
        guard w * h <= limits.maxPixels else {
            throw ImagingError(.tooLarge, name, "\(w)×\(h) PNG is over the \(limits.maxPixels / 1_000_000)-megapixel limit")
        }
        let hasAlpha = image.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0
        image.format = UInt32(PNG_FORMAT_RGB) | (hasAlpha ? UInt32(PNG_FORMAT_FLAG_ALPHA) : 0)
        var pixels = [UInt8](repeating: 0, count: w * h * (hasAlpha ? 4 : 3))
        let finished = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        // A truncated or corrupt PNG fails whole here: libpng gives no partial image to keep.
        guard finished != 0 else {
            throw ImagingError(.corrupt, name, "PNG image data not decodable: \(message(&image))")
        }
        if hasAlpha { pixels = onWhite(consume pixels, count: w * h) }
        if let icc = PNGChunks.iccProfile(bytes) {
            ColorConversion.rgbToSRGB(&pixels, icc: icc)
        }
        let upright = Orientation.apply(orientation, to: RGBImage(width: w, height: h, pixels: pixels))
        let swaps = Orientation.swapsDimensions(orientation)
        return DecodedImage(image: upright, fullWidth: swaps ? h : w, fullHeight: swaps ? w : h, damaged: false, source: .full)
    }

    /// RGBA (not premultiplied) over white, c·a + 255·(1 − a) rounded, packed to RGB in the
    /// same buffer (pixel i's RGB never overtakes pixel i's RGBA), so a large PNG does not need
    /// a second full-size buffer.
    private static func onWhite(_ rgba: [UInt8], count: Int) -> [UInt8] {
        var buffer = rgba
        buffer.withUnsafeMutableBufferPointer { p in
            for i in 0..<count {
                let a = Int(p[i * 4 + 3])
                let r = p[i * 4], g = p[i * 4 + 1], b = p[i * 4 + 2]
                p[i * 3] = UInt8((Int(r) * a + 255 * (255 - a) + 127) / 255)
                p[i * 3 + 1] = UInt8((Int(g) * a + 255 * (255 - a) + 127) / 255)
                p[i * 3 + 2] = UInt8((Int(b) * a + 255 * (255 - a) + 127) / 255)
            }
        }
        buffer.removeSubrange((count * 3)...)
        return buffer
    }

    private static func message(_ image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? "unknown error" : String(decoding: bytes, as: UTF8.self)
        }
    }
}
