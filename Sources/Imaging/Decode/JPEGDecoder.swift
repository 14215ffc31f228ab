import CTurboJPEG

/// JPEG through TurboJPEG, at the smallest power-of-two DCT scale still as large as the
/// consumers need, then the embedded profile to sRGB and EXIF orientation applied.
enum JPEGDecoder {
    /// Only 1/1, 1/2, 1/4 and 1/8: libjpeg-turbo's SIMD inverse DCTs cover these, while its
    /// other factors (3/8, 5/8…) run in plain C and would cost more than they save.
    static let denominators = [8, 4, 2, 1]

    static func decode(_ bytes: [UInt8], name: String, minLongSide: Int, orientation: Int,
                       limits: DecodeLimits) throws -> DecodedImage {
        guard let handle = tjInitDecompress() else {
            throw ImagingError(.corrupt, name, "TurboJPEG could not start a decompressor")
        }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsamp: Int32 = 0, colorspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &width, &height, &subsamp, &colorspace)
        }
        guard header == 0, width > 0, height > 0 else {
            throw ImagingError(.corrupt, name, "not a decodable JPEG: \(message(handle))")
        }
        let w = Int(width), h = Int(height)
        let denominator = chooseDenominator(longSide: max(w, h), minLongSide: minLongSide)
        // TJSCALED: rounding up, as the decompressor does.
        let sw = (w + denominator - 1) / denominator, sh = (h + denominator - 1) / denominator
        guard sw * sh <= limits.maxPixels else {
            throw ImagingError(.tooLarge, name,
                               "\(w)×\(h) JPEG is over the \(limits.maxPixels / 1_000_000)-megapixel limit even at 1/\(denominator) scale")
        }
        let cmyk = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        let channels = cmyk ? 4 : 3
        var pixels = [UInt8](repeating: 0, count: sw * sh * channels)
        let format = cmyk ? TJPF_CMYK : TJPF_RGB
        let status = bytes.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                tjDecompress2(handle, src.baseAddress, UInt(src.count), dst.baseAddress,
                              Int32(sw), 0, Int32(sh), Int32(format.rawValue), 0)
            }
        }
        var damaged = false
        if status != 0 {
            // A warning (corrupt entropy data, premature end) leaves the rest of the image
            // grey but decoded: keep the pixels and say so. A fatal error leaves nothing.
            guard tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else {
                throw ImagingError(.corrupt, name, "JPEG data not decodable: \(message(handle))")
            }
            damaged = true
        }
        let markers = JPEGMarkers(bytes)
        if cmyk {
            pixels = ColorConversion.cmykToSRGB(pixels, pixelCount: sw * sh, icc: markers.icc, inverted: markers.adobe)
        } else {
            ColorConversion.rgbToSRGB(&pixels, icc: markers.icc)
        }
        let image = Orientation.apply(orientation, to: RGBImage(width: sw, height: sh, pixels: pixels))
        let swaps = Orientation.swapsDimensions(orientation)
        return DecodedImage(image: image, fullWidth: swaps ? h : w, fullHeight: swaps ? w : h, damaged: damaged,
                            source: denominator == 1 ? .full : .dctScaled(denominator: denominator))
    }

    /// The largest denominator whose result is still at least `minLongSide` long (1 when the
    /// image is no larger than that).
    static func chooseDenominator(longSide: Int, minLongSide: Int) -> Int {
        denominators.first { (longSide + $0 - 1) / $0 >= minLongSide } ?? 1
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let m = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: m)
    }
}
