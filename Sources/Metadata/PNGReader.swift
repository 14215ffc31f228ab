import MetadataCore
import CPNG

/// PNG: chunk headers walked with pread (IDAT contents skipped), metadata chunks read whole.
enum PNGReader {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let maximumChunks = 1_000_000
    static let xmpKeyword = Array("XML:com.adobe.xmp".utf8)

    struct Chunk {
        var type: UInt32
        var offset: Int64   // of the length field
        var length: Int
        var dataOffset: Int64 { offset + 8 }
        var end: Int64 { offset + 12 + Int64(length) }
    }

    enum WalkEnd: Equatable {
        case iend
        case pastEOF(String)   // chunk type that runs past the end of the file
        case corrupt(String)
        case tooManyChunks
    }

    /// Visits chunks in file order until IEND or a structure problem, which it reports.
    static func walk(_ r: WindowedReader, _ visit: (Chunk) throws -> Void) rethrows -> WalkEnd {
        var pos = Int64(signature.count)
        for _ in 0..<maximumChunks {
            let head = (try? r.read(at: pos, length: 8)) ?? []
            guard head.count == 8, let len = head.be32(0), let type = head.be32(4) else {
                return .pastEOF(head.count >= 8 ? fourCC(head.be32(4) ?? 0) : "chunk header")
            }
            guard len <= 0x7FFF_FFFF else { return .corrupt("chunk length \(len) out of range") }
            let chunk = Chunk(type: type, offset: pos, length: Int(len))
            guard chunk.end <= r.count else { return .pastEOF(fourCC(type)) }
            try visit(chunk)
            if type == fourCC("IEND") { return .iend }
            pos = chunk.end
        }
        return .tooManyChunks
    }

    static func read(_ source: ByteSource) throws -> (metadata: MediaMetadata, exif: EXIFFields?, xmp: XMPFields?) {
        // A small window: chunk headers are visited one by one and IDAT contents must not be read.
        let r = WindowedReader(source, windowSize: 512)
        let head = try r.read(at: 0, length: 33)
        guard head.count == 33 else { throw MetadataError(.truncated, "truncated PNG: no image header (IHDR)") }
        guard head.be32(12) == fourCC("IHDR"), head.be32(8) == 13,
              let w = head.be32(16), let h = head.be32(20) else {
            throw MetadataError(.corrupt, "corrupt PNG: the first chunk is not the image header (IHDR)")
        }
        guard w > 0, h > 0, w <= 0x7FFF_FFFF, h <= 0x7FFF_FFFF else {
            throw MetadataError(.corrupt, "corrupt PNG: image header claims \(w)×\(h) pixels")
        }
        try checkPixelBudget(width: Int(w), height: Int(h))

        var exifBlock: [UInt8]?
        var xmpPacket: [UInt8]?
        var palette: [UInt8]?
        var sawIDAT = false
        _ = try walk(r) { c in
            switch c.type {
            case fourCC("IDAT"):
                sawIDAT = true
            case fourCC("PLTE") where !sawIDAT && palette == nil && c.length <= 768:
                palette = try r.read(at: c.offset, length: 12 + c.length)
            case fourCC("eXIf") where exifBlock == nil && c.length <= EXIF.maximumSize:
                // eXIf holds bare TIFF; libexif wants the APP1-style "Exif\0\0" in front.
                exifBlock = EXIF.header + (try r.read(at: c.dataOffset, length: c.length))
            case fourCC("iTXt") where xmpPacket == nil && c.length <= XMP.maximumSize + 64:
                let keyword = try r.read(at: c.dataOffset, length: min(c.length, xmpKeyword.count + 1))
                guard keyword == xmpKeyword + [0] else { break }
                xmpPacket = uncompressedText(try r.read(at: c.dataOffset, length: c.length))
            default: break
            }
        }

        let (width, height) = libpngSize(ihdr: Array(head[8..<33]), palette: palette) ?? (Int(w), Int(h))
        var m = MediaMetadata(format: .png, pixelWidth: width, pixelHeight: height)
        let exif = exifBlock.flatMap(EXIF.parse)
        let xmp = xmpPacket.flatMap(XMP.properties).map(XMP.fields)
        m.orientation = exif?.orientation ?? 1
        return (m, exif, xmp)
    }

    /// The text of an iTXt chunk (keyword, flags, language, translated keyword, text) when it is
    /// not compressed; exiftool and Adobe write XMP uncompressed, as the XMP spec asks.
    static func uncompressedText(_ data: [UInt8]) -> [UInt8]? {
        var c = ByteCursor(data)
        guard c.cString() != nil, let compressed = try? c.u8(), (try? c.u8()) != nil, compressed == 0,
              c.cString() != nil, c.cString() != nil else { return nil }
        return Array(data[c.position...])
    }

    /// Dimensions as libpng's simplified API reads them. `png_image_begin_read_from_memory` reads
    /// up to the first IDAT header, so it is fed the signature, IHDR (and PLTE, which libpng requires
    /// before IDAT for palette images) and an empty IDAT header: never the whole file.
    static func libpngSize(ihdr: [UInt8], palette: [UInt8]?) -> (Int, Int)? {
        let stream = signature + ihdr + (palette ?? []) + [0, 0, 0, 0] + Array("IDAT".utf8)
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let ok = stream.withUnsafeBufferPointer { buf in
            png_image_begin_read_from_memory(&image, buf.baseAddress, buf.count)
        }
        guard ok != 0 else { return nil }  // libpng released its state on failure
        defer { png_image_free(&image) }
        guard image.width > 0, image.height > 0 else { return nil }
        return (Int(image.width), Int(image.height))
    }

    static func incompleteness(_ source: ByteSource) -> String? {
        switch walk(WindowedReader(source, windowSize: 512), { _ in }) {
        case .iend: return nil
        case .pastEOF(let type):
            return "PNG \(type == "chunk header" ? "ends inside a chunk header" : "chunk '\(type)' runs past the end of the file")"
                + " and has no IEND (file still being written or truncated)"
        case .corrupt(let why): return "PNG structure is corrupt: \(why)"
        case .tooManyChunks: return "PNG has more than \(maximumChunks) chunks before IEND"
        }
    }
}
