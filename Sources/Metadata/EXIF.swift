import MetadataCore
import Foundation
import CExif

/// What Shoebox takes from an EXIF block.
struct EXIFFields: Equatable {
    var takenAt: CaptureDate?
    var gps: GPSCoordinate?
    var orientation: Int?
    var make: String?
    var model: String?
    var software: String?
    /// Apple's Live Photo content identifier (MakerNote tag 0x0011).
    var contentIdentifier: String?
    /// IFD0 DateTime: the last change, not the capture (see `DateSource`).
    var modifiedAt: CaptureDate?
    var hasExposure = false
}

/// EXIF through libexif: its TIFF/IFD parser is bounds-checked and long fuzzed, which a
/// hand-written one would not be.
enum EXIF {
    /// Blocks larger than this are not EXIF anyone wrote on purpose (JPEG caps it at 64 KiB).
    static let maximumSize = 16 << 20
    static let header: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// `block` starts with "Exif\0\0" followed by the TIFF header (as in a JPEG APP1 segment).
    /// Returns nil when libexif finds nothing usable: metadata is best-effort.
    static func parse(_ block: [UInt8]) -> EXIFFields? {
        guard block.count > header.count + 8, block.count <= maximumSize else { return nil }
        guard let data = exif_data_new() else { return nil }
        defer { exif_data_unref(data) }
        // FOLLOW_SPECIFICATION would "repair" the data by adding mandatory tags, DateTime with
        // *today's* date among them; IGNORE_UNKNOWN_TAGS would drop tags this libexif does not list.
        // Shoebox wants exactly what the file says.
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        exif_data_set_option(data, EXIF_DATA_OPTION_DONT_CHANGE_MAKER_NOTE)
        block.withUnsafeBufferPointer { buf in
            exif_data_load_data(data, buf.baseAddress, UInt32(buf.count))
        }
        let view = View(data: data)
        var f = EXIFFields()
        f.make = view.text(.ifd0, EXIF_TAG_MAKE)
        f.model = view.text(.ifd0, EXIF_TAG_MODEL)
        f.software = view.text(.ifd0, EXIF_TAG_SOFTWARE)
        if let o = view.integer(.ifd0, EXIF_TAG_ORIENTATION), (1...8).contains(o) { f.orientation = o }
        f.takenAt = view.captureDate()
        f.modifiedAt = view.modificationDate()
        f.hasExposure = [EXIF_TAG_EXPOSURE_TIME, EXIF_TAG_FNUMBER, EXIF_TAG_ISO_SPEED_RATINGS]
            .contains { view.entry(.exif, $0) != nil }
        f.gps = view.gps()
        if let e = view.entry(.exif, EXIF_TAG_MAKER_NOTE) {
            f.contentIdentifier = AppleMakerNote.contentIdentifier(Array(view.bytes(e)))
        }
        return f == EXIFFields() ? nil : f
    }

    /// Reads typed values from a loaded ExifData; every access checks the entry's real size.
    private struct View {
        let data: UnsafeMutablePointer<ExifData>

        enum IFD { case ifd0, exif, gps }

        func entry(_ ifd: IFD, _ tag: ExifTag) -> UnsafeMutablePointer<ExifEntry>? {
            let ifds = data.pointee.ifd
            let content: UnsafeMutablePointer<ExifContent>?
            switch ifd {
            case .ifd0: content = ifds.0
            case .exif: content = ifds.2
            case .gps: content = ifds.3
            }
            guard let content, let e = exif_content_get_entry(content, tag), e.pointee.data != nil else { return nil }
            return e
        }

        func bytes(_ e: UnsafeMutablePointer<ExifEntry>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: e.pointee.data, count: Int(e.pointee.size))
        }

        var order: ExifByteOrder { exif_data_get_byte_order(data) }

        func text(_ ifd: IFD, _ tag: ExifTag) -> String? {
            guard let e = entry(ifd, tag),
                  e.pointee.format == EXIF_FORMAT_ASCII || e.pointee.format == EXIF_FORMAT_UNDEFINED else { return nil }
            let raw = bytes(e).prefix { $0 != 0 }
            let s = String(decoding: raw, as: UTF8.self).trimmedWhitespaceAndNewlines()
            return s.isEmpty ? nil : s
        }

        func integer(_ ifd: IFD, _ tag: ExifTag) -> Int? {
            guard let e = entry(ifd, tag), e.pointee.components >= 1 else { return nil }
            let b = bytes(e)
            switch e.pointee.format {
            case EXIF_FORMAT_SHORT where b.count >= 2: return Int(exif_get_short(b.baseAddress, order))
            case EXIF_FORMAT_LONG where b.count >= 4: return Int(exif_get_long(b.baseAddress, order))
            default: return nil
            }
        }

        func rationals(_ ifd: IFD, _ tag: ExifTag) -> [Double]? {
            guard let e = entry(ifd, tag) else { return nil }
            let b = bytes(e)
            let n = min(Int(e.pointee.components), b.count / 8)
            guard n >= 1, let base = b.baseAddress else { return nil }
            var out: [Double] = []
            for i in 0..<min(n, 3) {
                switch e.pointee.format {
                case EXIF_FORMAT_RATIONAL:
                    let r = exif_get_rational(base + 8 * i, order)
                    guard r.denominator != 0 else { return nil }
                    out.append(Double(r.numerator) / Double(r.denominator))
                case EXIF_FORMAT_SRATIONAL:
                    let r = exif_get_srational(base + 8 * i, order)
                    guard r.denominator != 0 else { return nil }
                    out.append(Double(r.numerator) / Double(r.denominator))
                default: return nil
                }
            }
            return out
        }

        /// DateTimeOriginal, else CreateDate (DateTimeDigitized), each with its own sub-seconds and
        /// offset; the offset falls back to OffsetTime. IFD0 DateTime is not a capture time.
        func captureDate() -> CaptureDate? {
            let candidates: [(ExifTag, ExifTag, ExifTag)] = [
                (EXIF_TAG_DATE_TIME_ORIGINAL, EXIF_TAG_SUB_SEC_TIME_ORIGINAL, EXIF_TAG_OFFSET_TIME_ORIGINAL),
                (EXIF_TAG_DATE_TIME_DIGITIZED, EXIF_TAG_SUB_SEC_TIME_DIGITIZED, EXIF_TAG_OFFSET_TIME_DIGITIZED),
            ]
            for (dateTag, subTag, offsetTag) in candidates {
                guard let t = text(.exif, dateTag) else { continue }
                if let d = date(t, subTag, offsetTag, source: .exif) { return d }
            }
            return nil
        }

        /// IFD0 DateTime, which editors rewrite on every save.
        func modificationDate() -> CaptureDate? {
            guard let t = text(.ifd0, EXIF_TAG_DATE_TIME) else { return nil }
            return date(t, EXIF_TAG_SUB_SEC_TIME, EXIF_TAG_OFFSET_TIME, source: .exifModified)
        }

        private func date(_ t: String, _ subTag: ExifTag, _ offsetTag: ExifTag, source: DateSource) -> CaptureDate? {
            let offset = text(.exif, offsetTag) ?? text(.exif, EXIF_TAG_OFFSET_TIME)
            return DateText.exif(t, subSeconds: text(.exif, subTag), offset: offset, source: source)
        }

        func gps() -> GPSCoordinate? {
            let latTag = ExifTag(rawValue: UInt32(EXIF_TAG_GPS_LATITUDE))
            let lonTag = ExifTag(rawValue: UInt32(EXIF_TAG_GPS_LONGITUDE))
            let latRefTag = ExifTag(rawValue: UInt32(EXIF_TAG_GPS_LATITUDE_REF))
            let lonRefTag = ExifTag(rawValue: UInt32(EXIF_TAG_GPS_LONGITUDE_REF))
            guard let lat = rationals(.gps, latTag).map(degrees), let lon = rationals(.gps, lonTag).map(degrees)
            else { return nil }
            let south = text(.gps, latRefTag)?.uppercased().hasPrefix("S") ?? false
            let west = text(.gps, lonRefTag)?.uppercased().hasPrefix("W") ?? false
            return GPSCoordinate.validated(lat: south ? -lat : lat, lon: west ? -lon : lon)
        }

        private func degrees(_ dms: [Double]) -> Double {
            dms.enumerated().reduce(0) { $0 + $1.element / [1, 60, 3600][$1.offset] }
        }
    }
}
