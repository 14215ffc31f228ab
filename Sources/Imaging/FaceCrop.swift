/// Where a crop window goes over a photo with faces: the one rule of the story's bands
/// (Composer) and the collage's cells (Memories). A face is either whole in the crop — its box
/// and a margin for the forehead above, the chin below and the ears beside — or not in it at
/// all; the most important face (the largest, a blurred one counting less, then the one nearest
/// the photo's centre) is always whole when it fits; more faces are kept whole when they fit
/// with it; the window is centred on the faces it keeps whole, never on the gap between faces
/// it cannot hold together. Pure: sizes and boxes in, a position out.
public enum FaceCrop {
    /// A face box normalised to the upright image (x/y its top-left corner), with how sharp its
    /// pixels are when measured (`sharpness(in:of:)`: any unit, compared between the faces of
    /// one photo).
    public struct Face: Sendable, Equatable {
        public var x, y, w, h: Double
        public var sharpness: Double?
        public init(x: Double, y: Double, w: Double, h: Double, sharpness: Double? = nil) {
            self.x = x; self.y = y; self.w = w; self.h = h; self.sharpness = sharpness
        }
        public var area: Double { w * h }
    }

    /// What a crop does to one face.
    public enum Fate: Sendable, Equatable { case whole, cut, outside }

    /// The margin kept around a box, as shares of its height (above, below) and width (each
    /// side): a detector's box runs from the brows to the chin and not quite to the ears
    /// (CenterFace's boxes on the hand-boxed group photos: 10–25 % narrower than ear to ear).
    public static let margin = (top: 0.25, bottom: 0.1, side: 0.15)
    /// Faces at least this share of the largest one's importance are equally important: the
    /// one nearest the centre of the photo is kept first.
    static let tie = 0.8
    /// A crowd's smaller faces beyond this many are left out of the search (the cost grows with
    /// the square of the faces); the most important ones decide the crop.
    static let maxFaces = 32
    /// How many equally important faces are each tried as the one kept whole.
    static let maxContenders = 4

    /// The top-left corner of a `cropWidth`×`cropHeight` window inside a `width`×`height`
    /// image (any unit, the same for both). Without a face the window is centred.
    public static func place(width: Double, height: Double, cropWidth: Double, cropHeight: Double,
                             faces: [Face]) -> (x: Double, y: Double) {
        let cw = min(cropWidth, width), ch = min(cropHeight, height)
        let centred = ((width - cw) / 2, (height - ch) / 2)
        let boxes = ranked(faces, width: width, height: height)
        guard let top = boxes.first else { return centred }
        // Each face as important as the first (`tie`) may be the one kept whole: the first, the
        // nearest the centre, unless another one lets the crop cut fewer faces.
        let most = boxes.map(\.importance).max()!
        let contenders = boxes.indices.prefix { $0 < maxContenders && boxes[$0].importance >= tie * most }
        var best: Scene.Outcome?
        for c in contenders {
            var order = boxes
            order.swapAt(0, c)
            var scene = Scene(width: width, height: height, cw: cw, ch: ch, faces: order, margins: true)
            if !scene.fits(scene.faces[0].region) {
                scene = Scene(width: width, height: height, cw: cw, ch: ch, faces: order, margins: false)
            }
            guard scene.fits(scene.faces[0].region) else { continue }
            let o = scene.best()
            if best.map({ o.value > $0.value + 1e-9 * most }) ?? true { best = o }
        }
        // Not even the face fits: centred on it, nothing better is possible.
        guard let best else {
            return (clamp(top.box.midX - cw / 2, 0, width - cw), clamp(top.box.midY - ch / 2, 0, height - ch))
        }
        return (best.x, best.y)
    }

    /// The fate of each face of `faces` (in their order) under a crop at (`x`, `y`), in the
    /// same units as `width`×`height`.
    public static func fates(width: Double, height: Double, crop: (x: Double, y: Double, w: Double, h: Double),
                             faces: [Face]) -> [Fate] {
        let window = Rect(x0: crop.x, y0: crop.y, x1: crop.x + crop.w, y1: crop.y + crop.h)
        return faces.map { f in
            guard let b = Box(f, width: width, height: height, margins: true) else { return .outside }
            return b.fate(in: window, epsilon: 1e-6 * max(width, height))
        }
    }

    /// How sharp the face's pixels are: the mean absolute Laplacian of the luma (4-neighbour)
    /// inside the box. A face out of focus or moving scores lower than a crisp one of its size.
    public static func sharpness(in image: RGBImage, of face: Face) -> Double {
        let x0 = max(1, Int(face.x * Double(image.width))), y0 = max(1, Int(face.y * Double(image.height)))
        let x1 = min(image.width - 1, Int((face.x + face.w) * Double(image.width)))
        let y1 = min(image.height - 1, Int((face.y + face.h) * Double(image.height)))
        guard x1 > x0, y1 > y0 else { return 0 }
        let p = image.pixels, stride = image.width * 3
        func luma(_ i: Int) -> Int { (Int(p[i]) * 77 + Int(p[i + 1]) * 150 + Int(p[i + 2]) * 29) >> 8 }
        var sum = 0
        for y in y0..<y1 {
            for x in x0..<x1 {
                let i = y * stride + x * 3
                sum += abs(4 * luma(i) - luma(i - 3) - luma(i + 3) - luma(i - stride) - luma(i + stride))
            }
        }
        return Double(sum) / Double((x1 - x0) * (y1 - y0))
    }

    // MARK: The search

    /// The faces in pixels, most important first: the largest (its area halved at most for
    /// blur), those within `tie` of it ordered by distance to the photo's centre.
    static func ranked(_ faces: [Face], width: Double, height: Double) -> [Box] {
        let sharpest = faces.compactMap(\.sharpness).max() ?? 0
        var boxes = faces.compactMap { f -> Box? in
            guard var b = Box(f, width: width, height: height, margins: true) else { return nil }
            if let s = f.sharpness, sharpest > 0 { b.importance *= 0.5 + 0.5 * s / sharpest }
            return b
        }
        guard let top = boxes.map(\.importance).max() else { return [] }
        func centreDistance(_ b: Box) -> Double {
            let dx = (b.box.midX - width / 2) / width, dy = (b.box.midY - height / 2) / height
            return dx * dx + dy * dy
        }
        boxes.sort { a, b in
            let aTied = a.importance >= tie * top, bTied = b.importance >= tie * top
            if aTied != bTied { return aTied }
            if aTied, centreDistance(a) != centreDistance(b) { return centreDistance(a) < centreDistance(b) }
            return a.importance != b.importance ? a.importance > b.importance : (a.box.x0, a.box.y0) < (b.box.x0, b.box.y0)
        }
        return Array(boxes.prefix(maxFaces))
    }

    /// The faces and the window's size: the candidate positions and how good each is.
    struct Scene {
        let width, height, cw, ch: Double
        var faces: [Box]
        let epsilon: Double

        /// The importance of every face together: a cut of a face that is not background costs
        /// more than anything the crop could gain.
        let allFaces: Double
        /// A face smaller than this share of the main face's area (a quarter of its height) is
        /// background: cutting it only costs twice its importance.
        static let background = 1.0 / 16

        init(width: Double, height: Double, cw: Double, ch: Double, faces: [Box], margins: Bool) {
            self.width = width; self.height = height; self.cw = cw; self.ch = ch
            self.faces = margins ? faces : faces.map { var b = $0; b.region = b.box; return b }
            epsilon = 1e-6 * max(width, height)
            allFaces = faces.map(\.importance).reduce(0, +)
        }

        func fits(_ r: Rect) -> Bool { r.width <= cw + epsilon && r.height <= ch + epsilon }

        /// The best position: the main face whole; then the fewest faces cut (background faces
        /// aside); then the most importance kept whole, cut background faces counting twice
        /// against (a face cut is worse than a face left out); then the window nearest centred
        /// on what it keeps whole.
        func best() -> Outcome {
            let main = faces[0].region
            // Positions keeping the main face whole on each axis.
            let xRange = (max(0, main.x1 - cw), min(width - cw, main.x0))
            let yRange = (max(0, main.y1 - ch), min(height - ch, main.y0))
            var xs = candidates(\.x0, \.x1, size: cw, range: xRange)
            var ys = candidates(\.y0, \.y1, size: ch, range: yRange)
            var best = evaluate(xs: xs, ys: ys)
            // The centre of what the best keeps whole, tried on both axes (it may lie between
            // the edges the candidates came from).
            for _ in 0..<2 {
                let kept = union(of: best.whole)
                xs.append(clamp(kept.midX - cw / 2, xRange.0, xRange.1))
                ys.append(clamp(kept.midY - ch / 2, yRange.0, yRange.1))
                best = evaluate(xs: xs, ys: ys)
            }
            return best
        }

        /// Window starts along one axis: at each face's region's edges (holding it from either
        /// side, or just clear of it on either side), centred on each face and on the
        /// most important faces together, and the image's own edges; inside `range`.
        func candidates(_ lo: KeyPath<Rect, Double>, _ hi: KeyPath<Rect, Double>, size: Double,
                        range: (Double, Double)) -> [Double] {
            var out = [range.0, range.1]
            for (n, f) in faces.enumerated() {
                let r0 = f.region[keyPath: lo], r1 = f.region[keyPath: hi]
                out += [r0, r1 - size, r1, r0 - size, (f.box[keyPath: lo] + f.box[keyPath: hi] - size) / 2]
                let prefix = union(of: Array(0...n))
                out.append((prefix[keyPath: lo] + prefix[keyPath: hi] - size) / 2)
            }
            let clamped = out.map { clamp($0, range.0, range.1) }
            return Array(Set(clamped)).sorted()
        }

        struct Outcome { var x, y, value, distance: Double; var whole: [Int] }

        func evaluate(xs: [Double], ys: [Double]) -> Outcome {
            var best: Outcome?
            for y in ys {
                for x in xs {
                    let o = outcome(x: x, y: y)
                    guard let b = best else { best = o; continue }
                    if o.value > b.value + 1e-12 || (abs(o.value - b.value) <= 1e-12 && o.distance < b.distance - 1e-12) {
                        best = o
                    }
                }
            }
            return best!
        }

        func outcome(x: Double, y: Double) -> Outcome {
            let window = Rect(x0: x, y0: y, x1: x + cw, y1: y + ch)
            var value = 0.0, whole: [Int] = []
            for (i, f) in faces.enumerated() {
                let (fate, marginCut) = f.judge(in: window, epsilon: epsilon)
                switch fate {
                case .whole: value += (marginCut ? 0.75 : 1) * f.importance; whole.append(i)
                case .cut: value -= 2 * f.importance + (f.importance >= faces[0].importance * Self.background ? allFaces : 0)
                case .outside: value -= marginCut ? 0.25 * f.importance : 0
                }
            }
            let kept = union(of: whole)
            let dx = (window.midX - kept.midX) / cw, dy = (window.midY - kept.midY) / ch
            return Outcome(x: x, y: y, value: value, distance: dx * dx + dy * dy, whole: whole)
        }

        /// The smallest rectangle holding the boxes of `indices` (the main face's when empty).
        func union(of indices: [Int]) -> Rect {
            let boxes = (indices.isEmpty ? [0] : indices).map { faces[$0].box }
            return Rect(x0: boxes.map(\.x0).min()!, y0: boxes.map(\.y0).min()!,
                        x1: boxes.map(\.x1).max()!, y1: boxes.map(\.y1).max()!)
        }
    }

    struct Rect {
        var x0, y0, x1, y1: Double
        var width: Double { x1 - x0 }
        var height: Double { y1 - y0 }
        var midX: Double { (x0 + x1) / 2 }
        var midY: Double { (y0 + y1) / 2 }
    }

    /// One face in pixels: its box, the region that must be inside for it to be whole (the box
    /// and its margins, clipped to the image) and its importance.
    struct Box {
        var box: Rect
        var region: Rect
        var importance: Double

        init?(_ f: Face, width: Double, height: Double, margins: Bool) {
            let b = Rect(x0: max(0, f.x * width), y0: max(0, f.y * height),
                         x1: min(width, (f.x + f.w) * width), y1: min(height, (f.y + f.h) * height))
            guard b.x1 > b.x0, b.y1 > b.y0, b.x0.isFinite, b.y0.isFinite, b.x1.isFinite, b.y1.isFinite else { return nil }
            box = b
            let m = margins ? FaceCrop.margin : (top: 0, bottom: 0, side: 0)
            region = Rect(x0: max(0, b.x0 - m.side * b.width), y0: max(0, b.y0 - m.top * b.height),
                          x1: min(width, b.x1 + m.side * b.width), y1: min(height, b.y1 + m.bottom * b.height))
            importance = b.width * b.height
        }

        /// Whole: the window holds the region; outside: it does not overlap the region either
        /// (a window edge through an ear or the hair is a cut too); else cut.
        func fate(in w: Rect, epsilon e: Double) -> Fate {
            let (fate, marginCut) = judge(in: w, epsilon: e)
            return marginCut ? .cut : fate
        }

        /// The fate of the box itself, and whether the window's edge runs through the margin
        /// around it: when the margins cannot all be kept, an edge through a margin (hair, an
        /// ear) is a small fault and one through the face a large one.
        func judge(in w: Rect, epsilon e: Double) -> (fate: Fate, marginCut: Bool) {
            func holds(_ r: Rect) -> Bool { w.x0 <= r.x0 + e && w.x1 >= r.x1 - e && w.y0 <= r.y0 + e && w.y1 >= r.y1 - e }
            func clear(_ r: Rect) -> Bool { w.x1 <= r.x0 + e || w.x0 >= r.x1 - e || w.y1 <= r.y0 + e || w.y0 >= r.y1 - e }
            if holds(region) { return (.whole, false) }
            if clear(region) { return (.outside, false) }
            if holds(box) { return (.whole, true) }
            if clear(box) { return (.outside, true) }
            return (.cut, false)
        }
    }
}

private func clamp(_ v: Double, _ lo: Double, _ hi: Double) -> Double { min(hi, max(lo, v)) }
