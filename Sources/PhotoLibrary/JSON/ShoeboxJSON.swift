import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A shape of Shoebox's public JSON contract: what a command prints with `--json`. Scripts
/// read these fields, so a field is never renamed or dropped (new ones may be added); the
/// field names of every shape are pinned by `JSONContractEndToEndTests`. The shapes carry dates
/// as strings (local time with its offset), so the encoder's date strategy never shows.
public protocol PublicJSONShape: Encodable {}

/// A listing: one JSON array of a shape.
extension Array: PublicJSONShape where Element: PublicJSONShape {}

/// The JSON coding of everything Shoebox stores (sidecars, the index's JSON columns) and prints
/// (`document`, the one encoder of the public shapes).
/// Dates are ISO 8601 in UTC with milliseconds (`2023-05-14T10:34:56.120Z`): readable in a
/// sidecar, and coded the same way everywhere, so a date read back from a sidecar equals the
/// one read back from the index. Formatted by hand with gmtime/timegm: Foundation's ISO 8601
/// formatter costs tens of microseconds per date, which a scan of many files would feel.
public enum ShoeboxJSON {
    /// One document of the public contract as `--json` prints it: indented by two spaces, keys
    /// sorted, `/` unescaped, no trailing newline: JSONEncoder's bytes (`reference`), made by
    /// `JSONStreamWriter` without it (several times faster).
    public static func document<Shape: PublicJSONShape>(_ shape: Shape) throws -> Data {
        Data(try JSONStreamWriter.document(shape))
    }

    /// The same document made by JSONEncoder: the reference `JSONStreamWriter` is held to.
    public static func reference<Shape: PublicJSONShape>(_ shape: Shape) throws -> Data {
        try makeEncoder(pretty: true).encode(shape)
    }

    public static func makeEncoder(pretty: Bool) -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .custom { date, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(format(date))
        }
        return e
    }

    public static func makeDecoder() -> JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .custom { decoder in
            let c = try decoder.singleValueContainer()
            let text = try c.decode(String.self)
            if let date = parse(text) ?? parseOtherForm(text) { return date }
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not an ISO 8601 date: \(text)")
        }
        return d
    }

    static func format(_ date: Date) -> String {
        let t = date.timeIntervalSince1970
        var seconds = Int(t.rounded(.down))
        var millis = Int(((t - Double(seconds)) * 1000).rounded())
        if millis >= 1000 { seconds += 1; millis -= 1000 }
        var tt = time_t(seconds)
        var tm = tm()
        gmtime_r(&tt, &tm)
        // What `String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", …)` wrote, digit by digit:
        // that call (its CVarArg list, a locale) was ~1.5 % of a cold scan's CPU — every sidecar
        // and index row holds four or five dates.
        var text: [UInt8] = []
        text.reserveCapacity(24)
        func put(_ value: Int, _ width: Int, then separator: Character) {
            if value < 0 { text.append(UInt8(ascii: "-")) }
            var count = 1
            var v = value.magnitude
            while v >= 10 { count += 1; v /= 10 }
            let digits = max(count, width - (value < 0 ? 1 : 0))  // zero-padded as %0*d pads
            let end = text.count + digits
            text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
            v = value.magnitude
            for k in 0..<count {
                text[end - 1 - k] = UInt8(48 + v % 10)
                v /= 10
            }
            text.append(separator.asciiValue!)
        }
        put(Int(tm.tm_year) + 1900, 4, then: "-")
        put(Int(tm.tm_mon) + 1, 2, then: "-")
        put(Int(tm.tm_mday), 2, then: "T")
        put(Int(tm.tm_hour), 2, then: ":")
        put(Int(tm.tm_min), 2, then: ":")
        put(Int(tm.tm_sec), 2, then: ".")
        put(millis, 3, then: "Z")
        return String(decoding: text, as: UTF8.self)
    }

    /// Another ISO 8601 form (an offset, seconds without a fraction, nanoseconds, a local time),
    /// read as the date `format` writes for it (milliseconds, UTC), so that what is decoded
    /// encodes and decodes again to itself; nil for a date `format` cannot write (a year beyond
    /// what gmtime gives), refused like any damage.
    static func parseOtherForm(_ text: String) -> Date? {
        guard let date = ShoeboxClock.parseISO8601(text), date.timeIntervalSince1970.magnitude < 1e14 else { return nil }
        return parse(format(date))
    }

    /// Parses exactly what `format` writes; nil for anything else.
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// `parse` on UTF-8 bytes: `format`'s 24 characters, or its wider year (`%04d`: "-001" for
    /// 2 BC, five digits after 9999), which only a damaged or hand-edited file holds.
    static func parse(utf8 u: UnsafeBufferPointer<UInt8>) -> Date? {
        let yearWidth = u.count - 20, signed = u.first == UInt8(ascii: "-")
        guard yearWidth >= 4, yearWidth <= 9 else { return nil }
        let o = yearWidth - 4  // the rest lies o bytes further than in the 24-character form
        guard u[4 + o] == UInt8(ascii: "-"), u[7 + o] == UInt8(ascii: "-"), u[10 + o] == UInt8(ascii: "T"),
              u[13 + o] == UInt8(ascii: ":"), u[16 + o] == UInt8(ascii: ":"), u[19 + o] == UInt8(ascii: "."), u[23 + o] == UInt8(ascii: "Z")
        else { return nil }
        func num(_ from: Int, _ count: Int) -> Int? {
            var v = 0
            for i in from..<(from + count) {
                guard u[i] >= 48 && u[i] <= 57 else { return nil }
                v = v * 10 + Int(u[i] - 48)
            }
            return v
        }
        guard let year = signed ? num(1, yearWidth - 1).map({ -$0 }) : num(0, yearWidth), let mo = num(5 + o, 2),
              let d = num(8 + o, 2), let h = num(11 + o, 2), let mi = num(14 + o, 2), let s = num(17 + o, 2),
              let ms = num(20 + o, 3) else { return nil }
        var tm = tm()
        tm.tm_year = Int32(year - 1900); tm.tm_mon = Int32(mo - 1); tm.tm_mday = Int32(d)
        tm.tm_hour = Int32(h); tm.tm_min = Int32(mi); tm.tm_sec = Int32(s)
        let seconds = timegm(&tm)
        return Date(timeIntervalSince1970: Double(seconds) + Double(ms) / 1000)
    }
}
