import Imaging

/// The collage's geometry (brief 003, original spec): a 1200×1500 (4:5) canvas, a 2×3 grid of
/// six cells with thin white gutters (12 px between cells and around them), each cell 582×484.
public struct CollageLayout: Sendable, Equatable {
    public var width = 1200
    public var height = 1500
    public var columns = 2
    public var rows = 3
    public var gutter = 12

    public init() {}

    public var count: Int { columns * rows }
    public var cellWidth: Int { (width - gutter * (columns + 1)) / columns }
    public var cellHeight: Int { (height - gutter * (rows + 1)) / rows }
    /// Width over height of every cell.
    public var cellAspect: Double { Double(cellWidth) / Double(cellHeight) }

    /// How many times a cell enlarges an upright `width`×`height` photo: the cell over the
    /// largest crop of its shape the photo holds; nil when the size is unknown.
    public func enlargement(width: Int, height: Int) -> Double? {
        guard width > 0, height > 0 else { return nil }
        let cropWidth = min(Double(width), Double(height) * cellAspect)
        return Double(cellWidth) / cropWidth
    }

    /// Cell `i` (0 top-left, row by row: the best photo first).
    public func cell(_ i: Int) -> PixelRect {
        PixelRect(x: gutter + (i % columns) * (cellWidth + gutter), y: gutter + (i / columns) * (cellHeight + gutter),
                  width: cellWidth, height: cellHeight)
    }
}

/// A crop normalised to the upright source image: x/y its top-left corner, w/h shares of the
/// image's width and height.
public struct NormalizedRect: Sendable, Equatable {
    public var x: Double, y: Double, w: Double, h: Double
    public init(x: Double, y: Double, w: Double, h: Double) { self.x = x; self.y = y; self.w = w; self.h = h }

    /// The whole pixels it covers in a `width`×`height` image (at least one, inside the image).
    public func pixels(width: Int, height: Int) -> PixelRect {
        let x0 = max(0, min(width - 1, Int((x * Double(width)).rounded())))
        let y0 = max(0, min(height - 1, Int((y * Double(height)).rounded())))
        let x1 = max(x0 + 1, min(width, Int(((x + w) * Double(width)).rounded())))
        let y1 = max(y0 + 1, min(height, Int(((y + h) * Double(height)).rounded())))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// Face-aware crops (brief 003): the largest crop of the cell's aspect ratio that the image
/// holds, placed by `FaceCrop` — the rule the story's bands follow too: each face whole (with
/// its forehead and chin) or not in the cell at all, the most important face always whole, more
/// of them when they fit, centred on the faces kept; a centre crop when there is no face. Pure:
/// sizes and boxes in, a rectangle out.
public enum CropPlanner {
    /// The crop for an upright `width`×`height` image with `faces` (normalised, top-left; their
    /// sharpness when measured) in a cell of `aspect` (width / height).
    public static func crop(width: Int, height: Int, faces: [FaceBox], aspect: Double) -> NormalizedRect {
        guard width > 0, height > 0 else { return NormalizedRect(x: 0, y: 0, w: 1, h: 1) }
        let W = Double(width), H = Double(height)
        // The largest crop of the cell's shape, in pixels.
        let cw = min(W, H * aspect), ch = min(H, W / aspect)
        let at = FaceCrop.place(width: W, height: H, cropWidth: cw, cropHeight: ch, faces: faces)
        return NormalizedRect(x: at.x / W, y: at.y / H, w: cw / W, h: ch / H)
    }
}
