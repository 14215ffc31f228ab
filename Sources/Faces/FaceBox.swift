/// A face found in a photo: normalised to the upright image (0…1 of its width and height), top-left
/// x/y as the SPEC's asset JSON `faces` has it, with the detector's confidence.
public struct FaceBox: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public var w: Double
    public var h: Double
    /// The detector's own score: dlib HOG's SVM margin (0 is its decision threshold, above 1 is a
    /// clear face) or OpenCV Haar's level weight. Comparable only between boxes of one detector.
    public var confidence: Double

    public init(x: Double, y: Double, w: Double, h: Double, confidence: Double = 0) {
        self.x = x
        self.y = y
        self.w = w
        self.h = h
        self.confidence = confidence
    }

    /// Intersection over union with another box: 1 for the same box, 0 for boxes that do not touch.
    public func iou(_ other: FaceBox) -> Double {
        let iw = max(0, min(x + w, other.x + other.w) - max(x, other.x))
        let ih = max(0, min(y + h, other.y + other.h) - max(y, other.y))
        let intersection = iw * ih
        let union = w * h + other.w * other.h - intersection
        return union > 0 ? intersection / union : 0
    }
}
