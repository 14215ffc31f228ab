import MetadataCore
import CLazyCodecs
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Camera raw files (DNG, CR2, CR3, NEF, ARW, RAF, RW2, ORF) through LibRaw, which knows each
/// maker's container; only the header is parsed (`libraw_open_*`), no pixel is unpacked.
/// The embedded preview (for thumbnails and analysis) is `RAWPreview`.
enum RAWReader {
    /// The raw formats Shoebox indexes (`RawSignature`, which the codec-free sniff shares).
    static var extensions: Set<String> { RawSignature.extensions }
    /// A raw file read from memory (tests, fuzzing) larger than this is refused.
    static let maximumBufferSize = 512 << 20

    static func sniff(_ head: [UInt8]) -> Bool { RawSignature.sniff(head) }

    static func isTIFF(_ head: [UInt8]) -> Bool { RawSignature.isTIFF(head) }

    static func read(_ source: ByteSource) throws -> MediaMetadata {
        try withOpened(source) { raw in
            let d = raw.pointee
            let width = Int(d.sizes.width), height = Int(d.sizes.height)
            guard width > 0, height > 0 else { throw MetadataError(.corrupt, "corrupt camera raw file: no image size") }
            try checkPixelBudget(width: width, height: height)
            var m = MediaMetadata(format: .raw, pixelWidth: width, pixelHeight: height,
                                  orientation: orientation(flip: d.sizes.flip))
            m.make = text(d.idata.make)
            m.model = text(d.idata.model)
            m.takenAt = captureDate(d.other.timestamp)
            m.gps = gps(d.other.parsed_gps)
            return m
        }
    }

    /// Opens `source` in LibRaw and runs `body` while it is open: a file through its descriptor
    /// (`/proc/self/fd`, the file the caller opened, no path looked up again), memory as a buffer
    /// that outlives the call.
    static func withOpened<T>(_ source: ByteSource, _ body: (UnsafeMutablePointer<libraw_data_t>) throws -> T) throws -> T {
        try LazyCodecs.libraw()
        guard let raw = shoebox_libraw_init(0) else { throw MetadataError(.io, "LibRaw could not start") }
        defer { shoebox_libraw_close(raw) }
        func check(_ status: Int32) throws {
            guard status != 0 else { return }
            let why = String(cString: shoebox_libraw_strerror(status))
            throw MetadataError(status == Int32(LIBRAW_FILE_UNSUPPORTED.rawValue) ? .unrecognized : .corrupt,
                                "not a camera raw file LibRaw can read: \(why)")
        }
        if let file = source as? FileByteSource {
            try check(shoebox_libraw_open_file(raw, "/proc/self/fd/\(file.fd)"))
            return try body(raw)
        }
        guard source.count <= Int64(maximumBufferSize) else { throw MetadataError(.tooLarge, "camera raw file too large to read from memory") }
        var bytes = try source.read(at: 0, length: Int(source.count))
        return try bytes.withUnsafeMutableBytes { buffer in
            try check(shoebox_libraw_open_buffer(raw, buffer.baseAddress, buffer.count))
            return try body(raw)
        }
    }

    /// LibRaw's `flip` (0, 3, 5, 6) as an EXIF orientation.
    static func orientation(flip: Int32) -> Int {
        switch flip {
        case 3: return 3
        case 5: return 8
        case 6: return 6
        default: return 1
        }
    }

    /// A fixed-size C string of the struct (a tuple of CChar), trimmed; nil when empty.
    static func text<T>(_ tuple: T) -> String? {
        let s = withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return s.isEmpty ? nil : s
    }

    /// LibRaw turns the EXIF time into a `time_t` with `mktime` (the process's zone); `localtime_r`
    /// gives the wall clock back, which is kept as EXIF without an offset is (read as UTC).
    static func captureDate(_ timestamp: time_t) -> CaptureDate? {
        guard timestamp > 0 else { return nil }
        var t = timestamp
        var tm = tm()
        guard localtime_r(&t, &tm) != nil else { return nil }
        let wall = timegm(&tm)
        return CaptureDate(date: Date(timeIntervalSince1970: Double(wall)), utcOffsetSeconds: nil, source: .exif)
    }

    static func gps(_ g: libraw_gps_info_t) -> GPSCoordinate? {
        guard g.gpsparsed != 0 else { return nil }
        func degrees(_ dms: (Float, Float, Float)) -> Double { Double(dms.0) + Double(dms.1) / 60 + Double(dms.2) / 3600 }
        let lat = degrees(g.latitude) * (g.latref == CChar(UInt8(ascii: "S")) ? -1 : 1)
        let lon = degrees(g.longitude) * (g.longref == CChar(UInt8(ascii: "W")) ? -1 : 1)
        return GPSCoordinate.validated(lat: lat, lon: lon)
    }
}
