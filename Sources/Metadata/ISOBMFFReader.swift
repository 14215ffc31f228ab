import MetadataCore
import Foundation

/// ISO base media file format boxes (MP4, MOV, and HEIF's top level), walked with pread.
///
/// MP4/MOV metadata is read by this walker rather than a library: libavformat would bring a whole
/// demuxer (and its probing reads) for four small boxes, and nothing lighter on Debian reads
/// QuickTime `keys`/`ilst` metadata. Every loop is bounded (boxes per level, depth, bytes read).
enum ISOBMFF {
    static let maximumBoxesPerLevel = 10_000
    /// moov children Shoebox reads whole (mvhd, tkhd, hdlr, keys, ilst, udta …) are small;
    /// a larger one is skipped rather than read.
    static let maximumReadBox = 1 << 20

    struct Box {
        var type: UInt32
        var start: Int64
        var headerSize: Int
        /// Declared end (may lie past the parent or the file).
        var end: Int64
        var payloadStart: Int64 { start + Int64(headerSize) }
        var payloadSize: Int64 { end - payloadStart }
    }

    enum HeaderResult {
        case box(Box)
        case shortHeader       // fewer bytes than a header before the limit
        case corrupt(String)
    }

    /// The box header at `offset`; `limit` is the end of the parent (size 0 means "to the limit").
    static func header(_ r: WindowedReader, at offset: Int64, limit: Int64) -> HeaderResult {
        guard let h = try? r.read(at: offset, length: 16), h.count >= 8, offset + 8 <= limit,
              let size32 = h.be32(0), let type = h.be32(4) else { return .shortHeader }
        var box = Box(type: type, start: offset, headerSize: 8, end: 0)
        switch size32 {
        case 0:
            box.end = limit
        case 1:
            guard h.count >= 16, offset + 16 <= limit else { return .shortHeader }
            var c = ByteCursor(h, at: 8)
            let large = (try? c.u64()) ?? 0
            guard large >= 16, large <= UInt64(Int64.max - offset) else {
                return .corrupt("box '\(fourCC(type))' has an invalid 64-bit size")
            }
            box.headerSize = 16
            box.end = offset + Int64(large)
        default:
            guard size32 >= 8 else { return .corrupt("box '\(fourCC(type))' at byte \(offset) has size \(size32)") }
            box.end = offset + Int64(size32)
        }
        return .box(box)
    }

    /// Children of the byte range, stopping at the first one that does not fit in it.
    static func children(_ r: WindowedReader, from start: Int64, to end: Int64) -> [Box] {
        var out: [Box] = []
        var pos = start
        while pos < end, out.count < maximumBoxesPerLevel {
            guard case .box(let b) = header(r, at: pos, limit: end), b.end <= end else { break }
            out.append(b)
            pos = b.end
        }
        return out
    }

    struct TopLevel {
        var boxes: [Box] = []
        /// The box that runs past the end of the file, if any.
        var pastEOF: Box?
        /// The file ends inside a box header.
        var shortHeader = false
        var corrupt: String?
    }

    static func topLevel(_ source: ByteSource) -> TopLevel {
        let r = WindowedReader(source, windowSize: 4096)
        var t = TopLevel()
        var pos: Int64 = 0
        while pos < r.count {
            guard t.boxes.count < maximumBoxesPerLevel else { t.corrupt = "more than \(maximumBoxesPerLevel) top-level boxes"; break }
            switch header(r, at: pos, limit: r.count) {
            case .shortHeader: t.shortHeader = true; return t
            case .corrupt(let why): t.corrupt = why; return t
            case .box(let b):
                if b.end > r.count { t.pastEOF = b; return t }
                t.boxes.append(b)
                pos = b.end
            }
        }
        return t
    }

    /// Top-level boxes must fit in the file and the essential ones must be there.
    static func incompleteness(_ source: ByteSource, format: MediaFormat) -> String? {
        let name = format == .heic ? "HEIC" : format == .mov ? "MOV" : "MP4"
        let t = topLevel(source)
        if let b = t.pastEOF {
            return "\(name) box '\(fourCC(b.type))' runs past the end of the file (file still being written or truncated)"
        }
        if t.shortHeader { return "\(name) ends inside a box header (file still being written or truncated)" }
        if let why = t.corrupt { return "\(name) box structure is corrupt: \(why)" }
        let types = Set(t.boxes.map(\.type))
        let needed: [(StaticString, String)] = format == .heic
            ? [("ftyp", "file type"), ("meta", "image description")] : [("moov", "movie header")]
        for (type, what) in needed where !types.contains(fourCC(type)) {
            return "\(name) has no \(what) ('\(type)' box) (file still being written or truncated)"
        }
        return nil
    }

    // MARK: MP4 / MOV

    struct Video {
        var width = 0, height = 0
        var rotation = 0
        var takenAt: CaptureDate?
        var duration: Double?
        var gps: GPSCoordinate?
        var make: String?, model: String?, software: String?
        var contentIdentifier: String?
    }

    static func readVideo(_ source: ByteSource, format: MediaFormat) throws -> MediaMetadata {
        let name = format == .mov ? "MOV" : "MP4"
        let r = WindowedReader(source)
        let top = topLevel(source)
        guard let moov = top.boxes.first(where: { $0.type == fourCC("moov") })
                ?? top.pastEOF.flatMap({ $0.type == fourCC("moov") ? $0 : nil }) else {
            if top.pastEOF != nil || top.shortHeader {
                throw MetadataError(.truncated, "truncated \(name): no movie header ('moov' box) before end of file")
            }
            throw MetadataError(.corrupt, "corrupt \(name): no movie header ('moov' box)")
        }
        var v = Video()
        let moovEnd = min(moov.end, r.count)
        var mvhdDate: CaptureDate?
        var chosenTrack = false
        for b in children(r, from: moov.payloadStart, to: moovEnd) {
            switch b.type {
            case fourCC("mvhd"):
                if let p = payload(r, b) { (mvhdDate, v.duration) = parseMVHD(p) }
            case fourCC("trak") where !chosenTrack:
                if let t = track(r, b) { (v.width, v.height, v.rotation) = t; chosenTrack = true }
            case fourCC("meta"):
                quickTimeMetadata(r, b, into: &v)
            case fourCC("udta"):
                userData(r, b, into: &v)
            default: break
            }
        }
        guard chosenTrack, v.width > 0, v.height > 0 else {
            throw MetadataError(.unrecognized, "not a photo or video: the \(name) file holds no video track")
        }
        // Players and ffmpeg rotate by the track matrix when they decode, so the size reported
        // is the upright one and orientation stays 1 (as for HEIC, whose decoder also applies it).
        var (w, h) = (v.width, v.height)
        if v.rotation == 90 || v.rotation == 270 { swap(&w, &h) }
        try checkPixelBudget(width: w, height: h)
        return MediaMetadata(format: format, pixelWidth: w, pixelHeight: h, orientation: 1,
                             takenAt: v.takenAt ?? mvhdDate, gps: v.gps, make: v.make, model: v.model,
                             software: v.software, duration: v.duration, contentIdentifier: v.contentIdentifier)
    }

    private static func payload(_ r: WindowedReader, _ b: Box) -> [UInt8]? {
        guard b.payloadSize > 0, b.payloadSize <= maximumReadBox,
              let p = try? r.read(at: b.payloadStart, length: Int(b.payloadSize)), p.count == Int(b.payloadSize)
        else { return nil }
        return p
    }

    /// creation_time is seconds since 1904-01-01 UTC; 0 (what muxers write without a date) is no date.
    static func parseMVHD(_ p: [UInt8]) -> (CaptureDate?, Double?) {
        var c = ByteCursor(p)
        guard let version = try? c.u8(), (try? c.skip(3)) != nil else { return (nil, nil) }
        let creation: UInt64, timescale: UInt32, duration: UInt64
        do {
            if version == 1 {
                creation = try c.u64(); _ = try c.u64(); timescale = try c.u32(); duration = try c.u64()
            } else {
                creation = UInt64(try c.u32()); _ = try c.u32(); timescale = try c.u32(); duration = UInt64(try c.u32())
                if duration == 0xFFFF_FFFF { return (date1904(creation), nil) }
            }
        } catch { return (nil, nil) }
        let seconds = timescale > 0 && duration != UInt64.max ? Double(duration) / Double(timescale) : nil
        return (date1904(creation), seconds)
    }

    static func date1904(_ seconds: UInt64) -> CaptureDate? {
        let unix = Int64(clamping: seconds) - 2_082_844_800
        // Year 1971 … 2200: a zero or near-zero field is a muxer's placeholder, not a date.
        guard seconds > 0, unix > 31_536_000, unix < 7_258_118_400 else { return nil }
        return CaptureDate(date: Date(timeIntervalSince1970: TimeInterval(unix)), utcOffsetSeconds: 0, source: .container)
    }

    /// (width, height, rotation) of a video track, from tkhd (16.16 sizes) and its matrix.
    private static func track(_ r: WindowedReader, _ trak: Box) -> (Int, Int, Int)? {
        var tkhd: [UInt8]?
        var handler: UInt32?
        for b in children(r, from: trak.payloadStart, to: trak.end) {
            if b.type == fourCC("tkhd") { tkhd = payload(r, b) }
            if b.type == fourCC("mdia") {
                for m in children(r, from: b.payloadStart, to: b.end) where m.type == fourCC("hdlr") {
                    if let p = payload(r, m) { handler = p.be32(8) }
                }
            }
        }
        if let handler, handler != fourCC("vide") { return nil }
        guard let tkhd, let (w, h, rot) = parseTKHD(tkhd), w > 0, h > 0 else { return nil }
        return (w, h, rot)
    }

    static func parseTKHD(_ p: [UInt8]) -> (Int, Int, Int)? {
        var c = ByteCursor(p)
        do {
            let version = try c.u8()
            try c.skip(3)
            try c.skip(version == 1 ? 8 + 8 + 4 + 4 + 8 : 4 + 4 + 4 + 4 + 4)
            try c.skip(8 + 2 + 2 + 2 + 2)  // reserved, layer, alternate group, volume, reserved
            var m: [Int32] = []
            for _ in 0..<9 { m.append(Int32(bitPattern: try c.u32())) }
            let w = Int(try c.u32() >> 16), h = Int(try c.u32() >> 16)
            let a = Double(m[0]) / 65536, b = Double(m[1]) / 65536
            var degrees = Int((atan2(b, a) * 180 / .pi).rounded())
            degrees = ((degrees % 360) + 360) % 360
            let rotation = [0, 90, 180, 270].min { abs($0 - degrees) < abs($1 - degrees) } ?? 0
            return (w, h, rotation)
        } catch { return nil }
    }

    /// Apple's moov/meta: `keys` names the items of `ilst` by 1-based index.
    private static func quickTimeMetadata(_ r: WindowedReader, _ meta: Box, into v: inout Video) {
        // QuickTime's meta is a plain box; ISO's is a full box (4 bytes of version and flags first).
        var start = meta.payloadStart
        if let peek = try? r.read(at: start, length: 8), peek.count == 8, peek.be32(0) == 0 { start += 4 }
        var keys: [String] = []
        var items: [(Int, [UInt8])] = []
        for b in children(r, from: start, to: meta.end) {
            if b.type == fourCC("keys"), let p = payload(r, b) {
                var c = ByteCursor(p, at: 4)
                guard let count = try? c.u32() else { continue }
                for _ in 0..<min(count, 1024) {
                    guard let size = try? c.u32(), size >= 8, (try? c.skip(4)) != nil,
                          let name = try? c.take(Int(size) - 8) else { break }
                    keys.append(String(decoding: name, as: UTF8.self))
                }
            } else if b.type == fourCC("ilst") {
                for item in children(r, from: b.payloadStart, to: b.end) {
                    guard let value = dataAtom(r, item) else { continue }
                    items.append((Int(item.type), value))
                }
            }
        }
        for (index, value) in items where index >= 1 && index <= keys.count {
            let text = String(decoding: value, as: UTF8.self)
            switch keys[index - 1] {
            case "com.apple.quicktime.location.ISO6709": v.gps = v.gps ?? ISO6709.parse(text)
            case "com.apple.quicktime.creationdate": v.takenAt = DateText.iso8601(text, source: .container)
            case "com.apple.quicktime.make": v.make = nonEmpty(text)
            case "com.apple.quicktime.model": v.model = nonEmpty(text)
            case "com.apple.quicktime.software": v.software = nonEmpty(text)
            case "com.apple.quicktime.content.identifier": v.contentIdentifier = nonEmpty(text)
            default: break
            }
        }
    }

    /// The UTF-8 value of an ilst item's `data` atom (type indicator 1).
    private static func dataAtom(_ r: WindowedReader, _ item: Box) -> [UInt8]? {
        for d in children(r, from: item.payloadStart, to: item.end) where d.type == fourCC("data") {
            guard let p = payload(r, d), p.count >= 8, p.be32(0) == 1 else { continue }
            return Array(p[8...])
        }
        return nil
    }

    /// QuickTime user data: ©xyz (ISO 6709 location), ©mak, ©mod, ©swr as international text,
    /// and a keyed `meta` as in moov.
    private static func userData(_ r: WindowedReader, _ udta: Box, into v: inout Video) {
        for b in children(r, from: udta.payloadStart, to: udta.end) {
            // ffmpeg writes Apple's keyed metadata under udta rather than directly in moov.
            if b.type == fourCC("meta") { quickTimeMetadata(r, b, into: &v); continue }
            guard b.type >> 24 == 0xA9, let p = payload(r, b), p.count > 4, let len = p.be16(0) else { continue }
            let text = String(decoding: p[4..<min(p.count, 4 + len)], as: UTF8.self)
            switch b.type & 0x00FF_FFFF {
            case fourCC("\0xyz") & 0x00FF_FFFF: v.gps = v.gps ?? ISO6709.parse(text)
            case fourCC("\0mak") & 0x00FF_FFFF: v.make = v.make ?? nonEmpty(text)
            case fourCC("\0mod") & 0x00FF_FFFF: v.model = v.model ?? nonEmpty(text)
            case fourCC("\0swr") & 0x00FF_FFFF: v.software = v.software ?? nonEmpty(text)
            default: break
            }
        }
    }

    private static func nonEmpty(_ s: String) -> String? {
        let t = s.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        return t.isEmpty ? nil : t
    }
}
