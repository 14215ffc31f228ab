import Foundation
import GRDB
import Testing
import TestSupport
@testable import PhotoLibrary

/// The one write path on a real scanned library: feature fields and tables, journal recovery,
/// query fields, and the live updater's in-memory records staying true.
@Suite(.serialized)
struct AssetWriterTests {
    struct Rating: Codable, Equatable, Sendable {
        var stars: Int
        var note: String
    }

    @Test func aFeatureFieldLandsInTheSidecarTheIndexAndSurvivesARebuild() throws {
        let (library, index, _, _) = try LibraryTests.scannedSample()
        let writer = AssetWriter(library: library, index: index)
        let photos = try index.assets(matching: AssetQuery()).filter { $0.kind == .photo }
        let picked = try #require(photos.first)
        try writer.setFeature("rating", Rating(stars: 4, note: "sharp \"eyes\""), on: picked.id)

        // The sidecar, the truth, carries it under "features".
        let sidecar = try String(contentsOf: library.sidecarURL(for: picked.id), encoding: .utf8)
        #expect(sidecar.contains("\"features\"") && sidecar.contains("\"stars\" : 4"))
        #expect(try index.asset(id: picked.id)?.features.value("rating", as: Rating.self) == Rating(stars: 4, note: "sharp \"eyes\""))
        // Other sidecars have no such key at all (older readers and diffs stay quiet).
        let other = try #require(photos.dropFirst().first)
        #expect(try !String(contentsOf: library.sidecarURL(for: other.id), encoding: .utf8).contains("\"features\""))

        // A query field finds it, without SQL in the caller.
        var q = AssetQuery()
        q.features = [FeatureCondition(feature: "rating", field: "stars", .atLeast(4))]
        #expect(try index.assets(matching: q).map(\.id) == [picked.id])
        q.features = [FeatureCondition(feature: "rating", field: "stars", .atLeast(5))]
        #expect(try index.assets(matching: q).isEmpty)
        q.features = [FeatureCondition(feature: "rating", .exists)]
        #expect(try index.count(q) == 1)

        // Rebuilt from the sidecars: still there.
        _ = try library.rebuild()
        let reopened = try Index(library: library)
        #expect(try reopened.asset(id: picked.id)?.features.value("rating", as: Rating.self)?.stars == 4)

        // nil removes it.
        try AssetWriter(library: library, index: reopened).setFeature("rating", Rating?.none, on: picked.id)
        #expect(try reopened.asset(id: picked.id)?.features.isEmpty == true)
        #expect(try !String(contentsOf: library.sidecarURL(for: picked.id), encoding: .utf8).contains("\"features\""))
    }

    @Test func aBadFeatureNameIsOneClearError() throws {
        var fields = FeatureFields()
        #expect(throws: ShoeboxError.self) { try fields.set("Bad Name", 1) }
        #expect(throws: ShoeboxError.self) { try fields.set("", 1) }
        try fields.set("ok_1", 1)
        #expect(!fields.isEmpty)
    }

    @Test func aWriteInterruptedAfterItsSidecarsIsFinishedByTheNextWriter() throws {
        let (library, index, _, _) = try LibraryTests.scannedSample()
        var asset = try #require(try index.assets(matching: AssetQuery()).first)
        // What a kill between the sidecar and the index leaves: the journal and the new sidecar.
        try asset.features.set("rating", Rating(stars: 2, note: ""))
        try ScanJournal(library: library).begin([asset.id])
        try SidecarStore(library: library).writeBatch([asset])
        #expect(try index.asset(id: asset.id)?.features.isEmpty == true)

        try AssetWriter(library: library, index: index).recoverUnfinishedBatch()
        #expect(try index.asset(id: asset.id)?.features.value("rating", as: Rating.self)?.stars == 2)
        #expect(!FileManager.default.fileExists(atPath: library.stateFolder.appendingPathComponent("journal.json").path))
    }

    /// A batch's new sidecars are renamed unflushed and made durable by one flush at its end
    /// (issue 33): a power cut before it may leave one empty or cut short. Replaying the batch
    /// removes such a sidecar when the index does not know its asset (its file is found again as
    /// new); a sidecar the index knows, or one that is JSON of a newer schema, is kept.
    @Test func aNewSidecarLeftTornByAPowerCutIsDroppedWhenItsBatchIsReplayed() throws {
        let (library, index, _, _) = try LibraryTests.scannedSample()
        let known = try #require(try index.assets(matching: AssetQuery()).first)
        let (torn, cutShort, newer) = (AssetID(), AssetID(), AssetID())
        let sidecars = library.root.appendingPathComponent(LibraryLayout.sidecarsFolder)
        func sidecar(_ id: AssetID) -> URL { sidecars.appendingPathComponent(SidecarStore.fileName(of: id)) }
        try ScanJournal(library: library).begin([torn, cutShort, newer, known.id])
        try Data().write(to: sidecar(torn))
        try Data("{\n  \"asset\" : {\n    \"id\" : \"".utf8).write(to: sidecar(cutShort))
        try Data("{\"schema\": 99, \"asset\": {}}".utf8).write(to: sidecar(newer))
        try Data().write(to: sidecar(known.id))

        try AssetWriter(library: library, index: index).recoverUnfinishedBatch()
        #expect(!FileManager.default.fileExists(atPath: sidecar(torn).path))
        #expect(!FileManager.default.fileExists(atPath: sidecar(cutShort).path))
        #expect(FileManager.default.fileExists(atPath: sidecar(newer).path), "a newer Shoebox's sidecar is never removed")
        #expect(FileManager.default.fileExists(atPath: sidecar(known.id).path), "one the index knows is left for doctor")
        #expect(try index.asset(id: known.id) == known)
        #expect(!FileManager.default.fileExists(atPath: library.stateFolder.appendingPathComponent("journal.json").path))
    }

    /// On ext4 without a journal a power cut can leave a new file's name pointing at blocks that
    /// still hold what a deleted file had there: a whole sidecar of another asset (one purged from
    /// the trash). Replaying the batch must not take that asset back into the index; the file
    /// under the new id's name stands for nothing and is removed.
    @Test func aNewSidecarHoldingAnotherAssetsOldBytesIsNotReplayedAsThatAsset() throws {
        let (library, index, _, _) = try LibraryTests.scannedSample()
        let template = try #require(try index.assets(matching: AssetQuery()).first)
        var purged = template
        purged.id = AssetID()
        purged.path = "2019/purged long ago.jpg"
        let named = AssetID()
        let sidecar = library.root.appendingPathComponent(LibraryLayout.sidecarsFolder)
            .appendingPathComponent(SidecarStore.fileName(of: named))
        try ScanJournal(library: library).begin([named])
        try ShoeboxJSON.makeEncoder(pretty: true).encode(Sidecar(asset: purged)).write(to: sidecar)

        try AssetWriter(library: library, index: index).recoverUnfinishedBatch()
        #expect(try index.asset(id: purged.id) == nil, "a purged asset came back from stale blocks")
        #expect(try index.asset(id: named) == nil)
        #expect(!FileManager.default.fileExists(atPath: sidecar.path))
    }

    /// A batch's replay record is removed (and that removal flushed) once the index has its rows:
    /// the index's commit must be on disk by then, or a power cut after it leaves sidecars no
    /// row and no record claims, and the next scan gives their files a second id. SQLite in WAL
    /// mode under GRDB's default (`synchronous = NORMAL`) does not flush a commit; FULL does.
    @Test func theIndexFlushesEachCommitBeforeTheBatchsRecordGoes() throws {
        let (_, index, _, _) = try LibraryTests.scannedSample()
        let level = try index.pool.write { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        #expect(level == 2, "PRAGMA synchronous is \(level.map(String.init) ?? "nil") on the writer; FULL (2) flushes each commit")
    }

    @Test func featureTableRecordsAreStoredReadAndForgottenWithTheirAsset() throws {
        let table = FeatureTable("test_hashes")
        let (library, _, _, _) = try LibraryTests.scannedSample()
        // The table exists in an index opened with it in its schema (no process-wide registry).
        let index = try Index(library: library, schema: IndexSchema(tables: [table]))
        let writer = AssetWriter(library: library, index: index)
        let assets = try index.assets(matching: AssetQuery())
        let (a, b) = (assets[0], assets[1])
        try writer.put([FeatureRecord(key: "h:" + a.id.rawValue, assetID: a.id, value: Rating(stars: 1, note: "a")),
                        FeatureRecord(key: "h:" + b.id.rawValue, assetID: b.id, value: Rating(stars: 2, note: "b")),
                        FeatureRecord(key: "settings", value: Rating(stars: 0, note: "global"))], in: table)
        #expect(try index.records(in: table, as: Rating.self).count == 3)
        #expect(try index.records(in: table, as: Rating.self, assetID: b.id).map(\.value.note) == ["b"])
        #expect(try index.record("settings", in: table, as: Rating.self)?.note == "global")

        try writer.forget([a.id])
        #expect(try index.records(in: table, as: Rating.self).map(\.key).sorted() == ["h:" + b.id.rawValue, "settings"].sorted())
        try writer.remove(["settings"], from: table)
        #expect(try index.record("settings", in: table, as: Rating.self) == nil)
        #expect(throws: ShoeboxError.self) { try index.records(in: FeatureTable("never_registered"), as: Rating.self) }
    }

    @Test func queryFieldsFilterByDateScoreAndIds() throws {
        let (library, index, _, _) = try LibraryTests.scannedSample()
        let all = try index.assets(matching: AssetQuery())
        let dated = all.compactMap { a in a.takenAt.map { (a, $0.date) } }.sorted { $0.1 < $1.1 }
        let middle = dated[dated.count / 2].1
        var q = AssetQuery()
        q.takenFrom = middle
        let later = try index.assets(matching: q)
        #expect(!later.isEmpty && later.allSatisfy { ($0.takenAt?.date ?? .distantPast) >= middle })
        q = AssetQuery()
        q.takenBefore = middle
        #expect(try index.count(q) + later.count == dated.count)

        let writer = AssetWriter(library: library, index: index)
        try writer.update([all[0].id, all[1].id]) { $0.score = $0.id == all[0].id ? 0.9 : 0.2 }
        q = AssetQuery()
        q.minScore = 0.5
        #expect(try index.assets(matching: q).map(\.id) == [all[0].id])
        q = AssetQuery()
        q.ids = [all[1].id, all[2].id]
        #expect(Set(try index.assets(matching: q).map(\.id)) == [all[1].id, all[2].id])
        q.ids = []
        #expect(try index.count(q) == 0)
    }

    @Test func theLiveUpdaterSeesWhatAnotherProcessWroteBetweenBatches() throws {
        let (library, index, _, _) = try LibraryTests.scannedSample()
        let updater = LiveUpdater(library: library, index: index)
        let photo = try #require(try index.assets(matching: AssetQuery()).first { $0.kind == .photo && $0.livePhotoOf == nil })
        // A first batch: the updater now holds the library's records.
        _ = try updater.apply([.removed("no-such-file.jpg")])

        // Meanwhile another process (a scan) saw the file go: the asset is missing.
        let aside = Scratch.root.appendingPathComponent("aside-\(UUID().uuidString)")
        try FileManager.default.moveItem(at: library.url(for: photo.path), to: aside)
        try AssetWriter(library: library, index: index).update([photo.id]) { $0.state = .missing }

        // The same content comes back under another name: it returns (it was missing), same id.
        let back = (photo.folder.isEmpty ? "" : photo.folder + "/") + "back-" + photo.name
        try FileManager.default.moveItem(at: aside, to: library.url(for: back))
        let report = try updater.apply([.arrived(back)])
        #expect(report.entries.contains(.returned(photo.id, path: back, from: photo.path)), "\(report.entries)")
        #expect(try index.asset(id: photo.id)?.state == .present)
    }
}

/// Found by the fault injection (a `trash` of a Live Photo killed between moving its photo and
/// its video): the scan that follows must unpair the video, or `list` hides it for good.
@Suite(.serialized)
struct InterruptedLivePhotoTrashTests {
    @Test func aVideoWhosePhotoWentToTheTrashAloneIsListedAfterTheNextScan() throws {
        let (library, index, _, _) = try LibraryTests.scannedSample()
        let video = try #require(try index.allAssets().first { $0.livePhotoOf != nil && $0.state == .present })
        let photo = try #require(try index.asset(id: video.livePhotoOf!))
        // What the killed `trash` left: the photo in Recently Deleted with its info, the video in place.
        let trash = library.root.appendingPathComponent("Recently Deleted")
        try FileManager.default.createDirectory(at: trash.appendingPathComponent("files"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: trash.appendingPathComponent("info"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: library.url(for: photo.path), to: trash.appendingPathComponent("files/" + photo.name))
        try Data(TrashInfo(path: photo.path, deletionDate: Date()).render().utf8)
            .write(to: trash.appendingPathComponent("info/" + photo.name + ".trashinfo"))

        _ = try Scanner(library: library, index: index).scan()
        #expect(try index.asset(id: photo.id)?.state == .trashed)
        let listed = try index.assets(matching: AssetQuery()).map(\.id)
        #expect(listed.contains(video.id), "the video is listed on its own now that its photo is in the trash")
        #expect(try index.asset(id: video.id)?.livePhotoOf == nil)
    }
}
