// crop-bench: how often a crop keeps the faces of real group photos (test-data/faces: the five
// with two faces or more, 18 faces boxed by hand, hairline to chin) — the story's four band shapes
// and the collage's cell.
//
//     crop-bench [--detector] [--json FILE]
//
// A crop "keeps the faces" when no hand-boxed face is cut (each is whole in the crop or out of
// it) and one of the largest (within 20 % of the largest's area) is whole. Each photo × shape is
// one crop; "possible" counts the crops for which some window of that shape, tried at every
// pixel, keeps the faces (a face taller than a quarter band cannot be whole). The faces given to
// the rules are the hand boxes, or with --detector the boxes the pipeline's detector (CenterFace)
// finds on the decoded photo. Rules: `FaceCrop` (the one rule of Composer and Memories), and for
// comparison the two it replaced: the window centred on the union of all faces (Composer's) and
// all faces when they fit else the largest, with a quarter of headroom (Memories').
import Faces
import Foundation
import Imaging
import Metadata

struct Photo: Decodable { var file: String; var width: Int; var height: Int; var faces: [[Double]] }
struct Boxes: Decodable { var photos: [Photo] }
typealias Rect = (x: Double, y: Double, w: Double, h: Double)

let args = Array(CommandLine.arguments.dropFirst())
let useDetector = args.contains("--detector")
let jsonPath = args.firstIndex(of: "--json").map { args[$0 + 1] }
let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("test-data/faces")
/// The group photos: two faces or more (5 photos, 18 faces).
let photos = try JSONDecoder().decode(Boxes.self, from: Data(contentsOf: folder.appendingPathComponent("boxes.json"))).photos
    .filter { $0.faces.count >= 2 }

/// Width over height of each crop shape: a band of a 1-, 2-, 3- and 4-photo story, a collage cell.
let shapes: [(name: String, aspect: Double)] = [("story band 1/1", 1080.0 / 1920), ("story band 1/2", 1080.0 / 960),
                                               ("story band 1/3", 1080.0 / 640), ("story band 1/4", 1080.0 / 480),
                                               ("collage cell", 582.0 / 484)]

enum Fate { case whole, cut, outside }

/// The hand boxes' fates under `crop` (pixels), half a pixel of slack.
func fates(_ p: Photo, _ c: Rect) -> [Fate] {
    p.faces.map { b in
        let e = 0.5
        if c.x <= b[0] + e && c.y <= b[1] + e && c.x + c.w >= b[0] + b[2] - e && c.y + c.h >= b[1] + b[3] - e { return .whole }
        if c.x + c.w <= b[0] + e || c.x >= b[0] + b[2] - e || c.y + c.h <= b[1] + e || c.y >= b[1] + b[3] - e { return .outside }
        return .cut
    }
}

func keeps(_ p: Photo, _ c: Rect) -> Bool {
    let f = fates(p, c), largest = p.faces.map { $0[2] * $0[3] }.max()!
    return !f.contains(.cut) && p.faces.indices.contains { f[$0] == .whole && p.faces[$0][2] * p.faces[$0][3] >= 0.8 * largest }
}

func possible(_ p: Photo, w: Double, h: Double) -> Bool {
    for y in stride(from: 0.0, through: Double(p.height) - h, by: 1) {
        for x in stride(from: 0.0, through: Double(p.width) - w, by: 1) where keeps(p, (x, y, w, h)) { return true }
    }
    return false
}

func clamp(_ v: Double, _ lo: Double, _ hi: Double) -> Double { min(hi, max(lo, v)) }

/// The rules, each: photo size, crop size, faces (pixels) → the crop's top-left corner.
let rules: [(name: String, place: (Photo, Double, Double, [Rect]) -> (Double, Double))] = [
    ("FaceCrop", { p, w, h, faces in
        let W = Double(p.width), H = Double(p.height)
        return FaceCrop.place(width: W, height: H, cropWidth: w, cropHeight: h,
                              faces: faces.map { FaceCrop.Face(x: $0.x / W, y: $0.y / H, w: $0.w / W, h: $0.h / H) })
    }),
    ("centred on the union (Composer before)", { p, w, h, faces in
        let u = union(faces)
        return (clamp(u.x + u.w / 2 - w / 2, 0, Double(p.width) - w), clamp(u.y + u.h / 2 - h / 2, 0, Double(p.height) - h))
    }),
    ("all or the largest (Memories before)", { p, w, h, faces in
        var box = union(faces)
        if box.w > w || box.h > h { box = faces.max { $0.w * $0.h < $1.w * $1.h }! }
        let padW = min(box.w * 1.5, max(box.w, w)), padH = min(box.h * 1.5, max(box.h, h))
        let r = (x: max(0, box.x - (padW - box.w) / 2), y: max(0, box.y - (padH - box.h) / 2),
                 x1: min(Double(p.width), box.x + box.w + (padW - box.w) / 2), y1: min(Double(p.height), box.y + box.h + (padH - box.h) / 2))
        func place(_ s: Double, _ l: Double, _ c: Double, _ size: Double) -> Double {
            let centred = s + l / 2 - c / 2, lo = max(0, s + l - c), hi = min(size - c, s)
            return lo <= hi ? min(hi, max(lo, centred)) : clamp(centred, 0, size - c)
        }
        return (place(r.x, r.x1 - r.x, w, Double(p.width)), place(r.y, r.y1 - r.y, h, Double(p.height)))
    }),
]

func union(_ b: [Rect]) -> Rect {
    let x0 = b.map(\.x).min()!, y0 = b.map(\.y).min()!
    return (x0, y0, b.map { $0.x + $0.w }.max()! - x0, b.map { $0.y + $0.h }.max()! - y0)
}

/// The faces the rules are given: the hand boxes, or the detector's on the decoded photo.
func faces(of p: Photo, detector: FaceDetector?) throws -> [Rect] {
    guard let detector else { return p.faces.map { ($0[0], $0[1], $0[2], $0[3]) } }
    let path = folder.appendingPathComponent(p.file).path
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw NSError(domain: "crop-bench", code: 1, userInfo: [NSLocalizedDescriptionKey: "cannot open \(path)"]) }
    defer { close(fd) }
    let image = try ImageDecoder.decode(fileDescriptor: fd, name: p.file, format: .jpeg, minLongSide: 4096, orientation: 1).image
    let W = Double(p.width), H = Double(p.height)
    return try detector.detect(in: image).map { ($0.x * W, $0.y * H, $0.w * W, $0.h * H) }
}

let detector = useDetector ? try FaceDetector() : nil
var kept = [Int](repeating: 0, count: rules.count), keptPossible = [Int](repeating: 0, count: rules.count)
var crops = 0, possibleCrops = 0, misses: [String] = []
let start = Date()
for p in photos {
    let given = try faces(of: p, detector: detector)
    guard !given.isEmpty else { misses.append("\(p.file): no face found"); continue }
    for shape in shapes {
        let W = Double(p.width), H = Double(p.height)
        let w = min(W, H * shape.aspect), h = min(H, W / shape.aspect)
        let canKeep = possible(p, w: w, h: h)
        crops += 1
        if canKeep { possibleCrops += 1 }
        for (i, rule) in rules.enumerated() {
            let (x, y) = rule.place(p, w, h, given)
            let ok = keeps(p, (x, y, w, h))
            if ok { kept[i] += 1; if canKeep { keptPossible[i] += 1 } }
            if i == 0 && canKeep && !ok { misses.append("\(p.file) in a \(shape.name)") }
        }
    }
}
let seconds = Date().timeIntervalSince(start)
var result: [String: Any] = ["faces": useDetector ? "detector (CenterFace)" : "hand boxes", "photos": photos.count,
                             "crops": crops, "possible": possibleCrops, "misses": misses, "seconds": seconds]
result["rules"] = rules.indices.map { ["rule": rules[$0].name, "kept": kept[$0], "kept_of_possible": keptPossible[$0]] }
let data = try JSONSerialization.data(withJSONObject: result, options: [.prettyPrinted, .sortedKeys])
if let jsonPath { try data.write(to: URL(fileURLWithPath: jsonPath)) }
print(String(decoding: data, as: UTF8.self))
