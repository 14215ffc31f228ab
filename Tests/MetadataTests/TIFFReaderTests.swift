import Foundation
import Testing
@testable import Metadata
import TestSupport

/// Issue 32: plain TIFF images are read through libtiff — a real photograph saved as a TIFF by
/// ImageMagick and tagged by exiftool (test-data/photos/coffee.tif, CC0: see SOURCES.md).
@Suite("TIFF metadata")
struct TIFFReaderTests {
    static let coffee = TestRoll.repositoryRoot.appendingPathComponent("test-data/photos/coffee.tif")

    @Test("a real TIFF gives its size, orientation, EXIF date, GPS, make and its XMP and IPTC fields")
    func realTIFF() throws {
        let m = try readMetadata(Self.coffee)
        #expect(m.format == .tiff)
        #expect(m.pixelWidth == 600 && m.pixelHeight == 400 && m.orientation == 6)
        #expect(m.uprightWidth == 400 && m.uprightHeight == 600)
        #expect(m.takenAt?.iso8601 == "2019-07-14T10:20:30+02:00")
        #expect(m.takenAt?.source == .exif)
        #expect(m.make == "Nikon" && m.model == "TIFF Test")
        let gps = try #require(m.gps)
        #expect(abs(gps.lat - 43.4633) < 1e-3 && abs(gps.lon - 11.8796) < 1e-3)
        #expect(m.city == "Tórshavn" && m.country == "Faroe Islands")
        #expect(m.persons == ["Rachel"])
        #expect(m.keywords == ["scan"])
    }

    @Test("a TIFF header is a TIFF under .tif, .tiff or no extension, a raw file under a raw one, nothing under another")
    func sniffing() throws {
        let head = Array(try Data(contentsOf: Self.coffee).prefix(4096))
        #expect(MetadataReader.sniff(head, fileName: "scan.TIF") == .tiff)
        #expect(MetadataReader.sniff(head, fileName: "scan.tiff") == .tiff)
        #expect(MetadataReader.sniff(head, fileName: "scan") == .tiff)
        #expect(MetadataReader.sniff(head, fileName: "DSC_0001.NEF") == .raw)
        #expect(MetadataReader.sniff(head, fileName: "IMGP0001.PEF") == nil)
    }

    @Test("a truncated or garbled TIFF is one line naming the problem, never a crash")
    func damaged() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.coffee))
        for cut in [8, 16, 200] {
            do {
                _ = try MetadataReader.read(MemoryByteSource(Array(bytes.prefix(cut))), fileName: "cut.tif")
                Issue.record("a TIFF cut at \(cut) bytes was read")
            } catch let e as MetadataError {
                #expect(!e.message.contains("\n") && e.message.contains("TIFF"), "\(e.message)")
            }
        }
        // The directory is at the end (ImageMagick writes it after the strips): the strips cut
        // away, the tags are still there, and the decode says what is missing.
        var garbled = bytes
        for i in 8..<min(garbled.count, 4000) { garbled[i] = 0xFF }
        _ = try? MetadataReader.read(MemoryByteSource(garbled), fileName: "garbled.tif")
    }
}
