import Foundation
import Imaging
import Testing
@testable import Faces

/// Identity on real faces: Ana (astronaut.jpg, frontal) and Tom (camera.jpg, in profile), each
/// seen through many crops and scales of the one photo, as a library holds a person's many shots.
@Suite(.serialized) struct DescriptorTests {
    /// A recogniser (one per test: it is not thread-safe), or nil when the models are not
    /// installed: the test then passes saying it skipped, and why. CI runs scripts/install-deps,
    /// so there they always run; a model that is there but invalid fails.
    static func models() throws -> FaceRecognizer? {
        do {
            return try FaceRecognizer()
        } catch let error as FaceError {
            guard case .modelsMissing = error else { throw error }
            print("DescriptorTests skipped: \(error)")
            return nil
        }
    }

    /// A view of the photo and where the face's centre is in it (normalised).
    struct View {
        var image: RGBImage
        var faceCentre: (x: Double, y: Double)
    }

    /// Views of one photo: crops around the face at several offsets and sizes, each at a few scales.
    static func views(of url: URL, faceCentre: (Int, Int), count: Int) throws -> [View] {
        let crops = [(300, 0, 0), (360, -30, 20), (260, 25, -20), (400, 40, 40), (320, -40, -10), (480, 0, 30)]
        let scales = [100.0, 70, 140]
        var views: [View] = []
        for (size, dx, dy) in crops {
            let left = max(0, min(512 - size, faceCentre.0 - size / 2 + dx))
            let top = max(0, min(512 - size, faceCentre.1 - size / 2 + dy))
            for scale in scales where views.count < count {
                let image = try TestImages.decode(url, crop: "\(size)x\(size)+\(left)+\(top)", scalePercent: scale)
                views.append(View(image: image, faceCentre: (Double(faceCentre.0 - left) / Double(size),
                                                              Double(faceCentre.1 - top) / Double(size))))
            }
        }
        return views
    }

    /// The face of each view, described. Identity is what is measured here, not detection: the
    /// box taken is the one over the known face.
    static func descriptors(_ views: [View], _ recognizer: FaceRecognizer) throws -> [[Float]] {
        let detector = try FaceDetector()
        return try views.enumerated().map { i, view in
            let faces = try detector.detect(in: view.image)
            let (cx, cy) = view.faceCentre
            guard let face = faces.first(where: { $0.x < cx && cx < $0.x + $0.w && $0.y < cy && cy < $0.y + $0.h }) else {
                throw TestImageError("no face in view \(i) (\(view.image.width)×\(view.image.height)): \(faces)")
            }
            return try recognizer.descriptors(for: [face], in: view.image)[0]
        }
    }

    // Centres of the faces themselves (Tom's: his cheek, by his eye; the detector boxes his face, not his hair).
    static let anaCentre = (224, 125), tomCentre = (240, 158)

    @Test func descriptorsHave128FiniteValues() throws {
        guard let recognizer = try Self.models() else { return }
        let image = try TestImages.decode(TestImages.astronaut)
        let faces = try FaceDetector().detect(in: image)
        let d = try recognizer.descriptors(for: Array(faces.prefix(1)), in: image)
        #expect(d.count == 1 && d[0].count == 128 && d[0].allSatisfy(\.isFinite))
        #expect(try recognizer.descriptors(for: [], in: image).isEmpty)
    }

    @Test func onePersonAcrossCropsAndScalesIsCloserThanTheThreshold() throws {
        guard let recognizer = try Self.models() else { return }
        for (name, url, centre) in [("Ana", TestImages.astronaut, Self.anaCentre), ("Tom", TestImages.camera, Self.tomCentre)] {
            let d = try Self.descriptors(try Self.views(of: url, faceCentre: centre, count: 12), recognizer)
            var worst: Float = 0
            for i in d.indices { for j in d.indices where j > i { worst = max(worst, FaceRecognizer.distance(d[i], d[j])) } }
            print("\(name): largest distance between two of \(d.count) views \(worst)")
            #expect(worst < FaceRecognizer.samePersonThreshold, "\(name)")
        }
    }

    @Test func twoPeopleAreFartherApartThanTheThreshold() throws {
        guard let recognizer = try Self.models() else { return }
        let ana = try Self.descriptors(try Self.views(of: TestImages.astronaut, faceCentre: Self.anaCentre, count: 6), recognizer)
        let tom = try Self.descriptors(try Self.views(of: TestImages.camera, faceCentre: Self.tomCentre, count: 6), recognizer)
        var nearest = Float.infinity
        for a in ana { for t in tom { nearest = min(nearest, FaceRecognizer.distance(a, t)) } }
        print("Ana–Tom: nearest pair \(nearest)")
        #expect(nearest >= FaceRecognizer.samePersonThreshold)
    }

    @Test func chineseWhispersMakesTwoPeopleOfTwelveViewsEach() throws {
        guard let recognizer = try Self.models() else { return }
        let ana = try Self.descriptors(try Self.views(of: TestImages.astronaut, faceCentre: Self.anaCentre, count: 12), recognizer)
        let tom = try Self.descriptors(try Self.views(of: TestImages.camera, faceCentre: Self.tomCentre, count: 12), recognizer)
        // Interleaved: the clustering must not lean on input order.
        var all: [[Float]] = [], who: [String] = []
        for i in 0..<12 { all += [ana[i], tom[i]]; who += ["Ana", "Tom"] }
        let labels = try FaceClustering.chineseWhispers(all)
        #expect(Set(labels).count == 2, "\(labels)")
        let anaLabels = Set(zip(labels, who).filter { $0.1 == "Ana" }.map(\.0))
        let tomLabels = Set(zip(labels, who).filter { $0.1 == "Tom" }.map(\.0))
        #expect(anaLabels.count == 1 && tomLabels.count == 1 && anaLabels != tomLabels, "\(labels)")
        #expect(try FaceClustering.chineseWhispers(all) == labels, "the same faces, the same clusters")
    }

    @Test func aFaceArrivingAloneJoinsItsPersonOrNoOne() throws {
        guard let recognizer = try Self.models() else { return }
        let ana = try Self.descriptors(try Self.views(of: TestImages.astronaut, faceCentre: Self.anaCentre, count: 3), recognizer)
        let tom = try Self.descriptors(try Self.views(of: TestImages.camera, faceCentre: Self.tomCentre, count: 3), recognizer)
        let people = [ana[0], tom[0]]
        #expect(FaceClustering.nearest(ana[2], among: people) == 0)
        #expect(FaceClustering.nearest(tom[2], among: people) == 1)
        #expect(FaceClustering.nearest(tom[1], among: [ana[0]]) == nil, "a new person")
        #expect(FaceClustering.nearest(ana[1], among: []) == nil)
    }
}

@Suite struct ClusteringTests {
    @Test func noFacesNoLabels() throws {
        #expect(try FaceClustering.chineseWhispers([]).isEmpty)
    }

    @Test func distantPointsAreEachTheirOwnPerson() throws {
        var a = [Float](repeating: 0, count: 128), b = a, c = a
        a[0] = 1; b[1] = 1; c[0] = 1.1
        let labels = try FaceClustering.chineseWhispers([a, b, c])
        #expect(labels[0] == labels[2] && labels[0] != labels[1])
        #expect(FaceRecognizer.distance(a, b) == Float(2).squareRoot())
    }
}
