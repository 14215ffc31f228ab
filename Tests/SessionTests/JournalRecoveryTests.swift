import Foundation
import Testing
import TestSupport
@testable import PhotoLibrary

/// The hole "a killed batch's replay record is thrown away": a batch whose sidecars were written
/// but whose index rows were not (a kill in between) is replayed by the next write of any kind,
/// never overwritten by it. Reproduced in-process: the kill's state is made by hand (sidecars and
/// journal on disk, index rows not).
@Suite(.serialized)
struct JournalRecoveryTests {
    /// A scanned private copy of the sample library, opened as a front end opens it.
    static func openedSample() throws -> (LibrarySession, TestRoll.Made) {
        let copy = try TestRoll.sampleCopy()
        let session = try LibrarySession(try Library.initialize(at: copy.root))
        _ = try session.scan()
        return (session, copy)
    }

    static func sidecarCount(_ library: Library) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: library.sidecarFolder.path).filter { $0.hasSuffix(".json") }.count
    }

    /// A scan killed after the sidecars of three new photos (before the index): those ids are in
    /// the journal and the sidecars, not in the index.
    static func killScanAfterSidecars(of ids: [AssetID], in session: LibrarySession) throws {
        try ScanJournal(library: session.library).begin(ids)
        try session.index.delete(ids)
    }

    @Test func aTrashAfterAKilledScanKeepsTheKilledBatchsIds() throws {
        let (session, _) = try Self.openedSample()
        let photos = try session.index.assets(matching: AssetQuery()).filter { $0.kind == .photo && $0.livePhotoOf == nil && $0.duplicateOf == nil }
        let killed = Array(photos.prefix(3))
        let other = photos[3]
        try Self.killScanAfterSidecars(of: killed.map(\.id), in: session)

        // Another writing command first (today's `trash` overwrote the journal), then a scan.
        _ = try session.write { w in try w.trash.trash([other]) { Issue.record("trash failed: \($0)") } }
        _ = try session.scan()

        for a in killed {
            let now = try session.index.asset(path: a.path)
            #expect(now?.id == a.id, "\(a.path) got a second id")
        }
        #expect(try Self.sidecarCount(session.library) == session.index.count(), "one sidecar per asset, no second ids")
        let report = try LibrarySession.doctor(session.library, features: [])
        #expect(report.healthy, "\(report.checks.filter { $0.status != .ok }.map(\.detail))")
    }

    @Test func aChangeKilledAfterItsSidecarsWinsOverTheIndexAtTheNextWrite() throws {
        let (session, _) = try Self.openedSample()
        let photos = try session.index.assets(matching: AssetQuery()).filter { $0.kind == .photo && $0.livePhotoOf == nil }
        var renamed = photos[0]
        // `people name` killed between its sidecars and the index: the sidecar says the new truth.
        renamed.features = try { var f = renamed.features; try f.set("test_note", "Alice"); return f }()
        try SidecarStore(library: session.library).writeBatch([renamed])
        try ScanJournal(library: session.library).begin([renamed.id])

        _ = try session.write { w in try w.trash.trash([photos[1]]) { Issue.record("trash failed: \($0)") } }

        let note = try session.index.asset(id: renamed.id)?.features.value("test_note", as: String.self)
        #expect(note == "Alice", "the index kept the old record")
        let journal = session.library.stateFolder.appendingPathComponent("journal.json").path
        #expect(FileManager.default.fileExists(atPath: journal) == false)
    }

    @Test func aBareCommitReplaysAKilledBatchBeforeStartingItsOwn() throws {
        // The writer itself, without a session: no caller can forget the replay.
        let (session, _) = try Self.openedSample()
        let photos = try session.index.assets(matching: AssetQuery()).filter { $0.kind == .photo && $0.livePhotoOf == nil }
        try Self.killScanAfterSidecars(of: [photos[0].id], in: session)
        let writer = AssetWriter(library: session.library, index: session.index)
        try writer.update([photos[1].id]) { a in try a.features.set("test_note", "x") }
        #expect(try session.index.asset(id: photos[0].id) != nil, "the killed batch's asset is back in the index")
    }
}
