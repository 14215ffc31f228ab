import Foundation

/// A score in words, for `show`: what a person culling would say of the photo — its faults
/// first, then what is good ("sharp, well exposed, two faces, eyes open" / "motion-blurred,
/// under-exposed"). The thresholds are documented in docs/SCORING.md.
public enum ScoreWords {
    public static func describe(_ s: AssetScore) -> [String] {
        if let u = s.utility {
            switch u {
            case .screenshot: return ["a screenshot (utility: ranked below photos)"]
            case .document: return ["a photographed document (utility: ranked below photos)"]
            case .qrCode: return ["a QR code (utility: ranked below photos)"]
            }
        }
        let c = s.components, m = s.measures
        var faults: [String] = []
        var good: [String] = []
        if let r = c.resolution, r < 0.5 { faults.append("too small to share (\(Int(m["long_side"] ?? 0)) px)") }
        let motionBlurred = c.motion < 0.6 && c.sharpness < 0.7
        if motionBlurred { faults.append("motion-blurred") }
        else if c.sharpness < 0.35 { faults.append("blurry") }
        else if c.sharpness < 0.7 { faults.append("slightly soft") }
        else { good.append("sharp") }
        if (m["blur_global"] ?? 0) - (m["blur_best"] ?? 0) > 0.3 && c.sharpness >= 0.7 { good.append("shallow depth of field") }
        let luma = m["mean_luma"] ?? 118
        if luma < 60 || (m["white_point"] ?? 255) < 150 { faults.append("under-exposed") }
        else if luma > 175 || (m["clip_high"] ?? 0) > 0.15 { faults.append("over-exposed") }
        else if (m["clip_high"] ?? 0) > 0.05 { faults.append("blown highlights") }
        else { good.append("well exposed") }
        if (m["black_point"] ?? 0) > 45 && luma >= 60 { faults.append("washed out") }
        else if c.contrast < 0.45 { faults.append("flat (low contrast)") }
        if c.noise < 0.6 { faults.append("noisy") }
        if c.compression < 0.6 { faults.append((m["posterize"] ?? 0) > 0.1 ? "banding" : "compression artefacts") }
        // Lines tilted 8–12° are more often a roof or a table edge than a horizon: not said.
        if (m["has_horizon"] ?? 0) > 0, (2...8).contains(abs(m["tilt"] ?? 0)) { faults.append(String(format: "horizon tilted %.0f°", abs(m["tilt"] ?? 0))) }
        if let eyes = c.eyes {
            if eyes >= 0.95 { good.append("eyes open") } else if eyes < 0.7 { faults.append("eyes closed") }
        }
        if let smile = c.smile, smile >= 0.5 { good.append("smiling") }
        if let b = s.burst, b.size > 1 {
            good.append(b.rank == 1 ? "best of a burst of \(b.size)" : "frame \(b.rank) of a burst of \(b.size)")
        }
        return faults + good
    }

    /// "two faces", for `show` (the faces judged: those big enough to matter).
    public static func faceCount(_ n: Int) -> String? {
        let words = ["no faces", "one face", "two faces", "three faces", "four faces", "five faces"]
        return n == 0 ? nil : n < words.count ? words[n] : "\(n) faces"
    }

    /// `sentence` for an asset's score of its present content (`show`, `tidy next`); the faces
    /// counted are those large enough to judge. nil when it has none.
    public static func sentence(of a: Asset) -> String? {
        guard let detail = a.analysis.flatMap({ $0.sha256 == a.sha256 ? $0.score : nil }) else { return nil }
        let faces = a.analysis?.faces.filter { !$0.isForgotten && $0.h >= 0.06 }.count ?? 0
        return sentence(detail, faces: faces)
    }

    /// The sentence `show` prints: the words, with the number of faces after the exposure.
    public static func sentence(_ s: AssetScore, faces: Int) -> String {
        var words = describe(s)
        if s.utility == nil, let f = faceCount(faces) {
            let at = words.firstIndex(where: { $0.hasPrefix("eyes") || $0 == "smiling" || $0.contains("burst") }) ?? words.count
            words.insert(f, at: at)
        }
        return words.joined(separator: ", ")
    }
}
