import Foundation
import PhotoLibrary

/// The composite score from a photo's measurements (docs/SCORING.md). Pure and deterministic:
/// the same measurements always give the same score.
///
/// Every component is a smooth, strictly monotone function of its measurements (no thresholds
/// that flatten it), so a worse copy of a photo always scores lower, and the components are
/// combined as a weighted geometric mean: one serious fault (a blurred subject, a black frame)
/// sinks a photo the way it makes a photographer reject it, whatever the rest is like.
public enum ScoreModel {
    /// Component weights of the geometric mean (relative; divided by their sum, 0.96).
    public static let weights: [(name: String, weight: Double)] = [
        ("sharpness", 0.20), ("motion", 0.06), ("noise", 0.12), ("exposure", 0.15), ("contrast", 0.14),
        ("color", 0.04), ("compression", 0.10), ("brisque", 0.10), ("composition", 0.05),
    ]
    static let totalWeight = weights.reduce(0) { $0 + $1.weight }

    /// What the scorer knows of a file besides its pixels.
    public struct Context: Sendable {
        /// The file says a camera took it (make, model, exposure or an EXIF capture time).
        public var hasCameraMetadata: Bool
        /// `Derivation` already calls it a screenshot (its name, or a screen's size without camera data).
        public var isScreenshotKind: Bool
        public init(hasCameraMetadata: Bool, isScreenshotKind: Bool) {
            self.hasCameraMetadata = hasCameraMetadata; self.isScreenshotKind = isScreenshotKind
        }
    }

    /// The score of one photo (`ranked` is its `base` until its burst is considered).
    public static func score(_ m: PhotoMeasures, context: Context) -> AssetScore {
        let faces = judgedFaces(m.faces)
        let c = components(m, faces: faces)
        var logSum = 0.0
        for (name, w) in weights { logSum += w / totalWeight * log(max(1e-4, value(of: name, in: c, noise: m["noise"]))) }
        let quality = exp(logSum)
        let people = peopleFactor(c)
        let utility = utilityKind(m, context: context)
        let base: Double
        if utility != nil {
            // Utility images in −1…−0.5, below every photograph (docs/SCORING.md).
            base = -1 + 0.5 * quality
        } else {
            // The size multiplies the whole: a thumbnail is no photo to share however clean it is.
            base = -0.5 + 1.5 * min(1, quality * people) * (c.resolution ?? 1)
        }
        let rounded = (base * 1e6).rounded() / 1e6
        return AssetScore(base: rounded, ranked: rounded, utility: utility, frame: frameQuality(c),
                          components: c.rounded(), measures: m.values.mapValues { ($0 * 1e4).rounded() / 1e4 })
    }

    // MARK: Components

    /// A decreasing logistic: 1 well below `mid`, ½ at it, → 0 above; `width` sets its slope.
    static func falling(_ x: Double, mid: Double, width: Double) -> Double { 1 / (1 + exp((x - mid) / width)) }
    /// 1 at or below 0, ½ at `half`, smoothly down beyond (never flat above 0).
    static func decay(_ x: Double, half: Double) -> Double { 1 / (1 + pow(max(0, x) / half, 2)) }

    /// Faces worth judging: at least 6 % of the frame's height (smaller ones are background people).
    static func judgedFaces(_ faces: [FaceMeasures]) -> [FaceMeasures] { faces.filter { $0.h >= 0.06 } }

    static func components(_ m: PhotoMeasures, faces: [FaceMeasures]) -> ScoreComponents {
        // Sharpness where the subject is: the faces when there are any, else the salient tiles;
        // with the sharpest tiles always in, so that a shallow depth of field is not "blur".
        let faceBlur = faces.isEmpty ? nil : faces.map { $0.blur * $0.h }.reduce(0, +) / faces.map(\.h).reduce(0, +)
        let subject = faceBlur.map { 0.5 * $0 + 0.2 * m["blur_subject"] } ?? 0.7 * m["blur_subject"]
        var blur = subject + 0.2 * m["blur_best"] + 0.1 * m["blur_global"]
        // Without faces, a sharp part (the sharpest tenth of the tiles) caps the index: a subject
        // in focus before a blurred background is a choice, not blur, even where saliency
        // looked elsewhere. A face out of focus stays a fault.
        if faces.isEmpty { blur = min(blur, m["blur_best"] + 0.12) }
        // No penalty for a very low index: a crisp photo measures as low as an over-sharpened one.
        let sharpness = falling(blur, mid: 0.44, width: 0.065)
        let motion = decay(m["motion"], half: 0.25)
        // Clean photos measure σ 0.0–3.0 (fine texture in the smoothest tiles: gravel, stars),
        // the first visible grain 3.3–6.5: half at 4, and still falling at σ 20.
        let noise = 1 / (1 + pow(m["noise"] / 4, 2)) / (1 + m["chroma_noise"] / 1.5)
        // Exposure: mid-tones near the middle (a log scale: a night scene is allowed to be dark),
        // highlights not blown, shadows not crushed.
        let luma = max(1, m["mean_luma"])
        let level = exp(-pow(log(luma / 118), 2) / (2 * 1.4 * 1.4))
        let exposure = level * decay(m["clip_high"], half: 0.15) * (0.7 + 0.3 * decay(m["clip_low"], half: 0.15))
        // Contrast: the tonal range used (black to white point), the spread of tones, and no
        // lifted blacks (haze, a washed-out or brightened frame).
        let range = max(0.01, (m["white_point"] - m["black_point"]) / 255)
        let contrast = pow(range, 2) * (0.4 + 0.6 * m["contrast"] / (m["contrast"] + 0.08)) * decay(m["black_point"], half: 60)
        let colorfulness = m["colorfulness"]
        let color = 0.5 + 0.5 * colorfulness / (colorfulness + 15)
        // Blocks, banding, and a grid of repeated pixels (a pixelated or blown-up picture).
        let compression = decay(m["blockiness"], half: 0.5) * decay(m["posterize"], half: 0.2) * decay(m["pixelation"], half: 0.6)
        let brisque = m["brisque"] < 0 ? nil : decay(min(150, m["brisque"]), half: 40)
        let tilt = m["has_horizon"] > 0 ? decay(abs(m["tilt"]), half: 5) : 1
        let composition = (1 - 0.4 * min(0.5, m["thirds"])) * (0.7 + 0.3 * tilt)
        var c = ScoreComponents(sharpness: sharpness, motion: motion, noise: noise, exposure: exposure, contrast: contrast,
                                color: color, compression: compression, brisque: brisque, composition: composition,
                                resolution: m["long_side"] > 0 ? resolution(longSide: m["long_side"]) : nil)
        if !faces.isEmpty {
            let inFrame = faces.map { $0.cut ? 0.75 : 1.0 }.reduce(0, +) / Double(faces.count)
            let size = min(1, (faces.map(\.h).max() ?? 0) / 0.15)
            c.faces = inFrame * (0.8 + 0.2 * size) * (0.5 + 0.5 * falling(faceBlur ?? 0, mid: 0.45, width: 0.06))
            let eyes = faces.compactMap(\.eyes)
            if !eyes.isEmpty { c.eyes = eyes.map { [0.55, 0.8, 1.0][min(2, $0)] }.reduce(0, +) / Double(eyes.count) }
            let smiles = faces.compactMap(\.smile)
            if !smiles.isEmpty { c.smile = Double(smiles.filter { $0 }.count) / Double(smiles.count) }
        }
        return c
    }

    /// How far a sharpness measured through grain of σ `noise` is believed: 1 up to σ 2.5 (what
    /// clean photos reach), ½ at 3.5, 0.1 at 5.5 (the first level of added grain).
    static func grainGate(noise: Double) -> Double { 1 / (1 + pow(max(0, noise - 2.5), 2)) }

    /// How well a picture of this long side (pixels) shows on a screen: ~1 from 800 px up
    /// (0.98), 0.71 at 375, 0.17 at 200, 0.01 at 100 — steep, so that no thumbnail or small
    /// drawing ranks among photographs of a normal size however clean it is.
    static func resolution(longSide: Double) -> Double { 1 / (1 + pow(300 / max(1, longSide), 4)) }

    /// A component's value in the mean; `noise` the measured σ (for the sharpness seen through it).
    static func value(of name: String, in c: ScoreComponents, noise: Double) -> Double {
        switch name {
        // Sharpness seen through the noise: grain lowers the blur index as detail would (a
        // noisy copy of a soft photo measured "sharper" than the photo: issue 32), so above
        // the σ that clean photos reach the sharpness is believed less and less.
        case "sharpness": return c.sharpness * grainGate(noise: noise)
        case "motion": return c.motion
        case "noise": return c.noise
        case "exposure": return c.exposure
        case "contrast": return c.contrast
        case "color": return c.color
        case "compression": return c.compression
        case "brisque": return c.brisque ?? 1
        default: return c.composition
        }
    }

    /// People: a clear face with open eyes lifts a photo a little, closed eyes or a face cut by
    /// the frame lower it, a smile is a small bonus. 1 for a photo without faces.
    static func peopleFactor(_ c: ScoreComponents) -> Double {
        guard let faces = c.faces else { return 1 }
        let eyes = c.eyes ?? 0.9
        return (0.88 + 0.14 * faces) * (0.85 + 0.15 * eyes) * (1 + 0.03 * (c.smile ?? 0))
    }

    /// How good a frame of a burst is: sharpness first, then exposure and open eyes.
    static func frameQuality(_ c: ScoreComponents) -> Double {
        let q = pow(c.sharpness, 0.5) * pow(c.motion, 0.15) * pow(c.exposure, 0.15) * pow(c.eyes ?? 1, 0.2)
        return (q * 1e6).rounded() / 1e6
    }

    // MARK: Utility

    /// Screenshots (the kind the file's name or size gave, or flat areas and text without any
    /// camera data), photographed documents (text read in a page's outline or covering much of the
    /// frame, or a great many words) and QR codes.
    static func utilityKind(_ m: PhotoMeasures, context: Context) -> AssetScore.Utility? {
        if context.isScreenshotKind { return .screenshot }
        let words = m["text_words"]
        if !context.hasCameraMetadata && m["flat"] >= 0.25 && words >= 5 { return .screenshot }
        // Text density: a sign or a T-shirt in a photo has a few words on a small part of it; a
        // receipt or a page photographed edge to edge has words over much of the frame.
        let dense = m["text_area"] >= 0.06 || (m["text_lines"] >= 0.12 && words >= 15)
        if words >= 8 && (m["page"] > 0 || dense) || words >= 40 { return .document }
        if m["qr_area"] >= 0.02 { return .qrCode }
        return nil
    }
}

extension ScoreComponents {
    func rounded() -> ScoreComponents {
        let r = { (v: Double) in (v * 1e4).rounded() / 1e4 }
        return ScoreComponents(sharpness: r(sharpness), motion: r(motion), noise: r(noise), exposure: r(exposure),
                               contrast: r(contrast), color: r(color), compression: r(compression), brisque: brisque.map(r),
                               composition: r(composition), resolution: resolution.map(r), faces: faces.map(r),
                               eyes: eyes.map(r), smile: smile.map(r))
    }
}
