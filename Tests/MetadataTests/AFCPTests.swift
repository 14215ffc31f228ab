import Foundation
import Testing
@testable import Metadata
import TestSupport

/// Issue 32: IPTC-IIM in an AFCP trailer (AXS File Concatenation Protocol), which older tools
/// append to a JPEG or TIFF: read beneath the file's own IPTC. exiftool reads AFCP but does not
/// create it, so the trailer is written here as ExifTool's AFCP.pm reads it.
@Suite struct AFCPTests {
    static func dataSet(_ tag: UInt8, _ text: String) -> [UInt8] {
        let value = Array(text.utf8)
        return [0x1C, 0x02, tag, UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value
    }

    /// `file` + an AFCP trailer holding `iptc`, big-endian ("AXS!") or little-endian ("AXS*").
    static func withTrailer(_ file: [UInt8], iptc: [UInt8], bigEndian: Bool) -> [UInt8] {
        func u32(_ v: Int) -> [UInt8] {
            let b = [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
            return bigEndian ? b : b.reversed()
        }
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        let mark = Array((bigEndian ? "AXS!" : "AXS*").utf8)
        let start = file.count
        let text = Array("a note".utf8)
        // Two entries: a TEXT record first, so the IPTC one is found by its tag, not its place.
        let header = mark + u16(1) + u16(2) + u32(0)
        let valuesAt = start + header.count + 24
        let directory = Array("TEXT".utf8) + u32(text.count) + u32(valuesAt)
            + Array("IPTC".utf8) + u32(iptc.count) + u32(valuesAt + text.count)
        return file + header + directory + text + iptc + mark + u32(start) + u32(0)
    }

    @Test("a JPEG with IPTC only in its AFCP trailer gets its city, country, date and keywords, in both byte orders")
    func trailerOnly() throws {
        let jpeg = [UInt8](try Data(contentsOf: TestRoll.repositoryRoot.appendingPathComponent("test-data/photos/chelsea.jpg")))
        let iptc = Self.dataSet(0x5A, "Lyon") + Self.dataSet(0x65, "France") + Self.dataSet(0x37, "20190704")
            + Self.dataSet(0x19, "river")
        for bigEndian in [true, false] {
            let m = try MetadataReader.read(MemoryByteSource(Self.withTrailer(jpeg, iptc: iptc, bigEndian: bigEndian)), fileName: "a.jpg")
            #expect(m.city == "Lyon" && m.country == "France", "bigEndian \(bigEndian)")
            #expect(m.takenAt?.iso8601 == "2019-07-04T00:00:00" && m.takenAt?.source == .iptc)
            #expect(m.keywords == ["river"])
        }
        #expect(try MetadataReader.read(MemoryByteSource(jpeg), fileName: "a.jpg").city == nil)
    }

    @Test("a trailer whose offsets point outside the file, or a bare mark, is ignored without a word")
    func forged() throws {
        let jpeg = [UInt8](try Data(contentsOf: TestRoll.repositoryRoot.appendingPathComponent("test-data/photos/chelsea.jpg")))
        var forged = Self.withTrailer(jpeg, iptc: Self.dataSet(0x5A, "Lyon"), bigEndian: true)
        forged[forged.count - 8] = 0x7F  // the header's offset far past the end
        #expect(try MetadataReader.read(MemoryByteSource(forged), fileName: "a.jpg").city == nil)
        #expect(AFCP.iptc(MemoryByteSource(jpeg + Array("AXS!".utf8) + [0, 0, 0, 0, 0, 0, 0, 0])) == nil)
        #expect(AFCP.iptc(MemoryByteSource(Array("AXS*".utf8) + [UInt8](repeating: 0xFF, count: 20))) == nil)
    }
}
