import Foundation

/// The repository's real group photographs with every face boxed by hand, hairline to chin
/// (`test-data/faces/`: boxes.json, licences in SOURCES.md), and a judge of crops over them
/// that knows nothing of the crop rule: a face is whole when the crop holds its hand box, left
/// out when the crop does not overlap it, and cut otherwise.
public enum GroupPhotos {
    public struct Photo: Decodable, Sendable {
        public var file: String
        public var width: Int
        public var height: Int
        /// [x, y, w, h] in pixels, top-left origin.
        public var faces: [[Double]]

        /// The faces normalised to the image (x, y, w, h).
        public var normalisedFaces: [(x: Double, y: Double, w: Double, h: Double)] {
            faces.map { (x: $0[0] / Double(width), y: $0[1] / Double(height), w: $0[2] / Double(width), h: $0[3] / Double(height)) }
        }

        /// The index of the largest face.
        public var largest: Int { faces.indices.max { faces[$0][2] * faces[$0][3] < faces[$1][2] * faces[$1][3] }! }
    }

    public enum Fate: String, Sendable { case whole, cut, outside }

    public static let folder = TestRoll.repositoryRoot.appendingPathComponent("test-data/faces")

    /// Every photo of boxes.json.
    public static func all() throws -> [Photo] {
        struct Boxes: Decodable { var photos: [Photo] }
        return try JSONDecoder().decode(Boxes.self, from: Data(contentsOf: folder.appendingPathComponent("boxes.json"))).photos
    }

    /// Those with two faces or more.
    public static func groups() throws -> [Photo] { try all().filter { $0.faces.count >= 2 } }

    /// What a crop (normalised x, y, w, h of the photo) does to each hand-boxed face, with half a
    /// pixel of slack for a crop cut on whole pixels.
    public static func fates(of photo: Photo, crop: (x: Double, y: Double, w: Double, h: Double)) -> [Fate] {
        let W = Double(photo.width), H = Double(photo.height), e = 0.5
        let cx0 = crop.x * W, cy0 = crop.y * H, cx1 = (crop.x + crop.w) * W, cy1 = (crop.y + crop.h) * H
        return photo.faces.map { b in
            let (x0, y0, x1, y1) = (b[0], b[1], b[0] + b[2], b[1] + b[3])
            if cx0 <= x0 + e && cy0 <= y0 + e && cx1 >= x1 - e && cy1 >= y1 - e { return .whole }
            if cx1 <= x0 + e || cx0 >= x1 - e || cy1 <= y0 + e || cy0 >= y1 - e { return .outside }
            return .cut
        }
    }

    /// Whether some window of `w`×`h` (shares of the photo) keeps one of the largest faces
    /// (within 20 % of the largest's area) whole and cuts none: tried at every whole pixel.
    public static func cutFreeExists(_ photo: Photo, w: Double, h: Double) -> Bool {
        let W = Double(photo.width), H = Double(photo.height)
        let big = photo.faces[photo.largest], tier = 0.8 * big[2] * big[3]
        let cw = w * W, ch = h * H
        for y in stride(from: 0.0, through: max(0, H - ch), by: 1) {
            for x in stride(from: 0.0, through: max(0, W - cw), by: 1) {
                let fates = fates(of: photo, crop: (x / W, y / H, w, h))
                if !fates.contains(.cut) && photo.faces.indices.contains(where: { fates[$0] == .whole && photo.faces[$0][2] * photo.faces[$0][3] >= tier }) {
                    return true
                }
            }
        }
        return false
    }
}
