import Foundation

/// `score_detail` in the asset JSON (`show --json`, `list --json`): what the score is made of
/// (docs/SCORING.md). Public contract: fields are added, never renamed.
public struct ScoreDetailJSON: Encodable, Sendable, Equatable {
    public struct Burst: Encodable, Sendable, Equatable { var size: Int; var rank: Int }

    /// The scorer's version (`AssetScore.currentVersion` when current).
    var version: Int
    /// The photo's own score, before its burst was considered (`score` is after).
    var base: Double
    /// `screenshot`, `document`, `qr_code`, or null for a photograph.
    var utility: String?
    /// The explanation `show` prints ("sharp, well exposed, two faces, eyes open").
    var words: [String]
    /// Each component's quality, 0 (the fault at its worst) … 1 (no fault).
    var components: [String: Double]
    /// The raw measurements the components came from.
    var measures: [String: Double]
    var frame: Double
    var burst: Burst?

    init(_ s: AssetScore) {
        version = s.version
        base = s.base
        utility = s.utility?.rawValue
        words = ScoreWords.describe(s)
        let c = s.components
        var parts: [String: Double] = [
            "sharpness": c.sharpness, "motion": c.motion, "noise": c.noise, "exposure": c.exposure, "contrast": c.contrast,
            "color": c.color, "compression": c.compression, "composition": c.composition,
        ]
        parts["brisque"] = c.brisque
        parts["resolution"] = c.resolution
        parts["faces"] = c.faces
        parts["eyes"] = c.eyes
        parts["smile"] = c.smile
        components = parts
        measures = s.measures
        frame = s.frame
        burst = s.burst.map { Burst(size: $0.size, rank: $0.rank) }
    }

    enum CodingKeys: String, CodingKey { case version, base, utility, words, components, measures, frame, burst }

    // Explicit nulls, as the asset's own fields.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(version, forKey: .version)
        try c.encode(base, forKey: .base)
        try c.encode(utility, forKey: .utility)
        try c.encode(words, forKey: .words)
        try c.encode(components, forKey: .components)
        try c.encode(measures, forKey: .measures)
        try c.encode(frame, forKey: .frame)
        try c.encode(burst, forKey: .burst)
    }
}
