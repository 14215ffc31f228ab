import PhotoLibrary

/// Which faces are trusted to found or join a person: a small, blurred, turned or doubtful face
/// gives a descriptor that lies near strangers' (on real group photos such faces bridged five men
/// into one person), so it stays without a person until the user puts it somewhere. Thresholds
/// measured on labelled real faces (docs/faces.md, `bench/faces.py`).
public enum FaceGate {
    /// The face's shorter side on the analysed image (≤ 1024 px), in pixels: the group photos'
    /// faces under ~35 px made most of the strangers' pairs.
    public static let minSize = 36.0
    /// CenterFace's score: the dark, half-hidden faces of a bar scored 0.5–0.75.
    public static let minConfidence = 0.75
    /// Variance of the aligned chip's Laplacian: the labelled portraits' chips were 15 and
    /// more, the small and dark group faces that bridged people 1–14.
    public static let minSharpness = 15.0
    /// The nose's offset from between the eyes, in eye distances (a profile's descriptor is
    /// far from the same person's frontal ones).
    public static let maxTurn = 0.35

    /// Whether `quality` lets a face found or join a person. A face measured before qualities
    /// were recorded (nil) is trusted: its record is analysed again by the current analyser.
    public static func admits(_ quality: FaceQuality?) -> Bool {
        guard let q = quality else { return true }
        return q.size >= minSize && q.confidence >= minConfidence && q.sharpness >= minSharpness && q.turn <= maxTurn
    }

    /// Why a face is not trusted, in words (`people show`), or nil when it is.
    public static func doubt(_ quality: FaceQuality?) -> String? {
        guard let q = quality else { return nil }
        var why: [String] = []
        if q.size < minSize { why.append("small (\(Int(q.size)) px)") }
        if q.sharpness < minSharpness { why.append("blurred") }
        if q.turn > maxTurn { why.append("turned away") }
        if q.confidence < minConfidence { why.append("doubtful") }
        return why.isEmpty ? nil : why.joined(separator: ", ")
    }
}
