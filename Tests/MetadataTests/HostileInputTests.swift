import Foundation
import Testing
@testable import Metadata
import TestSupport

/// Damaged and malicious files: every one gives a one-line MetadataError or metadata, never a crash.
@Suite("Hostile input")
struct HostileInputTests {
    /// Reads, and checks that any failure is a one-line MetadataError without a path.
    @discardableResult
    func attempt(_ bytes: [UInt8], name: String = "x.jpg", sourceLocation: SourceLocation = #_sourceLocation) -> Result<MediaMetadata, MetadataError>? {
        do {
            return .success(try MetadataReader.read(MemoryByteSource(bytes), fileName: name))
        } catch let e as MetadataError {
            #expect(!e.message.isEmpty && !e.message.contains("\n") && !e.message.contains("/"),
                    "message not one clean line: \(e.message)", sourceLocation: sourceLocation)
            return .failure(e)
        } catch {
            Issue.record("not a MetadataError: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    func error(_ r: Result<MediaMetadata, MetadataError>?) -> MetadataError? {
        if case .failure(let e) = r { return e }
        return nil
    }

    @Test("an empty file")
    func empty() {
        let e = error(attempt([]))
        #expect(e?.code == .empty)
        #expect(e?.message == "empty file (0 bytes)")
    }

    @Test("text and other formats named .jpg")
    func notMedia() {
        let text = error(attempt(Array("Dear diary,\nthis is not a photo.\n".utf8)))
        #expect(text?.code == .unrecognized)
        #expect(text?.message == "not a photo or video: content is text")
        #expect(error(attempt(Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 100)))?.message.contains("GIF") == true)
        #expect(error(attempt([0, 1, 2, 3, 250, 251, 252]))?.code == .unrecognized)
        #expect(error(attempt([0xFF, 0xD8]))?.code == .unrecognized, "two bytes are not a JPEG")
    }

    @Test("a JPEG cut at every twentieth of its length")
    func truncatedJPEG() throws {
        let full = try bytes(sampleFile("jpeg") { !$0.persons.isEmpty && $0.size > 10_000 })
        #expect(MetadataReader.incompleteness(MemoryByteSource(full), format: .jpeg) == nil)
        for k in 1..<20 {
            let cut = Array(full.prefix(full.count * k / 20))
            attempt(cut)
            let why = MetadataReader.incompleteness(MemoryByteSource(cut), format: .jpeg)
            #expect(why != nil, "cut at \(cut.count) of \(full.count) looks complete")
        }
        // Before the frame header the file cannot be read at all.
        let early = try #require(Craft.sofOffset(full))
        let e = error(attempt(Array(full.prefix(early + 3))))
        #expect(e?.code == .truncated)
        #expect(e?.message == "truncated JPEG: no image header (SOF) before end of file")
    }

    @Test("PNG, HEIC, MP4 and MOV cut at every twentieth")
    func truncatedOthers() throws {
        let url = try sampleFile("mov")
        let mov = try bytes(url)
        for (format, full) in [(MediaFormat.png, try bytes(sampleFile("png"))), (.heic, try bytes(sampleFile("heic") { $0.size > 50_000 })),
                               (.mov, mov)] {
            #expect(MetadataReader.incompleteness(MemoryByteSource(full), format: format) == nil, "\(format) complete")
            for k in 1..<20 {
                let cut = Array(full.prefix(full.count * k / 20))
                attempt(cut, name: "x")
                #expect(MetadataReader.incompleteness(MemoryByteSource(cut), format: format) != nil,
                        "\(format) cut at \(cut.count) of \(full.count) looks complete")
            }
        }
    }

    @Test("dimensions beyond 500 megapixels are refused as a decompression bomb")
    func bombs() throws {
        let jpeg = try bytes(sampleFile("jpeg"))
        let e = error(attempt(Craft.jpeg(jpeg, claiming: 65000, 65000)))
        #expect(e?.code == .tooLarge)
        #expect(e?.message == "image header claims 65000×65000 pixels, beyond the 500-megapixel limit")

        var png = try bytes(sampleFile("png"))
        png.replaceSubrange(16..<24, with: Craft.be32(100_000) + Craft.be32(100_000))
        let p = error(attempt(png, name: "x.png"))
        #expect(p?.code == .tooLarge)
        #expect(p?.message == "image header claims 100000×100000 pixels, beyond the 500-megapixel limit")

        // HEIC: the ispe property of the primary image.
        var heic = try bytes(sampleFile("heic"))
        let ispe = try #require((0..<heic.count - 4).first { heic[$0..<$0 + 4].elementsEqual("ispe".utf8) })
        heic.replaceSubrange(ispe + 8..<ispe + 16, with: Craft.be32(100_000) + Craft.be32(100_000))
        #expect(error(attempt(heic, name: "x.heic"))?.code == .tooLarge)

        // Within the budget, a JPEG's claimed size is reported as is.
        if case .success(let m) = attempt(Craft.jpeg(jpeg, claiming: 20000, 20000)) {
            #expect(m.pixelWidth == 20000 && m.pixelHeight == 20000)
        } else { Issue.record("a 400-megapixel header should read") }
        #expect(error(attempt(Craft.jpeg(jpeg, claiming: 0, 480)))?.code == .corrupt)
    }

    @Test("XMP nested 10,000 deep is ignored, not followed")
    func deepXMP() throws {
        let deep = String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000)
        let xml = Craft.xmp(">\n<Iptc4xmpExt:PersonInImage><rdf:Bag><rdf:li>Ana</rdf:li></rdf:Bag></Iptc4xmpExt:PersonInImage>" + deep)
        #expect(XMP.properties(Array(xml.utf8)) == nil)

        let png = Craft.png(try bytes(sampleFile("png")), inserting: [Craft.pngXMP(xml)])
        guard case .success(let m) = attempt(png, name: "x.png") else { Issue.record("PNG with deep XMP should read"); return }
        #expect(m.persons.isEmpty)
        #expect(m.pixelWidth > 0)

        // In a JPEG the APP1 segment caps it near 9,000 levels.
        let shallower = Craft.xmp(">" + String(repeating: "<a>", count: 9_000) + String(repeating: "</a>", count: 9_000))
        let jpeg = Craft.jpeg(try bytes(sampleFile("jpeg")), inserting: [Craft.xmpSegment(shallower)])
        guard case .success(let j) = attempt(jpeg) else { Issue.record("JPEG with deep XMP should read"); return }
        #expect(j.persons.isEmpty)
        // Unclosed nesting (malformed XML) as well.
        let unclosed = Craft.jpeg(try bytes(sampleFile("jpeg")),
                                  inserting: [Craft.xmpSegment(Craft.xmp(">" + String(repeating: "<a>", count: 15_000)))])
        attempt(unclosed)
    }

    @Test("XMP entity expansion and external entities are refused")
    func entityXMP() throws {
        let laughs = """
        <?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
        <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
        <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
        <!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">
        <!ENTITY ext SYSTEM "file:///etc/passwd">]>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:City="&h;" photoshop:Country="&ext;"/>
        </rdf:RDF></x:xmpmeta>
        """
        #expect(XMP.properties(Array(laughs.utf8)) == nil)
        let jpeg = Craft.jpeg(try bytes(sampleFile("jpeg")), inserting: [Craft.xmpSegment(laughs)])
        guard case .success(let m) = attempt(jpeg) else { Issue.record("should read"); return }
        #expect(m.city == nil && m.country == nil)
    }

    @Test("EXIF with absurd counts, offsets and loops")
    func hostileEXIF() throws {
        let jpeg = try bytes(sampleFile("jpeg"))
        let make = 0x010F, ascii = 2
        let cases: [[UInt8]] = [
            // An IFD claiming 65,535 entries, one entry claiming 0xFFFFFFFF characters.
            Craft.tiff(ifd0: [(make, ascii, 0xFFFF_FFFF, Craft.be32(0x20))], entryCount: 0xFFFF),
            // Value offset far past the end; next-IFD pointing at itself (a loop).
            Craft.tiff(ifd0: [(make, ascii, 64, Craft.be32(0x7FFF_FFF0))], next: 8),
            // EXIF sub-IFD pointer loops back to IFD0; GPS pointer past the end.
            Craft.tiff(ifd0: [(0x8769, 4, 1, Craft.be32(8)), (0x8825, 4, 1, Craft.be32(0xFFFF_FFF0))]),
            // Rational GPS with zero denominators.
            Craft.tiff(ifd0: [(0x8825, 4, 1, Craft.be32(26))],
                       tail: Craft.be16(2) + Craft.be16(2) + Craft.be16(5) + Craft.be32(3) + Craft.be32(56)
                           + Craft.be16(4) + Craft.be16(5) + Craft.be32(0xFFFF_FFFF) + Craft.be32(56) + Craft.be32(0)
                           + [UInt8](repeating: 0, count: 24)),
            // A header and nothing else.
            [0x4D, 0x4D, 0x00, 0x2A],
            [UInt8](repeating: 0xFF, count: 300),
        ]
        for tiff in cases {
            let crafted = Craft.jpeg(jpeg, inserting: [Craft.exifSegment(tiff: tiff)])
            guard case .success(let m) = attempt(crafted) else { Issue.record("EXIF damage must not fail the read"); continue }
            #expect(m.pixelWidth > 0)
            #expect(m.make == nil)
            #expect(m.gps == nil)
        }
    }

    @Test("random damage to real headers never crashes", arguments: ["jpeg", "png", "heic", "mov"])
    func mutations(_ format: String) throws {
        let base = try bytes(sampleFile(format) { $0.size < 200_000 })
        var rng = SplitMix64(seed: 42)
        let window = min(base.count, 4096)
        for _ in 0..<150 {
            var b = base
            for _ in 0..<Int(rng.next() % 8 + 1) {
                let i = Int(rng.next() % UInt64(window))
                b[i] = UInt8(truncatingIfNeeded: rng.next())
            }
            attempt(b, name: "x")
            if let f = MetadataReader.sniff(Array(b.prefix(64))) {
                _ = MetadataReader.incompleteness(MemoryByteSource(b), format: f)
            }
        }
    }

    @Test("boxes with hostile sizes in MP4/HEIC")
    func hostileBoxes() throws {
        // ftyp, then a moov claiming a 64-bit size beyond Int64, then one of size 3.
        let ftyp = Craft.be32(20) + Array("ftypisom".utf8) + Craft.be32(0) + Array("isom".utf8)
        let huge = Craft.be32(1) + Array("moov".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let tiny = Craft.be32(3) + Array("moov".utf8)
        for tail in [huge, tiny, Craft.be32(0xFFFF_FFFF) + Array("moov".utf8)] {
            #expect(error(attempt(ftyp + tail, name: "x.mp4")) != nil)
            #expect(MetadataReader.incompleteness(MemoryByteSource(ftyp + tail), format: .mp4) != nil)
        }
        // An empty moov running to the end is whole, but holds no video.
        #expect(error(attempt(ftyp + Craft.be32(0) + Array("moov".utf8), name: "x.mp4"))?.code == .unrecognized)
        // A moov nested 100,000 boxes deep, and one with 100,000 empty children.
        var nested = Craft.be32(8) + Array("free".utf8)
        for _ in 0..<2000 { nested = Craft.be32(nested.count + 8) + Array("trak".utf8) + nested }
        attempt(ftyp + Craft.be32(nested.count + 8) + Array("moov".utf8) + nested, name: "x.mp4")
        let many = [UInt8](repeating: 0, count: 0)
            + (0..<100_000).flatMap { _ in Craft.be32(8) + Array("free".utf8) }
        attempt(ftyp + Craft.be32(many.count + 8) + Array("moov".utf8) + many, name: "x.mp4")
        // HEIC brand with no meta.
        let heic = Craft.be32(20) + Array("ftypheic".utf8) + Craft.be32(0) + Array("mif1".utf8)
        #expect(error(attempt(heic + Craft.be32(16) + Array("mdat".utf8) + [UInt8](repeating: 1, count: 8), name: "x.heic"))?.code == .corrupt)
    }

    /// Found by Fuzz/run (FileNameDate, minimised): a name with a run of 19 digits or more
    /// overflowed the digit scanner, a trap that stopped the scan at that file.
    @Test("a file name with a run of 19 or more digits")
    func longDigitRunsInNames() throws {
        for name in ["9235651345623456456", "IMG_77777777777777777777777777777777770480.JPG",
                     String(repeating: "9", count: 400) + ".jpg", "2023-05-14 " + String(repeating: "1", count: 30)] {
            _ = FileNameDate.parse(name)
        }
        #expect(FileNameDate.parse("9235651345623456456") == nil)
        #expect(FileNameDate.parse("IMG_20230514_123456 99999999999999999999.jpg")?.iso8601 == "2023-05-14T12:34:56")
        // Without EXIF or XMP the name is all a JPEG has to date it by.
        let bare = Craft.jpeg(try bytes(sampleFile("jpeg")), inserting: [])
        guard case .success(let m) = attempt(bare, name: "12345678901234567890123.jpg") else { Issue.record("should read"); return }
        #expect(m.takenAt == nil)
    }

    /// Found by Fuzz/run (MetadataReader, minimised): an unknown ftyp brand went into the error
    /// message as raw bytes, so a file could put NUL, ESC or a newline on the scan's stderr.
    @Test("an unknown ftyp brand is named in printable characters")
    func unprintableBrand() {
        let nul = [0x00, 0x00, 0xD7, 0x18] + Array("ftyp".utf8) + [0x00] + Array("mif".utf8)
        #expect(error(attempt(nul, name: "x"))?.message == "not a photo or video: content is an ISO media file of brand '?mif'")
        let escape = Craft.be32(16) + Array("ftyp".utf8) + [0x1B] + Array("[2J".utf8) + Craft.be32(0)
        #expect(error(attempt(escape, name: "x"))?.message == "not a photo or video: content is an ISO media file of brand '?[2J'")
        let newline = Craft.be32(16) + Array("ftyp".utf8) + Array("a\nb ".utf8) + Craft.be32(0)
        #expect(error(attempt(newline, name: "x"))?.message.contains("\n") == false)
    }

    /// Found by Fuzz/run (XMP, minimised to `<?x?>`): libxml2 reports a processing instruction
    /// without data with a NULL pointer, which Foundation's XMLParser passed to strlen (SIGSEGV).
    /// The parser is libxml2's SAX2 interface now, with no instruction handler: the same packets.
    @Test("XMP with processing instructions that have no data")
    func instructionsWithoutData() throws {
        for text in ["<?x?>", "<a><?x?></a>", "<?x?><?y?>", "<!--<?x?>-->", "<?" + String(repeating: "x", count: 10_000) + "?>"] {
            _ = XMP.properties(Array(text.utf8))
        }
        let packet = Craft.xmp("><?x?>\n<Iptc4xmpExt:PersonInImage><rdf:Bag><rdf:li>Ana</rdf:li></rdf:Bag></Iptc4xmpExt:PersonInImage>")
        let jpeg = Craft.jpeg(try bytes(sampleFile("jpeg")), inserting: [Craft.xmpSegment(packet)])
        guard case .success(let m) = attempt(jpeg) else { Issue.record("should read"); return }
        #expect(m.persons == ["Ana"])
    }

    /// Found by Fuzz/run (HEIC and MetadataReader, minimised): libheif's message for an iloc item
    /// with an unknown construction method quotes that number as a raw byte, which reached stderr.
    @Test("libheif's messages are made printable")
    func heifMessages() throws {
        let heic = try #require(Data(base64Encoded: "AAAAGGZ0eXBoZWljAQAAAG1pZjFoZWljAAACMG1ldGEAAAAAAAAAIWhkbHIA/////wAAAHBpY3QAAAAAAAAAAAAAAAAAAAAADnBpdG0AAAAAAAIAAAAQaWRhdAAAAAAA2wDwAAAAYGlsb2MBAAAAREAABAABTAIAAAAAAAAAAQBKAQAAAAAAAAIAtDfJ4QAAAAABAAAAAAAAAAgAAwAAAAAAACYLAAEAAAAAAAABHAAEAAAAAAAAJycAAQAAAAAAAA7xAAAAd2lpbmYAAAAAAAQAAAAVaW5mZQIAAAEAAQAAaHZjMQAAAAAVaW5mZQIAAAAAAgAAZ3JpZAAAAAAVaW5mZQIAAAEAAwAARXhpZgAAAAAqaW5mZQIAAAEABAAAbWltZQBhcHBsaWNhdGlvbi9yZGYreG1sAAAAAADYaXBycAAAALZpcGNvAAAAdmh2Y0MBA3AAAAAAAAAAAAA88AD8/fj4AAAPA2MAAQAYQAEMAf//A3AAAAMAkAAAAwAAAwA8ugJAIQABACkgICAgIGQ9J3cnPz4DAAADADygHCA8d+W6kkprmwIAAAMAAgAAAwACECIAAQAHRCc/PrBiQAAAABRpc3BlAAAAAAAAANwAAADwAAAAFGlzcGUAAAAAAAAA2wAAAPAAAAAQcGl4aQAAAAADCAgIAAAAGmlwbWEAAAAAAAAAAgABAoECAAICA4QAAAA2aXIAAAAAAA5kaQACAAEAAQAAAA5jZHNjAAMAAQACAAAAICAgICAgICAgIGQ9J3cnPz4="))
        let e = error(attempt([UInt8](heic), name: "x.heic"))
        #expect(e?.code == .corrupt)
        #expect(e?.message.unicodeScalars.contains { $0.value < 0x20 } == false, "\(e?.message.debugDescription ?? "")")
        #expect(HEIFContext.oneLine("Method \u{2} and \u{1B}[2J\nnext") == "method ? and ?[2j next")
    }

    /// Found by Fuzz/run (HEIC, minimised): an item of zero bytes at the very end of the file.
    /// libheif reads it with a NULL buffer; Shoebox's reader refused that read, and libheif 1.15
    /// answered with assert(): an abort of the whole scan.
    @Test("a HEIC item of zero bytes at the end of the file")
    func emptyHEICItem() throws {
        let heic = try #require(Data(base64Encoded: "AAAAGGZ0eXBoZWljAAAAQ2xvc2VoZWljAAACLG1ldGEAAAAAAAAAIWhkbHIAAAEAAAAAAHBpY3QAAAAAAAAAAAAAAAAAAAAADnBpdG0AAAAAAAIAAAAQaWRhdAAAAAAAmwCvAAAAYGlsb2MBQAAAAEQABAABAAAAAAAAAkwAAQAAAAAAAAV9AAIAAQAAAAAAAAABAAAAAAAAAAgAAwAAAAAAAAfJAAEAAAAAAAABmgAEAAAAAAAACWMAAQAAAAAAAA7xAAAAd2lpbmYAAAAAAAQAAAAVaW5mZQIAAAEAAQAAaHZjMAAAAAAVaW5mZQIAAAAAAgAAZ3JpZAAAAAAVaW5mZQIAAAEAAwAARXhpZgAAAAAqaW5mZQIAAAEABAAAbWltZQBhcHBsaWNhdGlvbi9yZGYreG1sAAAAAADUaXBycAAAALJpcGNvAAAAdGh2Y0MBBAgAAAAAAAAAAAAeYXRlbfj4AAAPAyAAAQAXQAEBAAAAAAAAAwMAn/gAAAMAAB66AkAhAAEAKEIBAQQIAAADAJ/4AAADAAAewFCAscvlupJKa5sCAAADAAIAAAMAAhAiAAEAB0QBwXKwYkAAAAAUaXNwZQAAAAAAAACcAAAAsAAAABRpc3BlAAAAAAAAAJsAAACvAAAADnBpeGkAAAAAAQgAAAAaaXBtYQAAAAAAAAACAAECgQIAAgIDhAAAADZpcmVmAAAAAAAAAA5kaW1nAAIAAQABAAAADmNkc2MAAwABAAIAAAAOY2RzYwAgiiUmAAAAAAAAAuPg"))
        attempt([UInt8](heic), name: "x.heic")
    }
}
