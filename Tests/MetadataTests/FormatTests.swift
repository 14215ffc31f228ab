import Foundation
import Testing
@testable import Metadata
import TestSupport

@Suite("Formats")
struct FormatTests {
    static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        let body = Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
        return Craft.be32(body.count + 8) + Array("ftyp".utf8) + body + [UInt8](repeating: 0, count: 64)
    }

    /// The library core reads headers through `MetadataReaders`; a program that links Metadata
    /// (these tests, the benchmarks, the fuzzers) gets its reader without installing it, and it
    /// reads what `MetadataReader` reads.
    @Test("a program that links Metadata reads headers through the core without setting anything up")
    func theLinkedReaderIsFound() throws {
        #expect(MetadataReaders.isAvailable)
        #expect(MetadataReaders.current is CodecMetadataReader)
        let sample = try TestRoll.sampleLibrary()
        let entry = try #require(sample.entries.first { $0.format == "jpeg" })
        let bytes = [UInt8](try Data(contentsOf: sample.root.appendingPathComponent(entry.path)))
        let viaCore = try MetadataReaders.current.read(MemoryByteSource(bytes), fileName: "a.jpg", now: Date())
        #expect(viaCore == (try MetadataReader.read(MemoryByteSource(bytes), fileName: "a.jpg", now: Date())))
    }

    @Test("sniffing by content")
    func sniffing() {
        #expect(MetadataReader.sniff([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 60)) == .jpeg)
        #expect(MetadataReader.sniff(PNGReader.signature + [UInt8](repeating: 0, count: 56)) == .png)
        for brand in ["heic", "heix", "mif1", "msf1", "heim", "heis", "hevc"] {
            #expect(MetadataReader.sniff(Self.ftyp(brand, ["mif1", "heic"])) == .heic, "\(brand)")
        }
        #expect(MetadataReader.sniff(Self.ftyp("avif", ["avif", "mif1", "miaf"])) == nil)
        #expect(MetadataReader.sniff(Self.ftyp("mif1", ["avif", "mif1", "miaf"])) == nil, "AVIF under a generic brand")
        #expect(MetadataReader.sniff(Self.ftyp("qt  ", ["qt  "])) == .mov)
        for brand in ["isom", "mp41", "mp42", "avc1", "iso2", "iso6", "M4V ", "3gp5"] {
            #expect(MetadataReader.sniff(Self.ftyp(brand, ["isom"])) == .mp4, "\(brand)")
        }
        #expect(MetadataReader.sniff(Self.ftyp("M4A ", ["M4A "])) == nil, "audio")
        // Canon CR3 is ISO-BMFF too, and may list isom: a camera raw file, never a video.
        #expect(MetadataReader.sniff(Self.ftyp("crx ", ["crx "])) == .raw, "Canon raw")
        #expect(MetadataReader.sniff(Self.ftyp("crx ", ["crx ", "isom"])) == .raw, "Canon raw listing isom")
        // TIFF-based raws by their extension; a plain TIFF by .tif/.tiff (issue 32), not under
        // another raw format's extension Shoebox does not read.
        let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + [UInt8](repeating: 0, count: 60)
        #expect(MetadataReader.sniff(tiff, fileName: "DSC_0001.NEF") == .raw)
        #expect(MetadataReader.sniff(tiff, fileName: "scan.tif") == .tiff)
        #expect(MetadataReader.sniff(tiff, fileName: "IMGP0001.PEF") == nil)
        for box in ["moov", "mdat", "wide", "free"] {
            #expect(MetadataReader.sniff(Craft.be32(8) + Array(box.utf8) + [UInt8](repeating: 0, count: 56)) == .mov, "\(box)")
        }
        #expect(MetadataReader.sniff(Array("<html><body>".utf8)) == nil)
        #expect(MetadataReader.sniff([]) == nil)
    }

    @Test("XMP in its RDF spellings: attributes, elements, parseType Resource, pixel areas")
    func xmpShapes() throws {
        let body = """
         photoshop:City="Lisbon" exif:GPSLatitude="38,43.02N" exif:GPSLongitude="9,7.998W">
           <photoshop:Country>Portugal</photoshop:Country>
           <exif:DateTimeOriginal>2023-05-14T12:34:56.25+01:00</exif:DateTimeOriginal>
           <Iptc4xmpExt:PersonInImage><rdf:Bag><rdf:li>Ana</rdf:li><rdf:li>Tom</rdf:li></rdf:Bag></Iptc4xmpExt:PersonInImage>
           <mwg-rs:Regions rdf:parseType="Resource">
            <mwg-rs:AppliedToDimensions stDim:w="1000" stDim:h="500" stDim:unit="pixel"/>
            <mwg-rs:RegionList><rdf:Bag>
             <rdf:li><rdf:Description mwg-rs:Name="Tom" mwg-rs:Type="Face">
               <mwg-rs:Area stArea:x="0.5" stArea:y="0.4" stArea:w="0.2" stArea:h="0.3" stArea:unit="normalized"/>
             </rdf:Description></rdf:li>
             <rdf:li rdf:parseType="Resource">
               <mwg-rs:Name>Zoe</mwg-rs:Name><mwg-rs:Type>Face</mwg-rs:Type>
               <mwg-rs:Area rdf:parseType="Resource"><stArea:x>500</stArea:x><stArea:y>250</stArea:y>
                 <stArea:w>100</stArea:w><stArea:h>50</stArea:h><stArea:unit>pixel</stArea:unit></mwg-rs:Area>
             </rdf:li>
             <rdf:li mwg-rs:Name="Focus" mwg-rs:Type="Focus">
               <mwg-rs:Area stArea:x="0.5" stArea:y="0.5" stArea:w="0.1" stArea:h="0.1"/></rdf:li>
            </rdf:Bag></mwg-rs:RegionList>
           </mwg-rs:Regions>
           <MP:RegionInfo rdf:parseType="Resource"><MPRI:Regions><rdf:Bag><rdf:li MPReg:PersonDisplayName="Ana"
              MPReg:Rectangle="0.1, 0.2, 0.3, 0.4"/></rdf:Bag></MPRI:Regions></MP:RegionInfo>
        """
        let props = try #require(XMP.properties(Array(Craft.xmp(body).utf8)))
        let f = XMP.fields(props)
        #expect(f.city == "Lisbon")
        #expect(f.country == "Portugal")
        #expect(f.persons == ["Ana", "Tom", "Zoe"])
        #expect(f.takenAt?.iso8601 == "2023-05-14T12:34:56.250+01:00")
        #expect(f.takenAt?.source == .xmp)
        let gps = try #require(f.gps)
        #expect(abs(gps.lat - 38.717) < 1e-6 && abs(gps.lon - -9.1333) < 1e-4)
        #expect(f.faces.count == 3)
        let tom = f.faces[0], zoe = f.faces[1], ana = f.faces[2]
        #expect(tom.name == "Tom" && abs(tom.x - 0.4) < 1e-9 && abs(tom.y - 0.25) < 1e-9 && tom.w == 0.2 && tom.h == 0.3)
        #expect(zoe.name == "Zoe" && abs(zoe.x - 0.45) < 1e-9 && abs(zoe.y - 0.45) < 1e-9 && abs(zoe.w - 0.1) < 1e-9)
        #expect(ana.name == "Ana" && ana.x == 0.1 && ana.y == 0.2 && ana.w == 0.3 && ana.h == 0.4)
    }

    @Test("XMP text with XML's escapes, in attributes and elements, reads as written")
    func xmpEscapes() throws {
        let body = """
         xmlns:dc="http://purl.org/dc/elements/1.1/" photoshop:City="Stratford &amp; Avon &lt;1&gt; &#38;&#x26; &quot;Q&quot; &amp;#38;">
           <photoshop:Country>Trinidad &amp; Tobago &#169; &lt;</photoshop:Country>
           <dc:subject><rdf:Bag><rdf:li>R&amp;D</rdf:li><rdf:li><![CDATA[a & b]]></rdf:li></rdf:Bag></dc:subject>
        """
        let f = XMP.fields(try #require(XMP.properties(Array(Craft.xmp(body).utf8))))
        #expect(f.city == "Stratford & Avon <1> && \"Q\" &#38;")
        #expect(f.country == "Trinidad & Tobago © <")
        #expect(f.keywords == ["R&D", "a & b"])
    }

    @Test("XMP with an editor's padding, with a bare rdf:RDF root, and with text after the root")
    func xmpPaddingAndRoots() throws {
        let body = """
         photoshop:City="Porto"><dc:subject xmlns:dc="http://purl.org/dc/elements/1.1/"><rdf:Bag><rdf:li>x</rdf:li></rdf:Bag></dc:subject>
        """
        let packet = Craft.xmp(body)
        let padded = packet.replacingOccurrences(of: "<?xpacket end", with: String(repeating: "  \n", count: 2000) + "<?xpacket end")
        let bare = packet.components(separatedBy: "\n").filter { !$0.contains("xmpmeta") && !$0.contains("xpacket") }.joined(separator: "\n")
        #expect(XMP.endOfRoot(Array(padded.utf8)) == padded.utf8.count - 2000 * 3 - "\n<?xpacket end=\"w\"?>".utf8.count)
        #expect(XMP.endOfRoot(Array(bare.utf8)) == nil)
        for text in [packet, padded, bare, packet + "<!-- after -->"] {
            let f = XMP.fields(try #require(XMP.properties(Array(text.utf8))))
            #expect(f.city == "Porto")
            #expect(f.keywords == ["x"])
        }
    }

    @Test("XMP location structures and the XMP date fallback inside a JPEG")
    func xmpInJPEG() throws {
        let body = """
        >
           <xmp:CreateDate>2021-07-01T08:00:00Z</xmp:CreateDate>
           <Iptc4xmpExt:LocationShown><rdf:Bag><rdf:li rdf:parseType="Resource">
             <Iptc4xmpExt:City>Kyoto</Iptc4xmpExt:City><Iptc4xmpExt:CountryName>Japan</Iptc4xmpExt:CountryName>
           </rdf:li></rdf:Bag></Iptc4xmpExt:LocationShown>
        """
        let jpeg = Craft.jpeg(try bytes(sampleFile("jpeg")), inserting: [Craft.xmpSegment(Craft.xmp(body))])
        let m = try MetadataReader.read(MemoryByteSource(jpeg), fileName: "IMG_20200101_101010.jpg")
        #expect(m.city == "Kyoto" && m.country == "Japan")
        #expect(m.takenAt?.iso8601 == "2021-07-01T08:00:00+00:00")
        #expect(m.takenAt?.source == .xmp)
        #expect(m.orientation == 1 && m.make == nil, "EXIF was removed")

        // EXIF's date wins over XMP's.
        let withEXIF = Craft.jpeg(try bytes(sampleFile("jpeg")), inserting: [Craft.xmpSegment(Craft.xmp(body))], keepAPP1: true)
        let e = try MetadataReader.read(MemoryByteSource(withEXIF), fileName: "x.jpg")
        #expect(e.takenAt?.source == .exif)
    }

    @Test("ExtendedXMP chunks are assembled")
    func extendedXMP() throws {
        let guid = "0123456789ABCDEF0123456789ABCDEF"
        let main = Craft.xmp(" xmpNote:HasExtendedXMP=\"\(guid)\">")
        let ext = Array(Craft.xmp(">\n<Iptc4xmpExt:PersonInImage><rdf:Bag><rdf:li>Ana</rdf:li></rdf:Bag></Iptc4xmpExt:PersonInImage>").utf8)
        let half = ext.count / 2
        func chunk(_ range: Range<Int>) -> (UInt8, [UInt8]) {
            (0xE1, JPEGReader.extendedXMPSignature + Array(guid.utf8) + Craft.be32(ext.count) + Craft.be32(range.lowerBound) + Array(ext[range]))
        }
        // Chunks may come in any order.
        let jpeg = Craft.jpeg(try bytes(sampleFile("jpeg")), inserting: [Craft.xmpSegment(main), chunk(half..<ext.count), chunk(0..<half)])
        let m = try MetadataReader.read(MemoryByteSource(jpeg), fileName: "x.jpg")
        #expect(m.persons == ["Ana"])
    }

    @Test("PNG eXIf and iTXt XMP")
    func pngMetadata() throws {
        // Header (8) + entry count (2) + 2 entries (24) + next-IFD offset (4): the string sits at 38.
        let tiff = Craft.tiff(ifd0: [(0x010F, 2, 6, Craft.be32(38)), (0x0112, 3, 1, Craft.be16(6))], tail: Array("Canon\0".utf8))
        let xml = Craft.xmp(">\n<Iptc4xmpExt:PersonInImage><rdf:Bag><rdf:li>Ana</rdf:li></rdf:Bag></Iptc4xmpExt:PersonInImage>")
        let base = try bytes(sampleFile("png"))
        let png = Craft.png(base, inserting: [("eXIf", tiff), Craft.pngXMP(xml)])
        let m = try MetadataReader.read(MemoryByteSource(png), fileName: "x.png")
        #expect(m.make == "Canon")
        #expect(m.orientation == 6)
        #expect(m.persons == ["Ana"])
        let plain = try MetadataReader.read(MemoryByteSource(base), fileName: "x.png")
        #expect(m.pixelWidth == plain.pixelWidth && m.pixelHeight == plain.pixelHeight)
        #expect(m.uprightWidth == plain.pixelHeight, "EXIF orientation applies to PNG")
    }

    @Test("JPEG dimensions from TurboJPEG agree with the frame header")
    func jpegDimensions() throws {
        for (url, entry) in try sampleFiles() where entry.format == "jpeg" {
            let b = try bytes(url)
            let h = try JPEGReader.walk(MemoryByteSource(b))
            let tj = try #require(h.headerStream.flatMap(JPEGReader.turboJPEGSize), "\(entry.path): TurboJPEG refused the header")
            #expect(tj.0 == h.width && tj.1 == h.height, "\(entry.path)")
        }
    }

    @Test("QuickTime keys (Apple location and creation date) and a rotated track", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")))
    func videoMetadata() throws {
        let dir = Scratch.root.appendingPathComponent("shoebox-meta-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let mov = dir.appendingPathComponent("clip.mov"), mp4 = dir.appendingPathComponent("rotated.mp4")
        try TestRoll.run("/usr/bin/ffmpeg", ["-y", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10", "-t", "1",
                                             "-pix_fmt", "yuv420p", "-movflags", "use_metadata_tags",
                                             "-metadata", "com.apple.quicktime.location.ISO6709=+38.7167-009.1333+012.000/",
                                             "-metadata", "com.apple.quicktime.creationdate=2023-05-14T12:34:56+0200",
                                             "-metadata", "com.apple.quicktime.make=Apple",
                                             "-metadata", "com.apple.quicktime.model=iPhone 15 Pro",
                                             "-metadata", "creation_time=2023-05-14T10:34:56Z", mov.path])
        try TestRoll.run("/usr/bin/ffmpeg", ["-y", "-loglevel", "error", "-i", mov.path, "-c", "copy",
                                             "-metadata:s:v:0", "rotate=90", mp4.path])
        let m = try readMetadata(mov)
        #expect(m.format == .mov)
        #expect(m.takenAt?.iso8601 == "2023-05-14T12:34:56+02:00")
        #expect(m.takenAt?.source == .container)
        #expect(m.gps == GPSCoordinate(lat: 38.7167, lon: -9.1333))
        #expect(m.make == "Apple" && m.model == "iPhone 15 Pro")
        #expect(m.pixelWidth == 320 && m.pixelHeight == 240)
        #expect(abs((m.duration ?? 0) - 1) < 0.05)
        let r = try readMetadata(mp4)
        #expect(r.format == .mp4)
        #expect(r.pixelWidth == 240 && r.pixelHeight == 320 && r.orientation == 1, "upright size of a rotated track")
    }

    @Test("ISO 6709 and date text")
    func textFormats() {
        #expect(ISO6709.parse("+38.7167-009.1333+000.000/") == GPSCoordinate(lat: 38.7167, lon: -9.1333))
        #expect(ISO6709.parse("-33.8679+151.2073/") == GPSCoordinate(lat: -33.8679, lon: 151.2073))
        let dm = ISO6709.parse("+4851.204+00220.928/")
        #expect(dm.map { abs($0.lat - 48.8534) < 1e-4 && abs($0.lon - 2.3488) < 1e-4 } == true)
        #expect(ISO6709.parse("garbage") == nil)
        #expect(ISO6709.parse("+98.0+000.0/") == nil)
        #expect(DateText.exif("2019:08:29 11:49:51", subSeconds: "905", offset: "+00:00")?.iso8601 == "2019-08-29T11:49:51.905+00:00")
        #expect(DateText.exif("2019:08:29 11:49:51", subSeconds: "5", offset: "-05:30")?.iso8601 == "2019-08-29T11:49:51.500-05:30")
        #expect(DateText.exif("0000:00:00 00:00:00", subSeconds: nil, offset: nil) == nil)
        #expect(DateText.exif("    :  :     :  :  ", subSeconds: nil, offset: nil) == nil)
        let d = DateText.exif("2024:02:29 23:59:59", subSeconds: nil, offset: "+09:00")
        #expect(d?.date == Date(timeIntervalSince1970: 1_709_218_799))
        #expect(d?.year == 2024)
        #expect(ISOBMFF.date1904(0) == nil)
        #expect(ISOBMFF.date1904(3_649_919_341)?.iso8601 == "2019-08-29T10:29:01+00:00")
    }
}
