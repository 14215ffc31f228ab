import Foundation
import GRDB
import Metadata
import Testing
import TestSupport
@testable import PhotoLibrary

/// Sidecars are a public on-disk format, and JSONEncoder wrote them until issue 33: the streaming
/// writer that writes them now (`JSONDocuments`) must give the same bytes, for real files with GPS,
/// XMP, people and odd strings, and so must the index's JSON columns (compact). A sidecar written
/// before reads back as it did.
@Suite(.serialized)
struct SidecarEncodingTests {
    /// The sample library (GPS, dates, XMP people, keywords, HEIC, video) and photos whose tags
    /// hold what JSON must escape or may leave as it is.
    static func scannedLibrary() throws -> (Library, Index) {
        let copy = try TestRoll.sampleCopy()
        if ExiftoolFiles.available {
            let odd = copy.root.appendingPathComponent("odd strings/\"quoted\" \\ back")
            try FileManager.default.createDirectory(at: odd, withIntermediateDirectories: true)
            try ExiftoolFiles.jpeg(odd.appendingPathComponent("tab\tand é 🎉.jpg"), tags: [
                "-XMP-dc:Subject=a \"quoted\" word", "-XMP-dc:Subject=back\\slash / slash", "-XMP-dc:Subject=é 🎉 ü",
                "-XMP-iptcExt:PersonInImage=Zoë \"Z\" O'Neil", "-XMP-photoshop:City=Tórshavn",
                "-GPSLatitude=62.0079", "-GPSLatitudeRef=N", "-GPSLongitude=6.79", "-GPSLongitudeRef=W",
                "-EXIF:Make=Line\nBreak", "-EXIF:Model=\u{1}ctl", "-DateTimeOriginal=2024:05:14 10:34:56",
                "-OffsetTimeOriginal=+02:00", "-IPTC:Keywords=iptc kw",
            ])
            try ExiftoolFiles.jpeg(odd.appendingPathComponent("plain.jpg"), tags: [])
        }
        let library = try Library.initialize(at: copy.root)
        let index = try Index(library: library)
        let report = try Scanner(library: library, index: index).scan()
        #expect(report.failed.isEmpty, "\(report.failed)")
        return (library, index)
    }

    static func reference(_ asset: Asset) throws -> Data {
        try ShoeboxJSON.makeEncoder(pretty: true).encode(Sidecar(asset: asset))
    }

    @Test func everySidecarOfAScannedLibraryIsJSONEncodersBytes() throws {
        let (library, index) = try Self.scannedLibrary()
        let assets = try index.allAssets()
        #expect(assets.count > 10)
        // Not a vacuous comparison: the roll has what a sidecar can hold.
        #expect(assets.contains { $0.metadata.gps != nil && $0.place != nil })
        #expect(assets.contains { !$0.persons.isEmpty })
        #expect(assets.contains { $0.kind == .video })
        if ExiftoolFiles.available {
            #expect(assets.contains { $0.keywords.contains("a \"quoted\" word") && $0.path.contains("\t") })
        }
        let store = SidecarStore(library: library)
        for asset in assets {
            // The file the scan wrote is what JSONEncoder writes for the asset it holds …
            let written = try Data(contentsOf: library.sidecarURL(for: asset.id))
            let read = try store.decode(written, name: asset.id.rawValue).asset
            #expect(written == (try Self.reference(read)), "\(asset.path)")
            // … which is the asset the index holds, and the writer gives its bytes too.
            #expect(read == asset, "\(asset.path)")
            #expect(try SidecarStore.encode([asset])[0].data == (try Self.reference(asset)), "\(asset.path)")
        }
    }

    @Test func theIndexsJSONColumnsAreJSONEncodersCompactBytes() throws {
        let (_, index) = try Self.scannedLibrary()
        let encoder = ShoeboxJSON.makeEncoder(pretty: false)
        let rows = try index.read { db in try Row.fetchAll(db, sql: "SELECT id, metadata, persons FROM asset") }
        #expect(rows.count > 10)
        for row in rows {
            let asset = try #require(try index.asset(id: AssetID(trusted: row[0])))
            #expect(row[1] as String == String(decoding: try encoder.encode(asset.metadata), as: UTF8.self), "\(asset.path)")
            #expect(row[2] as String == String(decoding: try encoder.encode(asset.persons), as: UTF8.self), "\(asset.path)")
        }
    }

    /// Every optional member an asset can carry (trash, duplicate, Live Photo, score, features,
    /// analysis-free groups) set, and each left out.
    @Test func anAssetWithEveryMemberSetIsJSONEncodersBytes() throws {
        var a = LibraryFixtures.asset(id: "a1b2c3d4e5f6a7b8", path: "2024/x \"y\"/IMG_0001.JPG", sha: String(repeating: "ab", count: 32))
        a.place = Place(city: "Tórshavn", country: nil)
        a.duplicateOf = AssetID(trusted: "0011223344556677")
        a.livePhotoOf = AssetID(trusted: "8899aabbccddeeff")
        a.score = 0.1 + 0.2
        a.isUtility = true
        a.similarGroup = "g/1"
        a.trash = TrashRecord(name: "IMG_0001.2.JPG", deletedAt: Date(timeIntervalSince1970: 1_700_000_000.5))
        try a.features.set("rating", ["stars": 4])
        var m = a.metadata
        m.gps = GPSCoordinate(lat: -33.8679, lon: 151.2073)
        m.keywords = ["b", "a\\b", "\u{7}"]
        m.city = "Sydney"
        a.metadata = m
        let plain = LibraryFixtures.asset(id: "ffeeddccbbaa9988", path: "a.jpg", sha: "00")
        let encoded = try SidecarStore.encode([a, plain, a])
        #expect(encoded.map(\.name) == ["a1b2c3d4e5f6a7b8.json", "ffeeddccbbaa9988.json", "a1b2c3d4e5f6a7b8.json"])
        #expect(encoded[0].data == (try Self.reference(a)))
        #expect(encoded[1].data == (try Self.reference(plain)))
        #expect(encoded[2].data == encoded[0].data, "one writer for the batch: nothing of one document in the next")
    }

    /// A sidecar JSONEncoder wrote (every sidecar before issue 33) reads back as the same asset.
    @Test func aSidecarWrittenByJSONEncoderStillReads() throws {
        let (library, index) = try Self.scannedLibrary()
        let store = SidecarStore(library: library)
        for asset in try index.allAssets().prefix(20) {
            #expect(try store.decode(try Self.reference(asset), name: "old.json").asset == asset)
        }
    }
}
