import Imaging

/// Where each photo goes in a story (brief 001): a 1080×1920 canvas cut into N equal bands top
/// to bottom, each filled by its photo scaled to cover the band (aspect-fill) and cropped, the
/// crop centred, or placed on the photo's faces when they are known (`FaceCrop`). Pure arithmetic, so the
/// geometry is tested without pixels.
public enum StoryLayout {
    public static let width = 1080
    public static let height = 1920

    /// One band of the canvas: rows `y ..< y + height`.
    public struct Band: Equatable, Sendable {
        public var y: Int
        public var height: Int
    }

    /// The N bands, tiling the canvas exactly: band i runs from i·1920/N to (i+1)·1920/N (integer
    /// division), so any remainder is spread over the bands, never a row left blank (1920 is a
    /// multiple of 1…4, so every band of a story is 1920/N rows).
    public static func bands(_ count: Int) -> [Band] {
        precondition(count > 0, "a story has at least one band")
        return (0..<count).map { i in
            let top = i * height / count, bottom = (i + 1) * height / count
            return Band(y: top, height: bottom - top)
        }
    }

    /// How one photo fills one band: scaled to `scaledWidth`×`scaledHeight` (the smallest size
    /// covering the band with the photo's aspect), then the band-sized window at (`x`, `y`).
    public struct Fill: Equatable, Sendable {
        public var scaledWidth: Int
        public var scaledHeight: Int
        public var x: Int
        public var y: Int
    }

    /// A face box normalised to the upright image (x/y the top-left corner), as the asset has it,
    /// with its measured sharpness when known: the rule shared with Memories' cells.
    public typealias Box = FaceCrop.Face

    /// The fill of a `sourceWidth`×`sourceHeight` image into a `width`×`height` band. The scale
    /// is the larger of the two ratios, the scaled sides rounded (never below the band's); the
    /// window is centred (ImageMagick's `-gravity center -extent`: the surplus halved, rounded
    /// down), or, with `faces`, placed by `FaceCrop` (each face whole or left out, the most
    /// important one whole, centred on the faces kept), on whole pixels of the scaled image.
    public static func fill(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, faces: [Box] = []) -> Fill {
        precondition(sourceWidth > 0 && sourceHeight > 0 && width > 0 && height > 0, "sizes are positive")
        let scale = max(Double(width) / Double(sourceWidth), Double(height) / Double(sourceHeight))
        let sw = max(width, Int((Double(sourceWidth) * scale).rounded()))
        let sh = max(height, Int((Double(sourceHeight) * scale).rounded()))
        var x = (sw - width) / 2, y = (sh - height) / 2
        if !faces.isEmpty {
            let at = FaceCrop.place(width: Double(sw), height: Double(sh), cropWidth: Double(width), cropHeight: Double(height),
                                    faces: faces)
            // On whole pixels of the scaled image, as the window is cut (under a pixel of margin at most).
            x = clamp(Int(at.x.rounded(.down)), 0, sw - width)
            y = clamp(Int(at.y.rounded(.down)), 0, sh - height)
        }
        return Fill(scaledWidth: sw, scaledHeight: sh, x: x, y: y)
    }

    private static func clamp(_ v: Int, _ lo: Int, _ hi: Int) -> Int { min(hi, max(lo, v)) }

    /// How much larger than the band the decode stays before the area scaling. A decode reduced
    /// by a DCT scale or a box of k pixels blurs by that box on top of the area scaling's own
    /// (k + final ratio wide instead of the final ratio alone): kept at most half the final
    /// ratio, the extra softness is small (measured against ImageMagick's Lanczos crop:
    /// docs/BENCHMARKS.md), while a 12-megapixel JPEG is still decoded at half size for a band
    /// of a four-photo story.
    public static let decodeOversampling = 2.0

    /// The long side a decode must reach: the upright long side times the fill's scale times
    /// `decodeOversampling`, rounded up (a JPEG is DCT-scaled, a HEIC box-reduced, no further).
    /// Nil when the index does not know the photo's size.
    public static func decodeLongSide(fullWidth: Int, fullHeight: Int, width: Int, height: Int) -> Int? {
        guard fullWidth > 0, fullHeight > 0 else { return nil }
        let scale = max(Double(width) / Double(fullWidth), Double(height) / Double(fullHeight))
        return Int((Double(max(fullWidth, fullHeight)) * scale * decodeOversampling).rounded(.up))
    }
}
