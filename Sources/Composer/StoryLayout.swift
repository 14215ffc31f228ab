/// Where each photo goes in a story (brief 001): a 1080×1920 canvas cut into N equal bands top
/// to bottom, each filled by its photo scaled to cover the band (aspect-fill) and cropped, the
/// crop centred, or centred on the photo's faces when they are known. Pure arithmetic, so the
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

    /// A face box normalised to the upright image (x/y the top-left corner), as the asset has it.
    public struct Box: Equatable, Sendable {
        public var x, y, w, h: Double
        public init(x: Double, y: Double, w: Double, h: Double) { self.x = x; self.y = y; self.w = w; self.h = h }
    }

    /// The fill of a `sourceWidth`×`sourceHeight` image into a `width`×`height` band. The scale
    /// is the larger of the two ratios, the scaled sides rounded (never below the band's); the
    /// window is centred (ImageMagick's `-gravity center -extent`: the surplus halved, rounded
    /// down), or, with `faces`, centred on the union of their boxes and then moved just enough
    /// to stay inside the scaled image.
    public static func fill(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, faces: [Box] = []) -> Fill {
        precondition(sourceWidth > 0 && sourceHeight > 0 && width > 0 && height > 0, "sizes are positive")
        let scale = max(Double(width) / Double(sourceWidth), Double(height) / Double(sourceHeight))
        let sw = max(width, Int((Double(sourceWidth) * scale).rounded()))
        let sh = max(height, Int((Double(sourceHeight) * scale).rounded()))
        var x = (sw - width) / 2, y = (sh - height) / 2
        if let union = union(faces) {
            x = clamp(Int((union.x + union.w / 2) * Double(sw) - Double(width) / 2), 0, sw - width)
            y = clamp(Int((union.y + union.h / 2) * Double(sh) - Double(height) / 2), 0, sh - height)
        }
        return Fill(scaledWidth: sw, scaledHeight: sh, x: x, y: y)
    }

    /// The smallest box holding every face (boxes clipped to the image first); nil without faces.
    static func union(_ faces: [Box]) -> Box? {
        let clipped = faces.compactMap { f -> (Double, Double, Double, Double)? in
            let x0 = max(0, min(1, f.x)), y0 = max(0, min(1, f.y))
            let x1 = max(0, min(1, f.x + f.w)), y1 = max(0, min(1, f.y + f.h))
            guard x1 > x0, y1 > y0, x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return nil }
            return (x0, y0, x1, y1)
        }
        guard let first = clipped.first else { return nil }
        var (x0, y0, x1, y1) = first
        for (a, b, c, d) in clipped.dropFirst() {
            x0 = min(x0, a); y0 = min(y0, b); x1 = max(x1, c); y1 = max(y1, d)
        }
        return Box(x: x0, y: y0, w: x1 - x0, h: y1 - y0)
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
