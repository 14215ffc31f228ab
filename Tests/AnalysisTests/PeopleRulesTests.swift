import Testing
import Metadata
import PhotoLibrary
@testable import Analysis

/// The pure rules of people: which person a new face joins, what a person is called. Synthetic
/// descriptors (points in 128-d space at known distances) stand for faces here; the recogniser's
/// real descriptors are tested end to end in `PeopleEndToEndTests`.
@Suite struct PeopleRulesTests {
    /// A descriptor along axis `axis`, at `offset` on axis 127 (distance between two of the same
    /// axis = their offsets' difference; between axes ≈ 1.4).
    func point(_ axis: Int, _ offset: Float = 0) -> FaceDescriptor {
        var v = [Float](repeating: 0, count: 128)
        v[axis] = 1
        v[127] = offset
        return FaceDescriptor(v)
    }

    @Test func facesOfOnePersonJoinTheFirstAndStrangersStartNewPeople() {
        var a = PersonAssigner(known: [])
        let first = a.assign(point(0))
        #expect(first == "p1")
        #expect(a.assign(point(0, 0.3)) == "p1")
        #expect(a.assign(point(0, -0.3)) == "p1")
        let other = a.assign(point(1))
        #expect(other == "p2")
        #expect(a.assign(point(1, 0.2)) == "p2")
    }

    @Test func newPeopleAreNumberedAfterTheHighestKnownOne() {
        var a = PersonAssigner(known: [.init(descriptor: point(0), person: "p7"), .init(descriptor: point(1), person: "p3")])
        #expect(a.assign(point(2)) == "p8")
        #expect(a.assign(point(0, 0.1)) == "p7")
    }

    @Test func theCentreThresholdIsStrict() {
        let known = [PersonAssigner.Known(descriptor: point(0), person: "p1")]
        var a = PersonAssigner(known: known, centreThreshold: 0.55)
        #expect(a.assign(point(0, 0.55)) == "p2")
        var b = PersonAssigner(known: known, centreThreshold: 0.55)
        #expect(b.assign(point(0, 0.54)) == "p1")
    }

    /// Single linkage chained strangers: each new face a little further along joined the person
    /// of its one nearest face. Against the person as a whole, the chain stops.
    @Test func aChainOfFacesCannotWalkAPersonTowardsAStranger() {
        var a = PersonAssigner(known: [])
        #expect(a.assign(point(0)) == "p1")
        #expect(a.assign(point(0, 0.1)) == "p1")
        #expect(a.assign(point(0, 0.2)) == "p1")
        // 0.5 from the nearest face, but 0.6–0.7 from the others and 0.6 from the centre.
        #expect(a.assign(point(0, 0.7)) == "p2")
        #expect(a.nearestPerson(point(0, 0.05)) == "p1")
    }

    @Test func oneCloseFaceIsNotEnoughWhenMostOfThePersonIsFar() {
        // p1: four faces at 0, one at 0.45; a face at 0.8 is 0.35 from the one and 0.8 from the rest.
        var known = (0..<4).map { _ in PersonAssigner.Known(descriptor: point(0), person: "p1") }
        known.append(.init(descriptor: point(0, 0.45), person: "p1"))
        let a = PersonAssigner(known: known, centreThreshold: 0.9)
        #expect(a.nearestPerson(point(0, 0.8)) == nil)
        #expect(a.nearestPerson(point(0, 0.3)) == "p1")
    }

    @Test func twoFacesOfOnePhotoNeverJoinOnePerson() {
        var a = PersonAssigner(known: [.init(descriptor: point(0), person: "p1", photo: AssetID())])
        // Both close to p1: the closer joins, the other is somebody else.
        let people = a.assign(photo: AssetID(), [.init(descriptor: point(0, 0.3)), .init(descriptor: point(0, 0.1))])
        #expect(people == ["p2", "p1"])
        // A face carried over into p1 keeps any new face of its photo out of p1.
        let more = a.assign(photo: AssetID(), [.init(descriptor: point(0, 0.05))],
                            keeping: [.init(descriptor: point(1), person: "p1", photo: AssetID())])
        #expect(more != ["p1"])
    }

    @Test func anUntrustedFaceFoundsAndJoinsNobodyAndCountsInNoCentre() {
        var a = PersonAssigner(known: [])
        #expect(a.assign(photo: AssetID(), [.init(descriptor: point(0), trusted: false)]) == [nil])
        #expect(a.assign(photo: AssetID(), [.init(descriptor: point(0, 0.1))]) == ["p1"])
        #expect(a.assign(photo: AssetID(), [.init(descriptor: point(0, 0.05), trusted: false)]) == [nil])
        // A poor face placed in p1 by the user does not pull p1's centre.
        var b = PersonAssigner(known: [.init(descriptor: point(0), person: "p1"), .init(descriptor: point(1), person: "p1", trusted: false)])
        #expect(b.assign(point(0, 0.2)) == "p1")
    }

    @Test func theGateTurnsAwaySmallBlurredTurnedAndDoubtfulFaces() {
        let good = FaceQuality(size: 80, confidence: 0.9, sharpness: 100, turn: 0.1)
        #expect(FaceGate.admits(good) && FaceGate.admits(nil) && FaceGate.doubt(good) == nil)
        var small = good; small.size = 30
        var blurred = good; blurred.sharpness = 5
        var turned = good; turned.turn = 0.6
        var doubtful = good; doubtful.confidence = 0.6
        for q in [small, blurred, turned, doubtful] { #expect(!FaceGate.admits(q)) }
        #expect(FaceGate.doubt(small) == "small (30 px)")
    }

    @Test func aNameWithoutARegionNamesNoFace() {
        var faces = [DetectedFace(x: 0.4, y: 0.3, w: 0.2, h: 0.2)]
        var metadata = MediaMetadata(format: .jpeg)
        metadata.persons = ["Tom"]
        FaceEvidence.addXMPNames(metadata, to: &faces)
        #expect(faces[0].xmpName == nil)
        metadata.faces = [FaceRegion(x: 0.38, y: 0.28, w: 0.24, h: 0.24, name: "Tom")]
        FaceEvidence.addXMPNames(metadata, to: &faces)
        #expect(faces[0].xmpName == "Tom")
    }

    @Test func aUserNameOutranksXMPAndTheMostFrequentNameWins() {
        let faces = [
            DetectedFace(x: 0, y: 0, w: 0.1, h: 0.1, person: "p1", xmpName: "Ana"),
            DetectedFace(x: 0, y: 0, w: 0.1, h: 0.1, person: "p1", xmpName: "Anna"),
            DetectedFace(x: 0, y: 0, w: 0.1, h: 0.1, person: "p1", xmpName: "Anna"),
            DetectedFace(x: 0, y: 0, w: 0.1, h: 0.1, person: "p2", xmpName: "Tom"),
            DetectedFace(x: 0, y: 0, w: 0.1, h: 0.1, person: "p2", name: "Thomas", nameSource: .user),
            DetectedFace(x: 0, y: 0, w: 0.1, h: 0.1, person: "p3"),
            DetectedFace(x: 0, y: 0, w: 0.1, h: 0.1, person: "p4", name: "Eve", nameSource: .user, forgotten: true),
            DetectedFace(x: 0, y: 0, w: 0.1, h: 0.1, person: "p5", xmpName: "Zoë"),
        ]
        let names = PersonNaming.names(of: faces)
        #expect(names["p1"] == .some("Anna"))
        #expect(names["p2"] == .some("Thomas"))
        #expect(names["p3"] == .some(nil))
        #expect(names["p4"] == nil)  // forgotten faces are not evidence of anybody
        #expect(names["p5"] == .some("Zoë"))
    }

    @Test func aNameReachesEveryFaceOfThePersonAndLeavesForgottenOnes() {
        var faces = [
            DetectedFace(x: 0, y: 0, w: 0.1, h: 0.1, person: "p1", xmpName: "Ana"),
            DetectedFace(x: 0.5, y: 0, w: 0.1, h: 0.1, person: "p1"),
            DetectedFace(x: 0.5, y: 0.5, w: 0.1, h: 0.1, name: "Old", forgotten: true),
            DetectedFace(x: 0.7, y: 0.5, w: 0.1, h: 0.1, xmpName: "Solo"),
        ]
        #expect(PersonNaming.apply(PersonNaming.names(of: faces), to: &faces))
        #expect(faces.map(\.name) == ["Ana", "Ana", nil, "Solo"])
        #expect(!PersonNaming.apply(PersonNaming.names(of: faces), to: &faces))
    }

    @Test func faceKeysReadBackAsTyped() {
        let id = AssetID("3F2A9C10-0000-4000-8000-000000000001")!
        let key = FaceKey(assetID: id, index: 1)
        #expect(key.description == "3f2a9c10-0000-4000-8000-000000000001#2")
        #expect(FaceKey.parse(key.description)?.index == 1)
        #expect(FaceKey.parse("3f2a#0") == nil)
        #expect(FaceKey.parse("3f2a") == nil)
    }
}
