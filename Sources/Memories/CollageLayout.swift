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
/// holds, placed so that the faces are inside it whole and as near its centre as the image's
/// edges allow; a centre crop when there is no face. Pure: sizes and boxes in, a rectangle out.
public enum CropPlanner {
    /// Room kept around a face box (a detector's box runs from the brows to the chin; hair,
    /// ears and a tagger's looser box lie outside it): a quarter of its size on each side,
    /// less when the crop cannot hold that much.
    static let headroom = 0.25

    /// The crop for an upright `width`×`height` image with `faces` (normalised, top-left) in a
    /// cell of `aspect` (width / height). With several faces, all are kept when they fit
    /// together, else the largest.
    public static func crop(width: Int, height: Int, faces: [FaceBox], aspect: Double) -> NormalizedRect {
        guard width > 0, height > 0 else { return NormalizedRect(x: 0, y: 0, w: 1, h: 1) }
        let W = Double(width), H = Double(height)
        // The largest crop of the cell's shape, in pixels.
        let cw = min(W, H * aspect), ch = min(H, W / aspect)
        guard let focus = region(faces, W: W, H: H, cw: cw, ch: ch) else {
            return NormalizedRect(x: (W - cw) / 2 / W, y: (H - ch) / 2 / H, w: cw / W, h: ch / H)
        }
        let x = place(focus.x, focus.w, crop: cw, size: W)
        let y = place(focus.y, focus.h, crop: ch, size: H)
        return NormalizedRect(x: x / W, y: y / H, w: cw / W, h: ch / H)
    }

    /// Where a crop of length `crop` starts along one axis of length `size` so that the span
    /// [start, start + length] is inside it, centred on the span when the edges allow.
    static func place(_ start: Double, _ length: Double, crop: Double, size: Double) -> Double {
        let centred = start + length / 2 - crop / 2
        let lowest = max(0, start + length - crop), highest = min(size - crop, start)
        return lowest <= highest ? min(highest, max(lowest, centred)) : max(0, min(size - crop, centred))
    }

    /// The pixel box to keep inside the crop: the faces (all, when they fit together; else the
    /// largest) with as much headroom as fits, clipped to the image. Nil without faces.
    static func region(_ faces: [FaceBox], W: Double, H: Double, cw: Double, ch: Double) -> (x: Double, y: Double, w: Double, h: Double)? {
        let boxes = faces.filter { $0.w > 0 && $0.h > 0 }.map { (x: $0.x * W, y: $0.y * H, w: $0.w * W, h: $0.h * H) }
        guard let largest = boxes.max(by: { $0.w * $0.h < $1.w * $1.h }) else { return nil }
        var box = union(boxes)
        if box.w > cw || box.h > ch { box = largest }
        // Headroom on each axis, as much of it as the crop holds.
        let padW = min(box.w * (1 + 2 * headroom), max(box.w, cw)), padH = min(box.h * (1 + 2 * headroom), max(box.h, ch))
        let x0 = max(0, box.x - (padW - box.w) / 2), y0 = max(0, box.y - (padH - box.h) / 2)
        let x1 = min(W, box.x + box.w + (padW - box.w) / 2), y1 = min(H, box.y + box.h + (padH - box.h) / 2)
        return (x0, y0, x1 - x0, y1 - y0)
    }

    static func union(_ boxes: [(x: Double, y: Double, w: Double, h: Double)]) -> (x: Double, y: Double, w: Double, h: Double) {
        let x0 = boxes.map(\.x).min()!, y0 = boxes.map(\.y).min()!
        let x1 = boxes.map { $0.x + $0.w }.max()!, y1 = boxes.map { $0.y + $0.h }.max()!
        return (x0, y0, x1 - x0, y1 - y0)
    }
}
