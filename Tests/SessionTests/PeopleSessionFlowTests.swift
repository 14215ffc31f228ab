import Analysis
import Foundation
import PhotoLibrary
import Testing
import TestSupport

/// People through the session layer alone, as the web server will drive it: the sample
/// library's two portrait subjects (named "Ana" and "Tom" in their files' XMP) found by the real
/// analysis, then renamed and merged; names live in the sidecars (a rebuild keeps them) and
/// `Albums/People/` follows.
@Suite(.serialized)
struct PeopleSessionFlowTests {
    static func analysedSample() throws -> (LibrarySession, TestRoll.Made) {
        let copy = try TestRoll.sampleCopy()
        let session = try LibrarySession(try Library.initialize(at: copy.root))
        _ = try session.scan()
        let report = try Analysis.run(session, wait: true)
        #expect(report.left == 0 && report.analysed > 0, "\(report.notAnalysed)")
        return (session, copy)
    }

    static func photos(of person: String, in session: LibrarySession) throws -> Int {
        var q = AssetQuery()
        q.person = person
        return try session.read { try $0.assets(matching: q) }.count
    }

    @Test func nameAndMergeReachListingsAlbumsAndRebuild() throws {
        let (session, copy) = try Self.analysedSample()
        let people = try People.list(session)
        let tom = try #require(people.first { $0.name == "Tom" }, "\(people.map { ($0.id, $0.name) })")
        let ana = try #require(people.first { $0.name == "Ana" }, "\(people.map { ($0.id, $0.name) })")
        let truth = copy.entries.filter { $0.persons.contains { $0.name == "Tom" } }
        let photo = copy.root.appendingPathComponent(try #require(truth.first).path)
        let bytesBefore = try Data(contentsOf: photo)

        let renamed = try People.name(tom.id, as: "Thomas", in: session)
        #expect(renamed.id == tom.id && renamed.name == "Thomas" && renamed.photoCount == tom.photoCount)
        #expect(try People.list(session).first { $0.id == tom.id }?.name == "Thomas")
        #expect(try Self.photos(of: "Thomas", in: session) == tom.photoCount)
        let album = copy.root.appendingPathComponent("Albums/People/Thomas")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: album.path)) ?? []).count > 0)
        #expect(try Data(contentsOf: photo) == bytesBefore, "a name went into the photo itself")

        let merged = try People.merge("Thomas", ana.id, in: session)
        #expect(merged.id == tom.id && merged.name == "Thomas")
        #expect(merged.photoCount == tom.photoCount + ana.photoCount)
        #expect(try People.list(session).allSatisfy { $0.name != "Ana" })

        // The names live in the sidecars: the index recreated from them says the same.
        _ = try LibrarySession.rebuild(session.library)
        let again = try LibrarySession(session.library)
        #expect(try People.list(again).first { $0.id == tom.id }.map { ($0.name, $0.photoCount) } ?? (nil, 0) == ("Thomas", merged.photoCount))
    }

    /// A person that is not there: what happened, and the remedy (the people list) as a value,
    /// no CLI command in the message; nothing changed.
    @Test func anUnknownPersonSaysSoWithItsRemedy() throws {
        let (session, _) = try Self.analysedSample()
        let before = try People.list(session).map { "\($0.id) \($0.name ?? "-") \($0.photoCount)" }
        do {
            _ = try People.name("p999", as: "X", in: session)
            Issue.record("p999 was named")
        } catch let e as ShoeboxError {
            #expect(e.remedy as? LibraryRemedy == .listPeople)
            #expect(e.description.contains("p999") && !e.description.contains("shoebox"), "\(e.description)")
        }
        #expect(try People.list(session).map { "\($0.id) \($0.name ?? "-") \($0.photoCount)" } == before)
    }
}
