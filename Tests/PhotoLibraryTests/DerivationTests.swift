import Foundation
import Testing
import Metadata
@testable import PhotoLibrary
import TestSupport

/// Issue 14: kinds, places and dates derived from real cameras' files (made with exiftool), and
/// an index made under the previous rules brought up to date by the next scan.
@Suite(.serialized, .enabled(if: ExiftoolFiles.available))
struct DerivationTests {
    /// A library holding a camera photo at an iPad's screen size (exposure EXIF, no make or
    /// model), a real screenshot of that size, an IPTC-only photo and one with IPTC and GPS.
    static func scanned() throws -> (Library, Index, ScanReport) {
        let root = try ExiftoolFiles.folder()
        try ExiftoolFiles.jpeg(root.appendingPathComponent("IMG_0001.jpg"), width: 2048, height: 1536,
                               tags: ["-ExposureTime=1/125", "-FNumber=2.8", "-ISO=100"])
        try ExiftoolFiles.jpeg(root.appendingPathComponent("capture.jpg"), width: 1536, height: 2048, tags: [])
        try ExiftoolFiles.jpeg(root.appendingPathComponent("agency.jpg"), tags: [
            "-IPTC:DateCreated=2019:07:04", "-IPTC:TimeCreated=14:30:15+02:00",
            "-IPTC:City=Lyon", "-IPTC:Country-PrimaryLocationName=France", "-IPTC:Keywords=press"])
        try ExiftoolFiles.jpeg(root.appendingPathComponent("gps.jpg"), tags: [
            "-IPTC:City=Lyon", "-IPTC:Country-PrimaryLocationName=France",
            "-GPSLatitude=48.8566", "-GPSLatitudeRef=N", "-GPSLongitude=2.3522", "-GPSLongitudeRef=E"])
        let library = try Library.initialize(at: root)
        let index = try Index(library: library)
        let report = try Scanner(library: library, index: index).scan()
        return (library, index, report)
    }

    static func asset(_ index: Index, _ name: String) throws -> Asset {
        try #require(try index.allAssets().first { $0.path == name })
    }

    @Test func aPhotoWithExposureDataIsNeverAScreenshot() throws {
        let (_, index, _) = try Self.scanned()
        #expect(try Self.asset(index, "IMG_0001.jpg").kind == .photo)
        #expect(try Self.asset(index, "IMG_0001.jpg").isUtility == false)
        #expect(try Self.asset(index, "capture.jpg").kind == .screenshot)
    }

    /// Issue 32: a place a person wrote wins over the gazetteer's guess from GPS (it was the
    /// other way round: gps.jpg, written "Lyon" with a position in Paris, was Paris).
    @Test func iptcPlacesAndDatesWhenThereIsNoGPSAndAWrittenPlaceWinsOverGPS() throws {
        let (_, index, _) = try Self.scanned()
        let agency = try Self.asset(index, "agency.jpg")
        #expect(agency.place == Place(city: "Lyon", country: "France"))
        #expect(agency.takenAt?.iso8601 == "2019-07-04T14:30:15+02:00")
        #expect(agency.takenAt?.source == .iptc)
        #expect(try Self.asset(index, "gps.jpg").place == Place(city: "Lyon", country: "France"))
    }

    /// What an index made under Derivation 2 holds for these files: the reader of then saw no
    /// IPTC and no exposure, so it called the camera photo a screenshot. A sentinel hash shows
    /// the next scan re-derives them without hashing the files again.
    @Test func anIndexUnderTheOldRulesPicksUpTheFixesWithoutRehashing() throws {
        let (library, index, _) = try Self.scanned()
        let writer = AssetWriter(library: library, index: index)
        let sentinel = String(repeating: "0", count: 64)
        var old: [Asset] = []
        for var a in try index.allAssets() {
            a.metadata.hasExposure = nil
            a.metadata.modifiedAt = nil
            if a.metadata.takenAt?.source == .iptc { a.metadata.takenAt = nil }
            a.metadata.city = nil
            a.metadata.country = nil
            a.sha256 = sentinel
            a.kind = AssetClassifier.kind(of: a.metadata, name: a.name)
            a.isUtility = a.kind == .screenshot
            a.place = nil
            old.append(a)
        }
        try writer.commit(old)
        try index.setMeta("derivation", "2")
        let idsBefore = try index.allAssets().map(\.id).sorted { $0.rawValue < $1.rawValue }
        #expect(try Self.asset(index, "IMG_0001.jpg").kind == .screenshot, "as Derivation 2 had it")

        let report = try Scanner(library: library, index: index).scan()
        #expect(report.added == 0 && report.updated == 0 && report.moved == 0)
        #expect(try index.meta("derivation") == Derivation.version)
        let after = try index.allAssets()
        #expect(after.map(\.id).sorted { $0.rawValue < $1.rawValue } == idsBefore, "same ids")
        #expect(after.allSatisfy { $0.sha256 == sentinel }, "no file was hashed again")
        #expect(try Self.asset(index, "IMG_0001.jpg").kind == .photo)
        let agency = try Self.asset(index, "agency.jpg")
        #expect(agency.place == Place(city: "Lyon", country: "France"))
        #expect(agency.takenAt?.source == .iptc)
        // Derivation 6: the written city, not the GPS's Paris.
        #expect(try Self.asset(index, "gps.jpg").place == Place(city: "Lyon", country: "France"))
    }

    /// Derivation 4's reader dropped a file's own keywords: the next scan reads the headers again
    /// (no hashing) and `keywords` shows them.
    @Test func anIndexUnderDerivation4GetsTheFilesOwnKeywords() throws {
        let (library, index, _) = try Self.scanned()
        #expect(try Self.asset(index, "agency.jpg").keywords == ["press"])
        let writer = AssetWriter(library: library, index: index)
        let sentinel = String(repeating: "0", count: 64)
        try writer.commit(try index.allAssets().map { a in
            var a = a
            a.metadata.keywords = nil
            a.sha256 = sentinel
            return a
        })
        try index.setMeta("derivation", "4")
        #expect(try Self.asset(index, "agency.jpg").keywords == [])

        _ = try Scanner(library: library, index: index).scan()
        #expect(try Self.asset(index, "agency.jpg").keywords == ["press"])
        #expect(try index.allAssets().allSatisfy { $0.sha256 == sentinel }, "no file was hashed again")
    }
}
