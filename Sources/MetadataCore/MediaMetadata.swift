import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Container formats Shoebox indexes, as decided by the file's content (never its extension alone).
public enum MediaFormat: String, Codable, Sendable, CaseIterable {
    case jpeg, png, heic, mp4, mov
    /// A camera raw file (DNG, CR2, CR3, NEF, ARW, RAF, RW2, ORF: `MediaMetadata.rawType` says which).
    case raw
    /// A TIFF image that is not a camera raw file (scans, editors' exports): `.tif`, `.tiff`.
    case tiff

    public var isVideo: Bool { self == .mp4 || self == .mov }

    /// Lower-case extensions of the camera raw formats Shoebox indexes.
    public static var rawExtensions: Set<String> { RawSignature.extensions }

    /// Lower-case extensions a plain TIFF is indexed under.
    public static var tiffExtensions: Set<String> { MetadataReader.tiffExtensions }
}

/// Where a capture time came from, most trustworthy first: EXIF's capture dates
/// (DateTimeOriginal, DateTimeDigitized), XMP, IPTC-IIM, the container (videos, HEIC), the file
/// name, EXIF's IFD0 `DateTime` (when the file was last changed, which editors rewrite), the file's
/// modification time.
public enum DateSource: String, Codable, Sendable {
    case exif, xmp, iptc, container, filename
    case exifModified = "exif_modified"
    case mtime
}

/// A capture time as the file states it: an instant, plus the UTC offset when the file says it.
/// Without an offset (EXIF without OffsetTimeOriginal, a file name), the wall-clock reading is
/// interpreted as UTC and `utcOffsetSeconds` is nil, so nothing pretends to know the zone.
public struct CaptureDate: Codable, Equatable, Sendable {
    public var date: Date
    public var utcOffsetSeconds: Int?
    public var source: DateSource

    public init(date: Date, utcOffsetSeconds: Int?, source: DateSource) {
        self.date = date
        self.utcOffsetSeconds = utcOffsetSeconds
        self.source = source
    }

    /// ISO 8601 with milliseconds when non-zero, and the offset when known
    /// (`2023-05-14T12:34:56.120+02:00`); without an offset the local wall time has no suffix.
    public var iso8601: String {
        // gmtime_r on the wall-clock instant: Calendar and DateFormatter cost more than whole
        // listings of rows otherwise spend.
        let offset = utcOffsetSeconds ?? 0
        let wall = date.timeIntervalSince1970 + Double(offset)
        var seconds = wall.rounded(.down)
        var millis = Int(((wall - seconds) * 1000).rounded())
        if millis >= 1000 { seconds += 1; millis -= 1000 }
        var t = time_t(seconds)
        var tm = tm()
        gmtime_r(&t, &tm)
        // By hand, as String(format:) would write it, without its cost (a listing calls this per row).
        var b: [UInt8] = []
        b.reserveCapacity(29)
        ISOText.appendDateTime(tm, to: &b)
        if millis != 0 { b.append(UInt8(ascii: ".")); ISOText.appendPadded(millis, width: 3, to: &b) }
        if let o = utcOffsetSeconds { ISOText.appendOffset(o, to: &b) }
        return String(decoding: b, as: UTF8.self)
    }

    /// The first photograph was taken in 1826; a date before it, or more than a day after `now`
    /// (a camera whose clock was never set, a corrupt field), is not a capture time.
    public func isPlausible(now: Date) -> Bool {
        date >= CaptureDate.earliest && date <= now.addingTimeInterval(86_400)
    }

    static let earliest = Date(timeIntervalSince1970: -4_544_294_400)  // 1825-12-31T00:00:00Z: a day of slack for offsets

    /// Calendar year as the photographer saw it (wall clock at the capture place).
    public var year: Int {
        var t = time_t((date.timeIntervalSince1970 + Double(utcOffsetSeconds ?? 0)).rounded(.down))
        var tm = tm()
        gmtime_r(&t, &tm)
        return Int(tm.tm_year) + 1900
    }
}

public struct GPSCoordinate: Codable, Equatable, Sendable {
    public var lat: Double
    public var lon: Double
    public init(lat: Double, lon: Double) { self.lat = lat; self.lon = lon }
}

/// A face region normalised to the upright image; x/y is the top-left corner.
public struct FaceRegion: Codable, Equatable, Sendable {
    public var x: Double, y: Double, w: Double, h: Double
    public var name: String?
    public init(x: Double, y: Double, w: Double, h: Double, name: String?) {
        self.x = x; self.y = y; self.w = w; self.h = h; self.name = name
    }
}

/// Everything Shoebox learns from a file's bytes without decoding its pixels.
public struct MediaMetadata: Codable, Equatable, Sendable {
    public var format: MediaFormat
    /// Dimensions of the stored pixels (before the orientation is applied).
    /// For HEIC and videos, the size their decoders output: libheif applies irot/imir/clap and
    /// players (ffmpeg) the track matrix, so that size is already upright and `orientation` is 1.
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// EXIF orientation 1…8 (1 when absent): the turn a viewer must still apply after decoding.
    public var orientation: Int
    public var takenAt: CaptureDate?
    public var gps: GPSCoordinate?
    public var make: String?
    public var model: String?
    public var software: String?
    /// Names from `Iptc4xmpExt:PersonInImage` and named MWG face regions, deduplicated, in file order.
    public var persons: [String]
    public var faces: [FaceRegion]
    public var city: String?
    public var country: String?
    /// Seconds, for videos.
    public var duration: Double?
    /// Apple's content identifier, the same in both halves of a Live Photo (the still's Apple
    /// MakerNote tag 0x0011, the movie's `com.apple.quicktime.content.identifier`).
    public var contentIdentifier: String?
    /// For camera raw files, the kind of raw as its extension says it (`cr3`, `dng` …).
    public var rawType: String?
    /// The XMP sidecar file merged in, when there is one (see `XMPSidecar`).
    public var xmpSidecar: XMPSidecar?
    /// EXIF IFD0 `DateTime`: when the file was last changed (an editor rewrites it), so a capture
    /// time only after every other source but the modification time.
    public var modifiedAt: CaptureDate?
    /// True when EXIF records an exposure (ExposureTime, FNumber or ISO): a camera took it, so it
    /// is never a screenshot. nil (not false) otherwise, which older sidecars also say.
    public var hasExposure: Bool?
    /// The file's own keywords: IPTC-IIM 2:25, then embedded XMP `dc:subject`, de-duplicated in
    /// that order; nil when it has none (an XMP sidecar's are `xmpSidecar.keywords`).
    public var keywords: [String]?

    public init(format: MediaFormat, pixelWidth: Int = 0, pixelHeight: Int = 0, orientation: Int = 1,
                takenAt: CaptureDate? = nil, gps: GPSCoordinate? = nil, make: String? = nil, model: String? = nil,
                software: String? = nil, persons: [String] = [], faces: [FaceRegion] = [],
                city: String? = nil, country: String? = nil, duration: Double? = nil,
                contentIdentifier: String? = nil, rawType: String? = nil,
                modifiedAt: CaptureDate? = nil, hasExposure: Bool? = nil, keywords: [String]? = nil) {
        self.format = format; self.pixelWidth = pixelWidth; self.pixelHeight = pixelHeight
        self.orientation = orientation; self.takenAt = takenAt; self.gps = gps; self.make = make
        self.model = model; self.software = software; self.persons = persons; self.faces = faces
        self.city = city; self.country = country; self.duration = duration
        self.contentIdentifier = contentIdentifier; self.rawType = rawType
        self.modifiedAt = modifiedAt; self.hasExposure = hasExposure; self.keywords = keywords
    }

    /// Orientations 5–8 swap the axes.
    public var uprightWidth: Int { (5...8).contains(orientation) ? pixelHeight : pixelWidth }
    public var uprightHeight: Int { (5...8).contains(orientation) ? pixelWidth : pixelHeight }

    /// True when the file carries the marks of a camera (make/model, an exposure or an EXIF capture time).
    public var hasCameraMetadata: Bool {
        make != nil || model != nil || hasExposure == true || takenAt?.source == .exif
    }
}

/// Why a file could not be read as media. `description` is one line, meant for users.
public struct MetadataError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Code: String, Sendable {
        case empty              // zero bytes
        case unrecognized       // not JPEG/PNG/HEIC/MP4/MOV by content
        case truncated          // structure runs past the end of the file
        case corrupt            // structure is inconsistent
        case tooLarge           // dimensions beyond what Shoebox will ever decode (decompression bomb)
        case io                 // the read itself failed
    }
    public var code: Code
    public var message: String
    public init(_ code: Code, _ message: String) { self.code = code; self.message = message }
    public var description: String { message }
}

/// Random access to a file's bytes. Metadata readers fetch only what they need
/// (headers, metadata boxes, the last bytes), never the whole file.
public protocol ByteSource {
    var count: Int64 { get }
    /// Up to `length` bytes at `offset`; fewer only at the end of the source.
    func read(at offset: Int64, length: Int) throws -> [UInt8]
}

/// A byte source over memory (tests, fuzzing, small files).
public struct MemoryByteSource: ByteSource {
    public let bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public init(_ data: Data) { self.bytes = [UInt8](data) }
    public var count: Int64 { Int64(bytes.count) }
    public func read(at offset: Int64, length: Int) throws -> [UInt8] {
        guard offset >= 0, offset < count, length > 0 else { return [] }
        let start = Int(offset)
        let end = min(bytes.count, start + length)
        return Array(bytes[start..<end])
    }
}

/// ISO 8601 text written byte by byte: what `String(format: "%04d-%02d-%02dT%02d:%02d:%02d")`
/// writes, at a fraction of its cost (listings write two dates per asset, 100,000 assets a listing).
public enum ISOText {
    /// `yyyy-MM-ddTHH:mm:ss` of a broken-down time.
    public static func appendDateTime(_ tm: tm, to b: inout [UInt8]) {
        appendPadded(Int(tm.tm_year) + 1900, width: 4, to: &b); b.append(UInt8(ascii: "-"))
        appendPadded(Int(tm.tm_mon) + 1, width: 2, to: &b); b.append(UInt8(ascii: "-"))
        appendPadded(Int(tm.tm_mday), width: 2, to: &b); b.append(UInt8(ascii: "T"))
        appendPadded(Int(tm.tm_hour), width: 2, to: &b); b.append(UInt8(ascii: ":"))
        appendPadded(Int(tm.tm_min), width: 2, to: &b); b.append(UInt8(ascii: ":"))
        appendPadded(Int(tm.tm_sec), width: 2, to: &b)
    }

    /// `+HH:MM` / `-HH:MM` of an offset from UTC in seconds.
    public static func appendOffset(_ seconds: Int, to b: inout [UInt8]) {
        let a = abs(seconds)
        b.append(seconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        appendPadded(a / 3600, width: 2, to: &b); b.append(UInt8(ascii: ":"))
        appendPadded((a % 3600) / 60, width: 2, to: &b)
    }

    /// `n` as printf's `%0<width>d` writes it: zero-padded to `width` characters, a minus sign included.
    public static func appendPadded(_ n: Int, width: Int, to b: inout [UInt8]) {
        // Months, days, hours …: two digits by constant divisors (listings write two or three
        // dates per asset; the loop's divisions by a variable were 2 % of `tidy list --json`).
        if width == 2, n >= 0, n < 100 {
            b.append(UInt8(ascii: "0") + UInt8(n / 10))
            b.append(UInt8(ascii: "0") + UInt8(n % 10))
            return
        }
        let m = n.magnitude
        var count = 1, power: UInt = 1
        while m / power >= 10 { power *= 10; count += 1 }
        if n < 0 { b.append(UInt8(ascii: "-")) }
        for _ in 0..<max(0, width - count - (n < 0 ? 1 : 0)) { b.append(UInt8(ascii: "0")) }
        var rest = m
        while power > 0 { b.append(UInt8(ascii: "0") + UInt8(rest / power)); rest %= power; power /= 10 }
    }
}
