import CStreamDecode

/// The integer box reduction decoders apply while pixels come out of the library (PNG rows,
/// libheif's decoded plane), so the full-size image is never copied into Swift memory: only
/// the reduced one, which the area downsample then brings to the consumers' exact sizes.
enum BoxReduction {
    /// Sums of factor² values of 255 stay within 32 bits (see shoebox_box_init).
    static let maxFactor = 4096

    /// The largest factor whose reduced long side, rounded up, is still ≥ `minLongSide` (1 when
    /// the image is no larger than that).
    static func factor(longSide: Int, minLongSide: Int) -> Int {
        min(maxFactor, max(1, longSide / max(1, minLongSide)))
    }

    /// An interleaved 8-bit RGB or RGBA plane (rows `stride` bytes apart) reduced by `factor`,
    /// RGBA composited onto white (see shoebox_box). nil when the sums cannot be allocated.
    static func reduce(plane: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int, channels: Int,
                       premultiplied: Bool, factor: Int) -> RGBImage? {
        let rw = (width + factor - 1) / factor, rh = (height + factor - 1) / factor
        var pixels = [UInt8](repeating: 0, count: rw * rh * 3)
        let ok = pixels.withUnsafeMutableBufferPointer { out -> Bool in
            var box = shoebox_box()
            guard shoebox_box_init(&box, Int32(width), Int32(height), Int32(factor), Int32(channels),
                                   premultiplied ? 1 : 0, 1, out.baseAddress) == 0 else { return false }
            defer { shoebox_box_free(&box) }
            for y in 0..<height {
                shoebox_box_add(&box, Int32(y), 0, 1, plane + y * stride, Int32(width))
                if (y + 1) % factor == 0 || y + 1 == height { shoebox_box_flush(&box) }
            }
            return true
        }
        return ok ? RGBImage(width: rw, height: rh, pixels: pixels) : nil
    }
}
