import CVision

/// Faces into people by their descriptors.
public enum FaceClustering {
    /// One label per descriptor (0 ..< number of people), by dlib's chinese whispers over the graph
    /// joining faces closer than `threshold`. For a batch: a whole library re-clustered, or a
    /// first analysis. Deterministic for the same input.
    public static func chineseWhispers(_ descriptors: [[Float]],
                                       threshold: Float = FaceRecognizer.samePersonThreshold) throws -> [Int] {
        if descriptors.isEmpty { return [] }
        let flat = descriptors.flatMap { d -> [Float] in
            precondition(d.count == FaceRecognizer.dimensions, "a face descriptor has \(FaceRecognizer.dimensions) values")
            return d
        }
        var labels = [Int32](repeating: 0, count: descriptors.count)
        let (count, error) = flat.withUnsafeBufferPointer { flat in
            labels.withUnsafeMutableBufferPointer { labels in
                withErrorBuffer { err, len in
                    cv_chinese_whispers(flat.baseAddress, Int32(descriptors.count), threshold, labels.baseAddress, err, len)
                }
            }
        }
        guard count >= 0 else { throw FaceError.vision(error) }
        return labels.map(Int.init)
    }

    /// For faces arriving one by one: the index of the descriptor in `among` nearest to `d`, when
    /// it is closer than `threshold` (that face's person is this one's), else nil (a new person).
    /// `among` is typically one or a few representative faces per known person.
    public static func nearest(_ d: [Float], among: [[Float]],
                               threshold: Float = FaceRecognizer.samePersonThreshold) -> Int? {
        var best: (index: Int, distance: Float)?
        for (i, other) in among.enumerated() {
            let distance = FaceRecognizer.distance(d, other)
            if distance < threshold, distance < best?.distance ?? .infinity { best = (i, distance) }
        }
        return best?.index
    }
}
