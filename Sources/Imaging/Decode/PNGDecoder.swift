import CStreamDecode

/// PNG through libpng's row API, read from the descriptor a row at a time and reduced while
/// reading by the largest integer factor that keeps the long side ≥ `minLongSide`, so a
/// 100-megapixel PNG costs a row and the reduced image, not 300 MB of RGB (the simplified API
/// used before wants the whole image in one buffer). Every bit depth, palette, grey,
/// interlaced (Adam7 passes are placed where they belong, also without a full-size image);
/// 16-bit reduced to 8 and gamma handled as that API did; transparency composited on white in
/// sRGB values, as browsers and viewers on a light background show a logo or screenshot
/// (libpng's own compositing works in linear light and comes out visibly lighter than what
/// users see elsewhere). The box average is taken in the file's encoded values before its ICC
/// profile is applied, as the area downsample after it averages sRGB values: for the few
/// pixels each output pixel spans the difference is far below a level.
enum PNGDecoder {
    static func decode(fd: Int32, name: String, minLongSide: Int, orientation: Int, limits: DecodeLimits) throws -> DecodedImage {
        guard let png = shoebox_png_open(fd) else { throw ImagingError(.io, name, "out of memory") }
        defer { shoebox_png_close(png) }
        var width: UInt32 = 0, height: UInt32 = 0, interlaced: Int32 = 0
        guard shoebox_png_read_header(png, &width, &height, &interlaced) == 0 else {
            throw ImagingError(.corrupt, name, "not a decodable PNG: \(message(png))")
        }
        let w = Int(width), h = Int(height)
        guard w > 0, h > 0 else { throw ImagingError(.corrupt, name, "PNG declares an empty image") }
        guard limits.allows(width: w, height: h) else {
            throw ImagingError(.tooLarge, name, "\(w)×\(h) PNG is over the \(limits.maxPixels / 1_000_000)-megapixel limit")
        }
        let factor = BoxReduction.factor(longSide: max(w, h), minLongSide: minLongSide)
        let rw = (w + factor - 1) / factor, rh = (h + factor - 1) / factor
        var pixels = [UInt8](repeating: 0, count: rw * rh * 3)
        let status = pixels.withUnsafeMutableBufferPointer { shoebox_png_read_reduced(png, Int32(factor), $0.baseAddress) }
        // A truncated or corrupt PNG fails whole, as it always has: the rows before the damage
        // are not kept.
        guard status == 0 else {
            throw ImagingError(.corrupt, name, "PNG image data not decodable: \(message(png))")
        }
        var iccLength: UInt32 = 0
        if let icc = shoebox_png_icc(png, &iccLength), iccLength > 0 {
            ColorConversion.rgbToSRGB(&pixels, icc: Array(UnsafeBufferPointer(start: icc, count: Int(iccLength))))
        }
        let upright = Orientation.apply(orientation, to: RGBImage(width: rw, height: rh, pixels: pixels))
        let swaps = Orientation.swapsDimensions(orientation)
        return DecodedImage(image: upright, fullWidth: swaps ? h : w, fullHeight: swaps ? w : h, damaged: false,
                            source: factor == 1 ? .full : .boxReduced(factor: factor))
    }

    private static func message(_ png: OpaquePointer) -> String {
        String(cString: shoebox_png_message(png))
    }
}
