import Foundation
import Testing
@testable import Metadata
import TestSupport

/// Issue 14: what real cameras, phones and photo tools write, made here with exiftool.
@Suite("real cameras' files", .enabled(if: ExiftoolFiles.available))
struct RealCameraFileTests {
    let dir: URL
    init() throws { dir = try ExiftoolFiles.folder() }

    func jpeg(_ name: String, width: Int = 64, height: Int = 48, _ tags: [String]) throws -> MediaMetadata {
        try readMetadata(try ExiftoolFiles.jpeg(dir.appendingPathComponent(name), width: width, height: height, tags: tags))
    }

    static func iso(_ d: CaptureDate?) -> String? { d?.iso8601 }

    @Test("IPTC-IIM alone gives the date with its offset, the city and the country")
    func iptcOnly() throws {
        let m = try jpeg("iptc.jpg", ["-IPTC:DateCreated=2019:07:04", "-IPTC:TimeCreated=14:30:15+02:00",
                                      "-IPTC:City=Lyon", "-IPTC:Country-PrimaryLocationName=France",
                                      "-IPTC:Sub-location=Vieux Lyon", "-IPTC:Keywords=river"])
        #expect(Self.iso(m.takenAt) == "2019-07-04T14:30:15+02:00")
        #expect(m.takenAt?.source == .iptc)
        #expect(m.city == "Lyon" && m.country == "France")
    }

    @Test("IPTC-IIM in Latin-1 and with only a country code")
    func iptcLatin1() throws {
        let m = try jpeg("latin.jpg", ["-IPTC:CodedCharacterSet=", "-charset", "iptc=Latin", "-IPTC:City=Zürich",
                                       "-IPTC:Country-PrimaryLocationCode=CHE", "-IPTC:DateCreated=2015:02:03"])
        #expect(m.city == "Zürich")
        #expect(m.country == "CHE")
        #expect(Self.iso(m.takenAt) == "2015-02-03T00:00:00")
    }

    @Test("XMP's capture date comes before IFD0 DateTime, which is when the file was edited")
    func xmpBeforeModifyDate() throws {
        let m = try jpeg("edited.jpg", ["-XMP-photoshop:DateCreated=2018:03:02 10:11:12+01:00",
                                        "-IFD0:ModifyDate=2024:01:01 00:00:00"])
        #expect(Self.iso(m.takenAt) == "2018-03-02T10:11:12+01:00")
        #expect(m.takenAt?.source == .xmp)
        #expect(Self.iso(m.modifiedAt) == "2024-01-01T00:00:00")
        #expect(m.modifiedAt?.source == .exifModified)
    }

    @Test("DateTimeOriginal with sub-seconds and offset beats DateTimeDigitized, XMP and IPTC")
    func exifFirst() throws {
        let m = try jpeg("camera.jpg", ["-DateTimeOriginal=2021:06:01 08:00:00", "-SubSecTimeOriginal=25",
                                        "-OffsetTimeOriginal=-05:00", "-CreateDate=2021:06:02 09:00:00",
                                        "-XMP-xmp:CreateDate=2020:01:01T00:00:00Z", "-IPTC:DateCreated=2019:01:01"])
        #expect(Self.iso(m.takenAt) == "2021-06-01T08:00:00.250-05:00")
        #expect(m.takenAt?.source == .exif)
        let digitized = try jpeg("digitized.jpg", ["-CreateDate=2021:06:02 09:00:00", "-XMP-xmp:CreateDate=2020:01:01T00:00:00Z"])
        #expect(Self.iso(digitized.takenAt) == "2021-06-02T09:00:00")
        #expect(digitized.takenAt?.source == .exif)
    }

    @Test("XMP city and country (photoshop, Iptc4xmpCore country code) come before IPTC-IIM's")
    func xmpPlace() throws {
        let m = try jpeg("xmpplace.jpg", ["-XMP-photoshop:City=Porto", "-XMP-iptcCore:CountryCode=PT", "-IPTC:City=Lyon"])
        #expect(m.city == "Porto")
        #expect(m.country == "PT")
    }

    @Test("a date in the future or before 1826 is passed over for the next source")
    func implausibleDates() throws {
        let now = try #require(DateText.iso8601("2026-01-01T00:00:00Z", source: .exif)).date
        let url = try ExiftoolFiles.jpeg(dir.appendingPathComponent("future.jpg"), tags: [
            "-DateTimeOriginal=2099:01:01 00:00:00", "-XMP-xmp:CreateDate=2017:05:05T05:05:05Z"])
        let fd = open(url.path, O_RDONLY)
        defer { close(fd) }
        let size = Int64(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int)
        let m = try MetadataReader.read(FileByteSource(fd: fd, size: size), fileName: "future.jpg", now: now)
        #expect(Self.iso(m.takenAt) == "2017-05-05T05:05:05+00:00")
        #expect(m.takenAt?.source == .xmp)
        let old = try jpeg("old.jpg", ["-DateTimeOriginal=1800:01:01 00:00:00", "-IPTC:DateCreated=1850:06:01"])
        #expect(Self.iso(old.takenAt) == "1850-06-01T00:00:00")
        #expect(old.takenAt?.source == .iptc)
    }

    @Test("exposure EXIF without make or model is recorded (a camera took it)")
    func exposure() throws {
        let m = try jpeg("exposure.jpg", width: 2048, height: 1536, ["-ExposureTime=1/125", "-FNumber=2.8", "-ISO=100"])
        #expect(m.make == nil && m.model == nil)
        #expect(m.hasExposure == true)
        #expect(m.hasCameraMetadata)
        #expect(try jpeg("screen.jpg", width: 2048, height: 1536, []).hasCameraMetadata == false)
    }

    @Test("XMP in UTF-16 and UTF-32 of either byte order, without a byte-order mark")
    func wideXMP() throws {
        let base = try bytes(ExiftoolFiles.jpeg(dir.appendingPathComponent("base.jpg"), tags: []))
        let xml = """
            <?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">\
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description \
            xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:City="Kraków" \
            photoshop:DateCreated="2016-09-10T11:12:13+02:00"/></rdf:RDF></x:xmpmeta><?xpacket end="w"?>
            """
        let utf16 = Array(xml.utf16)
        let encodings: [(String, [UInt8])] = [
            ("UTF-16LE", utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
            ("UTF-16BE", utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }),
            ("UTF-32LE", xml.unicodeScalars.flatMap { s in (0..<4).map { UInt8((s.value >> (8 * $0)) & 0xFF) } }),
            ("UTF-32BE", xml.unicodeScalars.flatMap { s in (0..<4).reversed().map { UInt8((s.value >> (8 * $0)) & 0xFF) } }),
        ]
        for (name, packet) in encodings {
            let file = Craft.jpeg(base, inserting: [(0xE1, JPEGReader.xmpSignature + packet)])
            let m = try MetadataReader.read(MemoryByteSource(file), fileName: "x.jpg")
            #expect(m.city == "Kraków", "\(name)")
            #expect(Self.iso(m.takenAt) == "2016-09-10T11:12:13+02:00", "\(name)")
        }
    }

    @Test("a truncated HEIC is said to be truncated or damaged")
    func truncatedHEIC() throws {
        let full = try bytes(sampleFile("heic") { $0.size > 50_000 })
        let cut = Array(full.prefix(full.count / 2))
        do {
            _ = try MetadataReader.read(MemoryByteSource(cut), fileName: "x.heic")
            Issue.record("a HEIC cut in half was read")
        } catch let e as MetadataError {
            #expect(e.message.hasPrefix("truncated or damaged HEIC"), "\(e.message)")
            #expect(e.code == .truncated)
        }
    }
}
