import Foundation
import Testing
@testable import Metadata
import TestSupport

@Suite("Completeness")
struct CompletenessTests {
    func why(_ bytes: [UInt8], _ format: MediaFormat) -> String? {
        MetadataReader.incompleteness(MemoryByteSource(bytes), format: format)
    }

    @Test("every file of the sample library is complete")
    func completeFiles() throws {
        var formats = Set<MediaFormat>()
        for (url, entry) in try sampleFiles() {
            let fd = open(url.path, O_RDONLY)
            defer { close(fd) }
            let source = FileByteSource(fd: fd, size: Int64(entry.size))
            let format = try #require(MetadataReader.sniff(try source.read(at: 0, length: 64)), "\(entry.path) not sniffed")
            #expect(format.rawValue == entry.format)
            #expect(MetadataReader.incompleteness(source, format: format) == nil, "\(entry.path)")
            formats.insert(format)
        }
        #expect(formats == [.jpeg, .png, .heic, .mov])
    }

    @Test("truncated files of each format give a reason")
    func truncated() throws {
        let jpeg = try bytes(sampleFile("jpeg") { $0.size > 100_000 })
        #expect(why(Array(jpeg.dropLast(2)), .jpeg) == "JPEG has no end marker (file still being written or truncated)")
        #expect(why(Array(jpeg.prefix(jpeg.count / 2)), .jpeg) == "JPEG has no end marker (file still being written or truncated)")
        #expect(why(Array(jpeg.prefix(100)), .jpeg)?.contains("ends before its image data") == true)

        let png = try bytes(sampleFile("png"))
        #expect(why(Array(png.dropLast(12)), .png)?.contains("no IEND") == true)
        #expect(why(Array(png.dropLast(1)), .png)?.contains("runs past the end") == true)

        let heic = try bytes(sampleFile("heic"))
        #expect(why(Array(heic.dropLast(1)), .heic)?.contains("runs past the end of the file") == true)

        let mov = try bytes(sampleFile("mov"))
        #expect(why(Array(mov.dropLast(1)), .mov)?.contains("'moov' runs past the end") == true)
        #expect(why(Array(mov.dropLast(3)) + [0, 0], .mov) != nil)
    }

    @Test("bytes after the JPEG end marker are normal: trailers, MPF images, motion-photo videos")
    func trailers() throws {
        let jpeg = try bytes(sampleFile("jpeg") { $0.size > 100_000 })
        let mov = try bytes(sampleFile("mov"))
        #expect(why(jpeg + [UInt8](repeating: 0, count: 1000), .jpeg) == nil)
        #expect(why(jpeg + [UInt8](repeating: 0, count: 200_000), .jpeg) == nil, "a trailer longer than the 64 KiB searched")
        #expect(why(jpeg + mov, .jpeg) == nil, "motion photo")
        #expect(why(jpeg + jpeg, .jpeg) == nil, "MPF-style second image")
        // A trailer does not make a truncated image complete.
        #expect(why(Array(jpeg.prefix(jpeg.count / 2)) + [UInt8](repeating: 0, count: 70_000), .jpeg) != nil)
        // A PNG with bytes after IEND is complete too.
        let png = try bytes(sampleFile("png"))
        #expect(why(png + [1, 2, 3], .png) == nil)
    }

    @Test("ISO boxes: 64-bit sizes, size 0 (to the end), missing essential boxes")
    func boxes() throws {
        let ftyp = Craft.be32(16) + Array("ftypqt  ".utf8) + Craft.be32(0)
        let moov = Craft.be32(8) + Array("moov".utf8)
        let mdat64 = Craft.be32(1) + Array("mdat".utf8) + [0, 0, 0, 0] + Craft.be32(16 + 100) + [UInt8](repeating: 7, count: 100)
        #expect(why(ftyp + mdat64 + moov, .mov) == nil)
        #expect(why(ftyp + moov + Craft.be32(0) + Array("mdat".utf8) + [1, 2, 3], .mov) == nil)
        #expect(why(ftyp + mdat64, .mov)?.contains("no movie header") == true)
        #expect(why(ftyp + Array(mdat64.dropLast(1)) + moov, .mov) != nil)
        #expect(why(ftyp + moov + [0, 0, 0], .mov)?.contains("inside a box header") == true)
        // HEIC needs ftyp and meta.
        let heic = try bytes(sampleFile("heic"))
        #expect(why(heic, .heic) == nil)
        let ftypSize = Int(heic[3]) + Int(heic[2]) << 8
        #expect(why(Array(heic.prefix(ftypSize)) + [0, 0, 0, 8] + Array("free".utf8), .heic)?.contains("'meta'") == true)
    }
}
