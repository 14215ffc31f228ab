import Foundation

/// The scorer's verdict on one photo (docs/SCORING.md), kept in the analysis record (sidecar and
/// index): the score before and after its burst was considered, whether it is a utility image and
/// why, the components that explain it, and the raw measurements they came from.
public struct AssetScore: Codable, Equatable, Sendable {
    /// Raise when the same pixels would score differently (a new measurement, other weights):
    /// it is part of `AssetAnalysis.currentVersion`, so every photo is analysed and scored again.
    /// 1: the first scorer. 2: size, seen-size sharpness, pixel grids, text density, eye aspect ratio (issue 32).
    public static let currentVersion = 2

    /// Why a picture is a utility image rather than a photograph.
    public enum Utility: String, Codable, Sendable {
        case screenshot, document, qrCode = "qr_code"
    }

    /// The scorer that made this record.
    public var version: Int
    /// The photo's own score (−1…1): photos in −0.5…1, utility images in −1…−0.5.
    public var base: Double
    /// The score after its burst (`Asset.score`; "final" in JSON): equal to `base` except for
    /// the frames of a burst that a sharper frame outranks.
    public var ranked: Double
    public var utility: Utility?
    /// How good the frame is as a frame of a burst (sharpness, exposure, open eyes), 0…1: the
    /// best frame of a burst ranks first.
    public var frame: Double
    /// Each component's quality, 0 (the fault at its worst) … 1 (no fault); see `ScoreComponents`.
    public var components: ScoreComponents
    /// The measurements (`sc_measures` in CScore.h), rounded, by name.
    public var measures: [String: Double]
    /// The burst this photo belongs to: how many frames, and its rank (1 = the best frame).
    public var burst: BurstPlace?

    public init(version: Int = AssetScore.currentVersion, base: Double, ranked: Double, utility: Utility?, frame: Double,
                components: ScoreComponents, measures: [String: Double], burst: BurstPlace? = nil) {
        self.version = version; self.base = base; self.ranked = ranked; self.utility = utility; self.frame = frame
        self.components = components; self.measures = measures; self.burst = burst
    }

    enum CodingKeys: String, CodingKey {
        case version, base, ranked = "final", utility, frame, components, measures, burst
    }

    public struct BurstPlace: Codable, Equatable, Sendable {
        public var size: Int
        public var rank: Int
        public init(size: Int, rank: Int) { self.size = size; self.rank = rank }
    }
}

/// The components of a score, each 0 (the fault at its worst) … 1 (no fault). People's are nil
/// for a photo without faces large enough to judge.
public struct ScoreComponents: Codable, Equatable, Sendable {
    public var sharpness: Double
    public var motion: Double
    public var noise: Double
    public var exposure: Double
    public var contrast: Double
    public var color: Double
    public var compression: Double
    /// OpenCV's BRISQUE (natural-scene statistics), one input among the others; nil without its model.
    public var brisque: Double?
    public var composition: Double
    /// The picture's size: 1 for a photo a screen shows without enlarging it, towards 0 for a
    /// thumbnail (nil in scores made before it was measured).
    public var resolution: Double?
    /// Faces large enough, sharp, inside the frame; eyes open; smiling.
    public var faces: Double?
    public var eyes: Double?
    public var smile: Double?

    public init(sharpness: Double, motion: Double, noise: Double, exposure: Double, contrast: Double, color: Double,
                compression: Double, brisque: Double?, composition: Double, resolution: Double? = nil, faces: Double? = nil,
                eyes: Double? = nil, smile: Double? = nil) {
        self.sharpness = sharpness; self.motion = motion; self.noise = noise; self.exposure = exposure
        self.contrast = contrast; self.color = color; self.compression = compression; self.brisque = brisque
        self.composition = composition; self.resolution = resolution; self.faces = faces; self.eyes = eyes; self.smile = smile
    }
}

extension Asset {
    /// The score and the utility flag from the analysis when it describes the present content
    /// (docs/SCORING.md): a screenshot by its name or size is utility before any analysis; a
    /// changed file has no score until it is analysed again.
    public mutating func applyAnalysisScore() {
        let s = analysis.flatMap { $0.sha256 == sha256 ? $0.score : nil }
        score = s?.ranked
        isUtility = kind == .screenshot || s?.utility != nil
    }
}
