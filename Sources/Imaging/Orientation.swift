/// EXIF orientation 1…8 applied to decoded pixels: the stored image turned and mirrored so it
/// reads upright. Also used for a movie's display rotation (6, 3 and 8 are 90°, 180° and 270°
/// clockwise).
public enum Orientation {
    /// The upright image for pixels stored with EXIF `orientation` (1, or anything outside
    /// 1…8, gives the image back as it is).
    public static func apply(_ orientation: Int, to image: RGBImage) -> RGBImage {
        guard (2...8).contains(orientation) else { return image }
        let w = image.width, h = image.height
        let swaps = orientation >= 5
        let outW = swaps ? h : w, outH = swaps ? w : h
        var out = [UInt8](repeating: 0, count: outW * outH * 3)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<outH {
                    for x in 0..<outW {
                        // The stored pixel that lands at (x, y) of the upright image.
                        let sx: Int, sy: Int
                        switch orientation {
                        case 2: (sx, sy) = (w - 1 - x, y)             // mirrored left-right
                        case 3: (sx, sy) = (w - 1 - x, h - 1 - y)     // turned 180°
                        case 4: (sx, sy) = (x, h - 1 - y)             // mirrored top-bottom
                        case 5: (sx, sy) = (y, x)                     // transposed
                        case 6: (sx, sy) = (y, h - 1 - x)             // needs 90° clockwise
                        case 7: (sx, sy) = (w - 1 - y, h - 1 - x)     // transversed
                        default: (sx, sy) = (w - 1 - y, x)            // 8: needs 90° anticlockwise
                        }
                        let s = (sy * w + sx) * 3, d = (y * outW + x) * 3
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
        return RGBImage(width: outW, height: outH, pixels: out)
    }

    /// Whether the orientation swaps width and height (5…8).
    public static func swapsDimensions(_ orientation: Int) -> Bool { (5...8).contains(orientation) }
}
