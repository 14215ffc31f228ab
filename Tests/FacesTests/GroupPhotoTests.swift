import Foundation
import Testing
import TestSupport
@testable import Faces

/// Real group photos with every face boxed by hand (test-data/faces/boxes.json: 24 faces in 11
/// photos, 22–265 px; `ignore` regions — full profiles, faces hidden or too dark to call, faces in
/// posters — count neither way).
@Suite struct GroupPhotoTests {
    struct Photo: Decodable {
        var file: String
        var width: Int
        var height: Int
        var faces: [[Double]]
        var ignore: [[Double]]
    }

    struct Boxes: Decodable { var photos: [Photo] }

    static let folder = TestRoll.repositoryRoot.appendingPathComponent("test-data/faces")

    /// The goal is precision ≥ 0.9 and recall ≥ 0.85 at IoU ≥ 0.3. dlib's HOG reaches
    /// precision 1.0 and recall 0.79 (19 of 24: the five missed are 22–40 px faces, four of them in
    /// the 1897 expedition photo), the best of the settings and detectors measured
    /// (docs/faces.md); the floor here holds that figure until a better detector raises it.
    @Test func handBoxedGroupPhotos() throws {
        let boxes = try JSONDecoder().decode(Boxes.self, from: Data(contentsOf: Self.folder.appendingPathComponent("boxes.json")))
        let detector = try FaceDetector()
        var score = DetectionScore()
        for photo in boxes.photos {
            let image = try TestImages.decode(Self.folder.appendingPathComponent(photo.file))
            #expect(image.width == photo.width && image.height == photo.height, "\(photo.file)")
            let w = Double(photo.width), h = Double(photo.height)
            let normalised = { (b: [Double]) in FaceBox(x: b[0] / w, y: b[1] / h, w: b[2] / w, h: b[3] / h) }
            let ignored = photo.ignore.map(normalised)
            // A detection over an ignored region is neither right nor wrong: left out.
            let found = try detector.detect(in: image).filter { f in
                !ignored.contains { $0.iou(f) >= 0.1 } || photo.faces.map(normalised).contains { $0.iou(f) >= 0.3 }
            }
            score.add(found: found, truth: photo.faces.map(normalised), minIoU: 0.3, label: photo.file)
        }
        print("group photos (HOG): \(score)")
        #expect(score.truePositives + score.falseNegatives == 24)
        #expect(score.precision >= 0.9, "\(score): \(score.misses)")
        #expect(score.recall >= 0.75, "\(score): \(score.misses)")
    }
}
