import Foundation
import GRDB
import Metadata
import Testing
import TestSupport
@testable import PhotoLibrary

/// The library core in-process, on copies of the committed sample library.
@Suite(.serialized)
struct LibraryTests {
    /// A private, scanned copy of the sample library.
    static func scannedSample() throws -> (Library, Index, TestRoll.Made, ScanReport) {
        let copy = try TestRoll.sampleCopy()
        let library = try Library.initialize(at: copy.root)
        let index = try Index(library: library)
        let report = try Scanner(library: library, index: index).scan()
        return (library, index, copy, report)
    }

    @Test func theSampleLibraryScansCleanly() throws {
        let (_, index, roll, report) = try Self.scannedSample()
        #expect(report.failed.isEmpty, "\(report.failed)")
        let media = roll.entries.count
        #expect(report.added == media)
        #expect(report.duplicates == roll.entries.filter { $0.duplicate_of != nil }.count)
        #expect(try index.count(state: .present) == media)
        // The SOURCES.md beside the photos is neither indexed nor a problem.
        #expect(try index.asset(path: "SOURCES.md") == nil)
    }

    @Test func aSecondScanOpensNothing() throws {
        let (library, index, roll, _) = try Self.scannedSample()
        let again = try Scanner(library: library, index: index).scan()
        #expect(again.unchanged == roll.entries.count)
        #expect(again.bytesRead == 0 && again.added == 0 && again.updated == 0 && again.moved == 0)
    }

    @Test func rebuildRecreatesExactlyTheSameAssets() throws {
        let (library, index, _, _) = try Self.scannedSample()
        let before = try index.allAssets()
        let report = try library.rebuild()
        #expect(report.sidecars == before.count)
        #expect(report.scan.added == 0 && report.scan.unchanged == before.count)
        let after = try Index(library: library).allAssets()
        #expect(after == before)
    }

    @Test func sidecarsHoldEverythingTheIndexHas() throws {
        let (library, index, _, _) = try Self.scannedSample()
        let store = SidecarStore(library: library)
        for asset in try index.allAssets() {
            #expect(try store.read(asset.id).asset == asset)
        }
    }

    @Test func anInterruptedBatchIsReplayedFromItsSidecars() throws {
        let (library, index, _, _) = try Self.scannedSample()
        let victim = try index.allAssets().first { $0.kind == .photo }!
        // The process died after writing sidecars and journal but before the index transaction.
        _ = try index.pool.write { db in try db.execute(sql: "DELETE FROM asset WHERE id = ?", arguments: [victim.id.rawValue]) }
        try ScanJournal(library: library).begin([victim.id])
        let report = try Scanner(library: library, index: index).scan()
        #expect(report.added == 0, "the file keeps its id instead of becoming a new asset")
        #expect(try index.asset(id: victim.id) == victim)
        #expect(!FileManager.default.fileExists(atPath: library.stateFolder.appendingPathComponent("journal.json").path))
    }

    @Test func listingsFilterAndSortLikeTheContractSays() throws {
        let (_, index, roll, _) = try Self.scannedSample()
        var q = AssetQuery()
        q.person = "tom"
        let toms = try index.assets(matching: q)
        #expect(toms.count == roll.entries.filter { $0.persons.contains { $0.name == "Tom" } }.count)
        #expect(toms.count >= 10)
        q = AssetQuery()
        q.kind = .screenshot
        #expect(try index.assets(matching: q).count == roll.entries.filter { $0.kind == "screenshot" }.count)
        q = AssetQuery()
        q.place = "reykjavik"
        // Every GPS-carrying Reykjavik photo: the gazetteer names it "Reykjavík", matched accent-insensitively.
        let expectedPlace = roll.entries.filter { $0.city == "Reykjavik" && $0.live_photo_of == nil }.count
        #expect(try index.assets(matching: q).count == expectedPlace)
        q = AssetQuery()
        q.sort = .date
        let byDate = try index.assets(matching: q)
        let dates = byDate.compactMap { $0.takenAt?.date }
        #expect(dates == dates.sorted())
        q.sort = .size
        let sizes = try index.assets(matching: q).map(\.size)
        #expect(sizes == sizes.sorted(by: >))
        q.sort = .name
        q.reverse = true
        let names = try index.assets(matching: q).map(\.path)
        #expect(names == names.sorted(by: >))
        q = AssetQuery()
        q.year = 2021
        let years = try index.assets(matching: q)
        #expect(!years.isEmpty && years.allSatisfy { $0.year == 2021 })
    }

    @Test func idsResolveFromPrefixesAndPaths() throws {
        let (library, index, _, _) = try Self.scannedSample()
        let a = try index.allAssets().first { $0.state == .present }!
        #expect(try index.resolve(a.id.rawValue).id == a.id)
        #expect(try index.resolve(String(a.id.rawValue.prefix(13))).id == a.id)
        #expect(try index.resolve(a.path).id == a.id)
        #expect(try index.resolve(library.url(for: a.path).path).id == a.id)
        #expect(throws: ShoeboxError.self) { try index.resolve("no/such/file.jpg") }
    }

    @Test func screenshotsAreToldApartFromPhotos() {
        let screen = MediaMetadata(format: .png, pixelWidth: 1170, pixelHeight: 2532)
        #expect(AssetClassifier.kind(of: screen, name: "IMG_0001.PNG") == .screenshot)
        var camera = MediaMetadata(format: .jpeg, pixelWidth: 1170, pixelHeight: 2532)
        camera.make = "Apple"
        #expect(AssetClassifier.kind(of: camera, name: "IMG_0002.JPG") == .photo)
        let odd = MediaMetadata(format: .png, pixelWidth: 1000, pixelHeight: 700)
        #expect(AssetClassifier.kind(of: odd, name: "export.png") == .photo)
        #expect(AssetClassifier.kind(of: odd, name: "Screenshot 2024-05-01 at 10.11.12.png") == .screenshot)
        #expect(AssetClassifier.kind(of: MediaMetadata(format: .mov), name: "IMG_1.MOV") == .video)
    }

    @Test func temporaryAndReservedNamesAreNotIndexable() {
        #expect(Library.isIndexable(relativePath: "2024/IMG_1.JPG"))
        for p in ["Albums/Years/2024/001 IMG_1.JPG", "Recently Deleted/files/a.jpg", "Tracker/photos/x.jpg",
                  ".shoebox/index.sqlite", "2024/.IMG_1.JPG", "2024/IMG_1.JPG.part", "a.jpg.crdownload",
                  "a.jpg~", "x/.syncthing.a.jpg.tmp", "photo.tmp"] {
            #expect(!Library.isIndexable(relativePath: p), "\(p)")
        }
    }
}
