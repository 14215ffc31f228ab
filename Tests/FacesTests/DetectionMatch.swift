import Faces

/// Detections matched one to one with true boxes (greedy, best overlap first): the counts behind
/// precision and recall.
struct DetectionScore: CustomStringConvertible {
    var truePositives = 0
    var falsePositives = 0
    var falseNegatives = 0
    var misses: [String] = []

    var precision: Double { Double(truePositives) / Double(max(1, truePositives + falsePositives)) }
    var recall: Double { Double(truePositives) / Double(max(1, truePositives + falseNegatives)) }

    mutating func add(found: [FaceBox], truth: [FaceBox], minIoU: Double, label: String) {
        var pairs: [(iou: Double, f: Int, t: Int)] = []
        for (fi, f) in found.enumerated() {
            for (ti, t) in truth.enumerated() where f.iou(t) >= minIoU { pairs.append((f.iou(t), fi, ti)) }
        }
        var usedFound = Set<Int>(), usedTruth = Set<Int>()
        for p in pairs.sorted(by: { $0.iou > $1.iou }) where !usedFound.contains(p.f) && !usedTruth.contains(p.t) {
            usedFound.insert(p.f)
            usedTruth.insert(p.t)
        }
        truePositives += usedTruth.count
        falsePositives += found.count - usedFound.count
        falseNegatives += truth.count - usedTruth.count
        if usedTruth.count < truth.count || usedFound.count < found.count {
            misses.append("\(label): truth \(truth.map(Self.text)), found \(found.map(Self.text))")
        }
    }

    static func text(_ b: FaceBox) -> String {
        String(format: "[%.3f %.3f %.3f %.3f]", b.x, b.y, b.w, b.h)
    }

    var description: String {
        String(format: "precision %.3f, recall %.3f (%d found right, %d wrong, %d missed)",
               precision, recall, truePositives, falsePositives, falseNegatives)
    }
}
