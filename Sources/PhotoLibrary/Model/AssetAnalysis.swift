import Foundation
import MetadataCore

/// What the analysis pipeline learnt from an asset's pixels: kept in the sidecar (so `rebuild`
/// restores people and their names without decoding anything again) and in the index.
///
/// It describes the content whose SHA-256 it names: when the file changes, the record is stale
/// (`isCurrent(for:)` is false) and the pipeline analyses the file again. `version` is the
/// analyser's: a better analyser raises it and re-analyses old assets, carrying names over.
public struct AssetAnalysis: Codable, Equatable, Sendable {
    /// The analyser that produced this record (`AssetAnalysis.currentVersion` when current).
    public var version: Int
    /// The SHA-256 of the content analysed.
    public var sha256: String
    /// The image data could not be decoded whole (a corrupt or truncated stream): whatever came
    /// out was analysed, or nothing when `problem` says decoding failed.
    public var damaged: Bool
    /// One line saying what went wrong with this file's pixels, or nil.
    public var problem: String?
    /// A 64-bit perceptual hash (pHash) of the upright picture or poster frame, 16 hex digits.
    public var perceptualHash: String?
    /// Faces found, in reading order (left to right, top to bottom).
    public var faces: [DetectedFace]
    /// The scorer's verdict (docs/SCORING.md); nil for a file whose pixels could not be decoded.
    public var score: AssetScore?

    public init(version: Int, sha256: String, damaged: Bool = false, problem: String? = nil,
                perceptualHash: String? = nil, faces: [DetectedFace] = [], score: AssetScore? = nil) {
        self.version = version; self.sha256 = sha256; self.damaged = damaged; self.problem = problem
        self.perceptualHash = perceptualHash; self.faces = faces; self.score = score
    }

    /// Raise when the analysis of a file would come out differently (a better detector, a new
    /// field): every asset analysed by an older version is analysed again.
    /// 2: CenterFace replaced dlib's HOG as the detector (its boxes sit differently, and it
    /// finds small faces HOG missed); names and "forgotten" carry over (`FaceEvidence.carryOver`).
    /// 3: the scorer (`score`).
    /// 4: each face's `quality` (size, detector confidence, sharpness, turn), which decides
    /// whether it may found or join a person; people made by the rules before (single linkage:
    /// strangers chained into one person) are not carried over, only what the user said.
    public static let pipelineVersion = 4

    /// The first version whose records hold people made by the quality-gated, whole-person rules.
    public static let gatedPeopleVersion = 4000

    /// The version a current record carries: the pipeline's in the thousands, the scorer's
    /// (`AssetScore.currentVersion`) below, so raising either analyses (and scores) again while
    /// records of versions 1 and 2 stay older than both.
    public static let currentVersion = pipelineVersion * 1000 + AssetScore.currentVersion

    /// Does this record describe `asset`'s present content, made by the current analyser?
    public func isCurrent(for asset: Asset) -> Bool {
        version >= AssetAnalysis.currentVersion && sha256 == asset.sha256
    }

    enum CodingKeys: String, CodingKey {
        case version, sha256, damaged, problem, perceptualHash = "phash", faces, score
    }
}

/// One face the detector found, normalised to the upright image (x/y the top-left corner), with
/// the descriptor that recognises it and the person it belongs to.
public struct DetectedFace: Codable, Equatable, Sendable {
    public var x: Double, y: Double, w: Double, h: Double
    /// dlib's 128-d face descriptor; nil when the recogniser's models were missing.
    public var descriptor: FaceDescriptor?
    /// The person (a cluster of faces) it belongs to; nil until clustered or once forgotten.
    public var person: String?
    /// The person's name, when known (the user's, else what the files' XMP say), and `.user` when
    /// the user gave it to this face's person.
    public var name: String?
    public var nameSource: NameSource?
    /// The name this photo's own XMP gives this face (a named region over it, or the one
    /// `PersonInImage` of a one-face photo): evidence, kept even when the user names the person
    /// otherwise (the file's name then no longer shows in `persons`).
    public var xmpName: String?
    /// `people forget FACE`: not a person the user wants; never clustered or named again.
    public var forgotten: Bool?
    /// How far the descriptor can be trusted (nil in records made before pipeline version 4).
    public var quality: FaceQuality?
    /// The user put this face into its person (`people move`, naming a face, a merge): it stays
    /// there whatever the clustering rules say.
    public var placed: Bool?

    /// Where a face's name comes from: the user (`people name`) outranks the file's XMP.
    public enum NameSource: String, Codable, Sendable { case user, xmp }

    public init(x: Double, y: Double, w: Double, h: Double, descriptor: FaceDescriptor? = nil,
                person: String? = nil, name: String? = nil, nameSource: NameSource? = nil, xmpName: String? = nil,
                forgotten: Bool? = nil, quality: FaceQuality? = nil, placed: Bool? = nil) {
        self.x = x; self.y = y; self.w = w; self.h = h; self.descriptor = descriptor
        self.person = person; self.name = name; self.nameSource = nameSource; self.xmpName = xmpName
        self.forgotten = forgotten; self.quality = quality; self.placed = placed
    }

    public var isForgotten: Bool { forgotten == true }
    public var isPlaced: Bool { placed == true }

    /// Intersection over union with another box of the same image.
    public func overlap(x ox: Double, y oy: Double, w ow: Double, h oh: Double) -> Double {
        let ix = max(0, min(x + w, ox + ow) - max(x, ox)), iy = max(0, min(y + h, oy + oh) - max(y, oy))
        let inter = ix * iy, union = w * h + ow * oh - inter
        return union > 0 ? inter / union : 0
    }

    enum CodingKeys: String, CodingKey {
        case x, y, w, h, descriptor, person, name, nameSource = "name_source", xmpName = "xmp_name", forgotten, quality, placed
    }
}

/// What the analyser measured of a face, saying how far its descriptor can be trusted: a small,
/// blurred, turned or doubtful face gives a descriptor near strangers' too, so it never founds or
/// joins a person by itself (`FaceGate`).
public struct FaceQuality: Codable, Equatable, Sendable {
    /// The face box's shorter side, in pixels of the image it was described on (at most 1024 px
    /// long side).
    public var size: Double
    /// The detector's score (CenterFace's face-centre heat, 0…1).
    public var confidence: Double
    /// Fine detail in the aligned 150-px face chip (variance of its grey Laplacian).
    public var sharpness: Double
    /// How far the face is turned from the camera, in eye distances (~0 frontal, ≥ 0.5 towards a profile).
    public var turn: Double

    public init(size: Double, confidence: Double, sharpness: Double, turn: Double) {
        self.size = size; self.confidence = confidence; self.sharpness = sharpness; self.turn = turn
    }
}

/// A 128-d face descriptor, stored as base64 of little-endian Float32 (684 characters instead
/// of ~1,300 as a JSON number array; exact, so distances are the same after a rebuild).
public struct FaceDescriptor: Codable, Equatable, Sendable {
    public var values: [Float]

    public init(_ values: [Float]) { self.values = values }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let data = Data(base64Encoded: text), data.count % 4 == 0, data.count <= 4 * 1024 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a face descriptor"))
        }
        let bytes = [UInt8](data)
        values = stride(from: 0, to: bytes.count, by: 4).map { i in
            var bits = UInt32(bytes[i])
            bits |= UInt32(bytes[i + 1]) << 8
            bits |= UInt32(bytes[i + 2]) << 16
            bits |= UInt32(bytes[i + 3]) << 24
            return Float(bitPattern: bits)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var bytes = [UInt8]()
        bytes.reserveCapacity(values.count * 4)
        for v in values {
            let b = v.bitPattern
            bytes += [UInt8(b & 0xFF), UInt8(b >> 8 & 0xFF), UInt8(b >> 16 & 0xFF), UInt8(b >> 24)]
        }
        var c = encoder.singleValueContainer()
        try c.encode(Data(bytes).base64EncodedString())
    }

    /// Euclidean distance (dlib's measure: the same person is below 0.6).
    public func distance(to other: FaceDescriptor) -> Float {
        guard values.count == other.values.count else { return .infinity }
        var sum: Float = 0
        for i in values.indices { let d = values[i] - other.values[i]; sum += d * d }
        return sum.squareRoot()
    }
}

/// A face as listings show it: found by the analysis (with its person) or tagged in the file's
/// XMP, normalised to the upright image, x/y the top-left corner.
public struct AssetFace: Equatable, Sendable {
    public enum Source: String, Sendable { case detected, xmp }
    public var x: Double, y: Double, w: Double, h: Double
    public var name: String?
    public var person: String?
    public var source: Source
}

/// Which found face a face region tagged in a file's XMP stands for. Taggers draw regions their
/// own way (hair to chin, a loose square): a region stands for the found face it overlaps most
/// at IoU ≥ 0.3, or else for the only found face whose centre it holds, when their sizes are
/// within 4× of each other.
public enum FaceMatching {
    /// The found face a tagged region stands for (see `addXMPNames`), or nil.
    public static func match(_ r: FaceRegion, in faces: [DetectedFace]) -> Int? {
        match(x: r.x, y: r.y, w: r.w, h: r.h, in: faces)
    }

    /// The face of `faces` that a box drawn another way stands for (a tagger's region, or the
    /// same face found by an earlier detector, whose boxes sit differently): the one it overlaps
    /// most at IoU ≥ 0.3, or else the only one whose centre it holds, sizes within 4×.
    public static func match(x: Double, y: Double, w: Double, h: Double, in faces: [DetectedFace]) -> Int? {
        if let best = faces.indices.max(by: { faces[$0].overlap(x: x, y: y, w: w, h: h) < faces[$1].overlap(x: x, y: y, w: w, h: h) }),
           faces[best].overlap(x: x, y: y, w: w, h: h) >= 0.3 { return best }
        let inside = faces.indices.filter { i in
            let f = faces[i], cx = f.x + f.w / 2, cy = f.y + f.h / 2
            let ratio = (f.w * f.h) / max(1e-9, w * h)
            return cx >= x && cx <= x + w && cy >= y && cy <= y + h && ratio >= 0.25 && ratio <= 4
        }
        return inside.count == 1 ? inside[0] : nil
    }
}

