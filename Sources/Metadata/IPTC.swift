import MetadataCore
import Foundation
import CIptcData

/// What Shoebox takes from an IPTC-IIM block (JPEG APP13, Photoshop resource 0x0404).
struct IPTCFields: Equatable {
    var takenAt: CaptureDate?
    var city: String?
    var country: String?
    var subLocation: String?
    var keywords: [String] = []
}

extension IPTCFields {
    /// Into a reader's metadata, under EXIF and XMP (`MetadataReader.merge` lets them override it);
    /// `underneath` only fills what is empty (an AFCP trailer's beneath the file's own IPTC).
    func apply(to m: inout MediaMetadata, underneath: Bool = false) {
        let keywords = keywords.isEmpty ? nil : XMP.deduplicated(keywords)
        if underneath {
            m.takenAt = m.takenAt ?? takenAt
            m.city = m.city ?? city
            m.country = m.country ?? country
            m.keywords = m.keywords ?? keywords
        } else {
            m.takenAt = takenAt
            m.city = city
            m.country = country
            m.keywords = keywords
        }
    }
}

/// IPTC-IIM through libiptcdata: news agencies' and older photo tools' captions, dates and places,
/// which many libraries (Lightroom, Photo Mechanic, digiKam) still write beside or instead of XMP.
enum IPTC {
    /// An APP13 segment's payload starts with this, then Photoshop "8BIM" image resources.
    static let photoshopSignature: [UInt8] = Array("Photoshop 3.0".utf8) + [0]
    /// APP13 caps a segment at 64 KiB; a few segments concatenated stay far below this.
    static let maximumSize = 1 << 20

    /// `resources` is an APP13 payload ("Photoshop 3.0\0" and 8BIM resources); libiptcdata finds
    /// the IPTC resource (0x0404) in it. nil when there is none or nothing usable in it.
    static func parse(photoshop resources: [UInt8]) -> IPTCFields? {
        guard resources.count > photoshopSignature.count, resources.count <= maximumSize else { return nil }
        var length: UInt32 = 0
        let offset = resources.withUnsafeBufferPointer { buf in
            iptc_jpeg_ps3_find_iptc(buf.baseAddress, UInt32(buf.count), &length)
        }
        guard offset > 0, Int(offset) + Int(length) <= resources.count, length > 0 else { return nil }
        return parse(iim: Array(resources[Int(offset)..<Int(offset) + Int(length)]))
    }

    /// `iim` is the IPTC-IIM data sets themselves (0x1C record tag length value …).
    static func parse(iim: [UInt8]) -> IPTCFields? {
        let valid = wellFormedPrefix(iim)
        guard !valid.isEmpty, iim.count <= maximumSize, let data = iptc_data_new() else { return nil }
        defer { iptc_data_unref(data) }
        let rc = valid.withUnsafeBufferPointer { iptc_data_load(data, $0.baseAddress, UInt32($0.count)) }
        guard rc == 0 else { return nil }
        let view = View(data: data)
        var f = IPTCFields()
        f.takenAt = view.date()
        f.city = view.text(IPTC_TAG_CITY)
        f.country = view.text(IPTC_TAG_COUNTRY_NAME) ?? view.text(IPTC_TAG_COUNTRY_CODE)
        f.subLocation = view.text(IPTC_TAG_SUBLOCATION)
        f.keywords = view.texts(IPTC_TAG_KEYWORDS)
        return f == IPTCFields() ? nil : f
    }

    /// The data sets up to the first one that is not whole. libiptcdata 1.0.5 adds a data set's
    /// length to its offset in 32 bits: an extended length near 4 GiB wraps around its bounds check
    /// and it allocates and copies that many bytes (found by Fuzz/run IPTC). Each data set is
    /// 0x1C, record, tag, a 2-byte length — or, with its top bit set, the count (1…4) of the
    /// length bytes that follow.
    static func wellFormedPrefix(_ b: [UInt8]) -> ArraySlice<UInt8> {
        var i = 0
        while i + 5 <= b.count, b[i] == 0x1C {
            var length = Int(b[i + 3]) << 8 | Int(b[i + 4])
            var header = 5
            if length & 0x8000 != 0 {
                let n = length & 0x7FFF
                guard (1...4).contains(n), i + 5 + n <= b.count else { break }
                length = b[(i + 5)..<(i + 5 + n)].reduce(0) { $0 << 8 | Int($1) }
                header += n
            }
            guard length <= b.count - i - header else { break }
            i += header + length
        }
        return b[..<i]
    }

    private struct View {
        let data: UnsafeMutablePointer<IptcData>

        /// Text is UTF-8 when record 1's CodedCharacterSet says so (ESC % G) or when it is valid
        /// UTF-8 anyway; otherwise Latin-1, what IIM writers without that data set use.
        var isUTF8: Bool {
            values(IPTC_RECORD_OBJECT_ENV, IPTC_TAG_CHARACTER_SET, limit: 1).first == [0x1B, 0x25, 0x47]
        }

        /// The raw values of a data set, in file order. libiptcdata hands each data set out with
        /// its reference count raised: every one is released here (LeakSanitizer found it).
        func values(_ record: IptcRecord, _ tag: IptcTag, limit: Int) -> [[UInt8]] {
            var out: [[UInt8]] = []
            var ds = iptc_data_get_dataset(data, record, tag)
            while let d = ds {
                if out.count < limit, let p = d.pointee.data { out.append(Array(UnsafeBufferPointer(start: p, count: Int(d.pointee.size)))) }
                ds = out.count < limit ? iptc_data_get_next_dataset(data, d, record, tag) : nil
                iptc_dataset_unref(d)
            }
            return out
        }

        func decode(_ raw: [UInt8]) -> String? {
            let b = Array(raw.prefix { $0 != 0 })
            let s = (isUTF8 ? String(decoding: b, as: UTF8.self) : nil)
                ?? String(validating: b, as: UTF8.self)
                ?? String(b.map { Character(Unicode.Scalar($0)) })
            let t = s.trimmedWhitespaceAndControls()
            return t.isEmpty ? nil : t
        }

        func text(_ tag: IptcTag) -> String? {
            values(IPTC_RECORD_APP_2, tag, limit: 1).first.flatMap(decode)
        }

        /// A repeatable data set's values (keywords), at most 1,000.
        func texts(_ tag: IptcTag) -> [String] {
            values(IPTC_RECORD_APP_2, tag, limit: 1000).compactMap(decode)
        }

        /// DateCreated (2:55, CCYYMMDD) with TimeCreated (2:60, HHMMSS±HHMM) when present; the
        /// time's offset is the capture place's.
        func date() -> CaptureDate? {
            guard let d = text(IPTC_TAG_DATE_CREATED), d.count == 8, d.allSatisfy(\.isASCII),
                  let y = Int(d.prefix(4)), let mo = Int(d.dropFirst(4).prefix(2)), let day = Int(d.suffix(2))
            else { return nil }
            var w = WallClock(year: y, month: mo, day: day)
            var offset: Int?
            if let t = text(IPTC_TAG_TIME_CREATED) {
                var s = TextScanner(t)
                if let h = s.digits(2), let mi = s.digits(2) {
                    w.hour = h; w.minute = mi
                    if let sec = s.digits(2) { w.second = sec }
                    if !s.atEnd { offset = DateText.offset(&s) }
                }
            }
            return w.captureDate(offset: offset, source: .iptc)
        }
    }
}
