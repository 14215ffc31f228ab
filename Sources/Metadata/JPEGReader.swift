import MetadataCore
import CTurboJPEG

/// JPEG: walks the marker segments with pread up to the first scan, never reading the image data.
enum JPEGReader {
    static let xmpSignature: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    static let extendedXMPSignature: [UInt8] = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]
    static let maximumSegments = 10_000
    static let maximumStrayBytes = 4096
    /// Tables and frame header handed to TurboJPEG; real ones are a few KiB.
    static let maximumHeaderStream = 1 << 20

    /// What the walk up to the first scan (SOS) found.
    struct Header {
        var width = 0, height = 0
        var exif: [UInt8]?
        var xmp: [UInt8]?
        /// The first APP13 "Photoshop 3.0" segment's payload (its IPTC-IIM block is inside).
        var photoshop: [UInt8]?
        var extendedXMP: [String: ExtendedXMP] = [:]
        /// SOI, the frame header and tables, then the SOS header: all libjpeg needs to read the header
        /// (nil when implausibly large).
        var headerStream: [UInt8]? = [0xFF, 0xD8]
        var sawSOF = false
        var sosOffset: Int64?
    }

    /// ExtendedXMP chunks of one GUID, assembled by their offsets.
    struct ExtendedXMP {
        var total: Int
        var bytes: [UInt8]
        var filled = 0
    }

    static func read(_ source: ByteSource) throws -> (metadata: MediaMetadata, exif: EXIFFields?, xmp: XMPFields?) {
        let h = try walk(source)
        var width = h.width, height = h.height
        if let stream = h.headerStream, let tj = turboJPEGSize(stream) { (width, height) = tj }
        guard width > 0, height > 0 else {
            throw MetadataError(.corrupt, "corrupt JPEG: image header claims \(width)×\(height) pixels")
        }
        try checkPixelBudget(width: width, height: height)
        var m = MediaMetadata(format: .jpeg, pixelWidth: width, pixelHeight: height)
        let exif = h.exif.flatMap(EXIF.parse)
        var xmp: XMPFields?
        if let packet = h.xmp, var props = XMP.properties(packet) {
            if let guid = XMP.extendedGUID(props), let ext = h.extendedXMP[guid], ext.filled == ext.total,
               let more = XMP.properties(ext.bytes) {
                props.merge(more) { main, _ in main }
            }
            xmp = XMP.fields(props)
        }
        m.orientation = exif?.orientation ?? 1
        // IPTC-IIM comes after EXIF and XMP (`MetadataReader.merge` lets them override it).
        h.photoshop.flatMap(IPTC.parse(photoshop:))?.apply(to: &m)
        return (m, exif, xmp)
    }

    /// Width and height as libjpeg-turbo reads them. `jpeg_read_header` reads on to the first SOS
    /// (bytes ending with the SOF make it fail: "JPEG datastream contains no image"), so it is fed
    /// SOI, the tables, the frame header and the SOS header, leaving out the APPn segments, which
    /// can be large: the image data is never read.
    static func turboJPEGSize(_ stream: [UInt8]) -> (Int, Int)? {
        guard stream.count > 4, let handle = tjInitDecompress() else { return nil }
        defer { tjDestroy(handle) }
        var w: Int32 = 0, h: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let rc = stream.withUnsafeBufferPointer { buf in
            tjDecompressHeader3(handle, buf.baseAddress, UInt(buf.count), &w, &h, &subsampling, &colorspace)
        }
        guard rc == 0, w > 0, h > 0 else { return nil }
        return (Int(w), Int(h))
    }

    static func isSOF(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// Walks marker segments from SOI to the first SOS. Throws for structure errors before the
    /// frame header; after it, a damaged segment only ends the walk (the header is what counts).
    static func walk(_ source: ByteSource) throws -> Header {
        let r = WindowedReader(source)
        var h = Header()
        var pos: Int64 = 2
        var segments = 0
        func fail(_ code: MetadataError.Code, _ message: String) throws -> Header {
            if h.sawSOF { return h }
            throw MetadataError(code, message)
        }
        while segments < maximumSegments {
            segments += 1
            var head = try r.read(at: pos, length: 4)
            // Like libjpeg, tolerate fill bytes (FF FF …) and a few stray bytes before a marker.
            var skipped = 0
            while head.count >= 2, head[0] != 0xFF || head[1] == 0xFF, skipped < maximumStrayBytes {
                pos += 1
                skipped += 1
                head = try r.read(at: pos, length: 4)
            }
            guard head.count >= 2 else {
                return try fail(.truncated, "truncated JPEG: no image header (SOF) before end of file")
            }
            guard head[0] == 0xFF, head[1] != 0xFF else {
                return try fail(.corrupt, "corrupt JPEG: no marker where one should be (byte \(pos))")
            }
            let marker = head[1]
            if marker == 0xD9 {
                return try fail(.corrupt, "corrupt JPEG: end marker before any image header (SOF)")
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {  // standalone markers
                pos += 2
                continue
            }
            guard head.count == 4 else {
                return try fail(.truncated, "truncated JPEG: no image header (SOF) before end of file")
            }
            let length = Int(head[2]) << 8 | Int(head[3])
            guard length >= 2 else {
                return try fail(.corrupt, "corrupt JPEG: invalid segment length at byte \(pos)")
            }
            let segmentEnd = pos + 2 + Int64(length)
            if segmentEnd > r.count {
                return try fail(.truncated, "truncated JPEG: no image header (SOF) before end of file")
            }
            switch marker {
            case 0xDA:  // SOS: entropy-coded data follows; stop here
                guard h.sawSOF else {
                    throw MetadataError(.corrupt, "corrupt JPEG: image data begins before the image header (SOF)")
                }
                h.sosOffset = pos
                h.headerStream? += try r.read(at: pos, length: 2 + length)
                return h
            case 0xE1:
                try readAPP1(r, at: pos + 4, length: length - 2, into: &h)
            case _ where isSOF(marker):
                let seg = try r.read(at: pos, length: 2 + length)
                if !h.sawSOF, let height = seg.be16(5), let width = seg.be16(7) {
                    h.width = width
                    h.height = height
                    h.sawSOF = true
                }
                h.headerStream? += seg
            case 0xED where h.photoshop == nil:
                let seg = try r.read(at: pos + 4, length: length - 2)
                if seg.starts(with: IPTC.photoshopSignature) { h.photoshop = seg }
            case 0xE2...0xEF, 0xFE:  // other APPn and comments: not needed but JFIF and Adobe's (colour transform)
                if marker == 0xEE || marker == 0xE0 { h.headerStream? += try r.read(at: pos, length: 2 + length) }
            default:  // DQT, DHT, DRI, DAC …
                h.headerStream? += try r.read(at: pos, length: 2 + length)
            }
            if (h.headerStream?.count ?? 0) > maximumHeaderStream { h.headerStream = nil }
            pos = segmentEnd
        }
        return try fail(.corrupt, "corrupt JPEG: more than \(maximumSegments) segments before the image data")
    }

    private static func readAPP1(_ r: WindowedReader, at offset: Int64, length: Int, into h: inout Header) throws {
        let sig = try r.read(at: offset, length: min(length, 35))
        if h.exif == nil, sig.hasPrefix(EXIF.header) {
            h.exif = try r.read(at: offset, length: length)
        } else if h.xmp == nil, sig.hasPrefix(xmpSignature) {
            h.xmp = Array(try r.read(at: offset, length: length).dropFirst(xmpSignature.count))
        } else if sig.hasPrefix(extendedXMPSignature) {
            // GUID (32 hex characters), full length, this chunk's offset, then the chunk.
            let seg = try r.read(at: offset, length: length)
            var c = ByteCursor(seg, at: extendedXMPSignature.count)
            guard let guidBytes = try? c.take(32), let total = try? c.u32(), let chunkOffset = try? c.u32(),
                  total <= UInt32(XMP.maximumSize) else { return }
            let guid = String(decoding: guidBytes, as: UTF8.self)
            let chunk = Array(seg[c.position...])
            // Only a bounded number of GUIDs: each may claim up to 4 MiB.
            if h.extendedXMP[guid] == nil {
                guard h.extendedXMP.count < 2 else { return }
                h.extendedXMP[guid] = ExtendedXMP(total: Int(total), bytes: [UInt8](repeating: 0, count: Int(total)))
            }
            guard var ext = h.extendedXMP[guid], ext.total == Int(total) else { return }
            let start = Int(chunkOffset)
            guard start <= ext.total, chunk.count <= ext.total - start else { return }
            ext.bytes.replaceSubrange(start..<start + chunk.count, with: chunk)
            ext.filled += chunk.count
            h.extendedXMP[guid] = ext
        }
    }

    // MARK: Completeness

    /// Complete when the primary image's EOI exists. The last 64 KiB are searched first (scan
    /// data cannot contain FF D9: an FF there is always stuffed or a restart marker); when a
    /// trailer is longer than that (a motion photo's video, MPF images), the scan is followed
    /// from SOS to its EOI, segment by segment.
    static func incompleteness(_ source: ByteSource) -> String? {
        let noEnd = "JPEG has no end marker (file still being written or truncated)"
        let header: Header
        do { header = try walk(source) } catch let e as MetadataError {
            return e.code == .truncated ? "JPEG ends before its image data (file still being written or truncated)"
                                        : e.message
        } catch { return "JPEG could not be read" }
        guard let sos = header.sosOffset else {
            return "JPEG ends before its image data (file still being written or truncated)"
        }
        let size = source.count
        // The last 4 KiB first: a camera's EOI is its last two bytes or close to them.
        for window: Int64 in [4 << 10, 64 << 10] {
            let tailStart = max(sos + 2, size - window)
            guard let tail = try? source.read(at: tailStart, length: Int(size - tailStart)) else { return noEnd }
            if containsEOI(tail) { return nil }
            if tailStart == sos + 2 { break }
        }
        return scanToEOI(source, from: sos) ? nil : noEnd
    }

    /// Searched from the end, where the marker usually is.
    private static func containsEOI(_ bytes: [UInt8]) -> Bool {
        var i = bytes.count - 2
        while i >= 0 {
            if bytes[i] == 0xFF && bytes[i + 1] == 0xD9 { return true }
            i -= 1
        }
        return false
    }

    /// Follows entropy-coded data and the segments between scans (progressive JPEGs) to the EOI.
    private static func scanToEOI(_ source: ByteSource, from start: Int64) -> Bool {
        let r = WindowedReader(source, windowSize: 1 << 20)
        var pos = start
        while pos + 1 < r.count {
            guard let b = try? r.read(at: pos, length: 4096), b.count >= 2 else { return false }
            var i = 0
            var jumped = false
            while i + 1 < b.count {
                if b[i] != 0xFF { i += 1; continue }
                let m = b[i + 1]
                if m == 0x00 || m == 0xFF || (0xD0...0xD7).contains(m) { i += 1; continue }
                if m == 0xD9 { return true }
                // Any other marker (DHT, SOS, DQT …) has a length: jump over its segment.
                guard i + 3 < b.count else { break }
                let len = Int(b[i + 2]) << 8 | Int(b[i + 3])
                guard len >= 2 else { return false }
                pos += Int64(i) + 2 + Int64(len)
                jumped = true
                break
            }
            if !jumped { pos += Int64(max(1, i)) }
        }
        return false
    }
}
