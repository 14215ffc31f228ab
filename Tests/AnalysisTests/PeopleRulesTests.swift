import Testing
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
        #expect(a.assign(point(0, -0.4)) == "p1")
        let other = a.assign(point(1))
        #expect(other == "p2")
        #expect(a.assign(point(1, 0.2)) == "p2")
    }

    @Test func newPeopleAreNumberedAfterTheHighestKnownOne() {
        var a = PersonAssigner(known: [.init(descriptor: point(0), person: "p7"), .init(descriptor: point(1), person: "p3")])
        #expect(a.assign(point(2)) == "p8")
        #expect(a.assign(point(0, 0.1)) == "p7")
    }

    @Test func theThresholdIsStrict() {
        let known = [PersonAssigner.Known(descriptor: point(0), person: "p1")]
        var a = PersonAssigner(known: known, threshold: 0.6)
        #expect(a.assign(point(0, 0.6)) == "p2")
        var b = PersonAssigner(known: known, threshold: 0.6)
        #expect(b.assign(point(0, 0.59)) == "p1")
    }

    @Test func theNearestFacesVoteSoOneStrayCloseFaceDoesNotDecide() {
        // Five faces of p1 around the query at 0.3–0.5, one face of p2 at 0.25.
        var known = (0..<5).map { PersonAssigner.Known(descriptor: point(0, 0.3 + Float($0) * 0.05), person: "p1") }
        known.append(.init(descriptor: point(0, -0.25), person: "p2"))
        let a = PersonAssigner(known: known)
        #expect(a.nearestPerson(point(0)) == "p1")
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
