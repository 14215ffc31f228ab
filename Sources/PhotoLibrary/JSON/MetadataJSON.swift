import Foundation
import MetadataCore
#if canImport(Glibc)
import Glibc
#endif

/// Reads the index's `metadata` column (a `MediaMetadata` as `ShoeboxJSON` wrote it) without
/// JSONDecoder, which costs more than everything else a listing does per row. It accepts the
/// JSON that JSONDecoder accepts for this type and gives the same value: numbers go through the
/// same `strtod` (Swift's `Double(String)`), dates through the same parsers, unknown keys are
/// skipped, absent and null optionals are nil. On anything else (a missing field, a wrong type,
/// a duplicate key, a malformed document) it returns nil, and the caller asks JSONDecoder, whose
/// answer — or error — is the reference.
enum MetadataJSON {
    static func decode(_ text: String) -> MediaMetadata? {
        var text = text
        return text.withUTF8 { bytes -> MediaMetadata? in
            var p = Parser(bytes: bytes)
            guard let m = p.metadata() else { return nil }
            p.skipSpace()
            return p.i == bytes.count ? m : nil
        }
    }

    /// The date strategy of `ShoeboxJSON.makeDecoder`, on bytes for its own format.
    static func date(_ u: UnsafeBufferPointer<UInt8>) -> Date? {
        if let d = ShoeboxJSON.parse(utf8: u) { return d }
        return ShoeboxJSON.parseOtherForm(String(decoding: u, as: UTF8.self))
    }

    /// The JSON tokens; what a `MediaMetadata` is made of is read in `MetadataJSON+Fields.swift`.
    struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        mutating func take(_ c: UInt8) -> Bool {
            skipSpace()
            guard i < bytes.count, bytes[i] == c else { return false }
            i += 1
            return true
        }

        /// `null` (consumed) or not (nothing consumed).
        mutating func null() -> Bool {
            skipSpace()
            guard i + 4 <= bytes.count, bytes[i] == UInt8(ascii: "n"), bytes[i + 1] == UInt8(ascii: "u"),
                  bytes[i + 2] == UInt8(ascii: "l"), bytes[i + 3] == UInt8(ascii: "l") else { return false }
            i += 4
            return true
        }

        /// An object key, as its bytes in the document (matched by `case "name":` without making a String).
        struct Key {
            let bytes: UnsafeBufferPointer<UInt8>
            static func ~= (pattern: StaticString, key: Key) -> Bool {
                pattern.utf8CodeUnitCount == key.bytes.count
                    && memcmp(pattern.utf8Start, key.bytes.baseAddress!, key.bytes.count) == 0
            }
        }

        /// A key without escapes (the only kind ShoeboxJSON writes; others are left to JSONDecoder).
        mutating func key() -> Key? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = i
            while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 { i += 1 }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\""), i > start else { return nil }
            i += 1
            return Key(bytes: UnsafeBufferPointer(rebasing: bytes[start..<(i - 1)]))
        }

        /// The members of an object, each handled by `member(key)` (false: give up). A known key
        /// given twice (JSONDecoder keeps the first) is refused by the callers through `once`.
        mutating func object(_ member: (inout Parser, Key) -> Bool) -> Bool {
            guard take(UInt8(ascii: "{")) else { return false }
            if take(UInt8(ascii: "}")) { return true }
            repeat {
                guard let key = key(), take(UInt8(ascii: ":")), member(&self, key) else { return false }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}"))
        }

        mutating func array(_ element: (inout Parser) -> Bool) -> Bool {
            guard take(UInt8(ascii: "[")) else { return false }
            if take(UInt8(ascii: "]")) { return true }
            repeat {
                guard element(&self) else { return false }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]"))
        }

        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = i
            // The common case: no escapes, copied at once.
            while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 { i += 1 }
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(i - 1)]), as: UTF8.self)
            }
            var out = Array(bytes[start..<i])
            while i < bytes.count {
                let c = bytes[i]
                i += 1
                switch c {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard i < bytes.count else { return nil }
                    let e = bytes[i]
                    i += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        guard var scalar = hex4() else { return nil }
                        if (0xD800...0xDBFF).contains(scalar) {
                            // A surrogate pair, else not something this reader vouches for.
                            guard take(UInt8(ascii: "\\")), i < bytes.count, bytes[i] == UInt8(ascii: "u") else { return nil }
                            i += 1
                            guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let u = Unicode.Scalar(scalar) else { return nil }
                        out.append(contentsOf: String(u).utf8)
                    default:
                        return nil
                    }
                case 0..<0x20:
                    return nil
                default:
                    out.append(c)
                }
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard i + 4 <= bytes.count else { return nil }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[i]
                let d: UInt32
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
                default: return nil
                }
                v = v * 16 + d
                i += 1
            }
            return v
        }

        /// A JSON number token: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?; `integral` when it
        /// has neither fraction nor exponent.
        mutating func numberToken() -> (range: Range<Int>, integral: Bool)? {
            skipSpace()
            let start = i
            func digits(_ p: inout Parser) -> Int {
                let s = p.i
                while p.i < p.bytes.count, p.bytes[p.i] >= UInt8(ascii: "0"), p.bytes[p.i] <= UInt8(ascii: "9") { p.i += 1 }
                return p.i - s
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
            let intStart = i
            let n = digits(&self)
            guard n > 0, n == 1 || bytes[intStart] != UInt8(ascii: "0") else { return nil }
            var integral = true
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard digits(&self) > 0 else { return nil }
                integral = false
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard digits(&self) > 0 else { return nil }
                integral = false
            }
            return (start..<i, integral)
        }

        mutating func int() -> Int? {
            guard let t = numberToken(), t.integral else { return nil }
            var v = 0
            var i = t.range.lowerBound
            let negative = bytes[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            while i < t.range.upperBound {
                let (m, o1) = v.multipliedReportingOverflow(by: 10)
                let (a, o2) = negative ? m.subtractingReportingOverflow(Int(bytes[i] - 48)) : m.addingReportingOverflow(Int(bytes[i] - 48))
                guard !o1, !o2 else { return nil }
                v = a
                i += 1
            }
            return v
        }

        /// strtod, as `Double(String)` and JSONDecoder use, straight on the document's bytes: only
        /// when a delimiter follows the token (so strtod stops where the token does).
        mutating func double() -> Double? {
            guard let t = numberToken(), t.range.upperBound < bytes.count else { return nil }
            switch bytes[t.range.upperBound] {
            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: break
            default: return nil
            }
            var end: UnsafeMutablePointer<CChar>? = nil
            let start = UnsafeRawPointer(bytes.baseAddress! + t.range.lowerBound).assumingMemoryBound(to: CChar.self)
            let d = strtod(start, &end)
            let tokenEnd = UnsafeRawPointer(bytes.baseAddress! + t.range.upperBound)
            guard let end, UnsafeRawPointer(end) == tokenEnd, d.isFinite else { return nil }
            return d
        }

        /// Skips any JSON value (an unknown key's).
        mutating func skipValue() -> Bool {
            skipSpace()
            guard i < bytes.count else { return false }
            switch bytes[i] {
            case UInt8(ascii: "{"): return object { p, _ in p.skipValue() }
            case UInt8(ascii: "["): return array { $0.skipValue() }
            case UInt8(ascii: "\""): return string() != nil
            case UInt8(ascii: "n"): return null()
            case UInt8(ascii: "t"), UInt8(ascii: "f"):
                let word: [UInt8] = bytes[i] == UInt8(ascii: "t") ? Array("true".utf8) : Array("false".utf8)
                guard i + word.count <= bytes.count, Array(bytes[i..<(i + word.count)]) == word else { return false }
                i += word.count
                return true
            default: return numberToken() != nil
            }
        }

        /// `null` (nil) or a value `read` accepts; false when neither.
        mutating func optional<T>(_ out: inout T?, _ read: (inout Parser) -> T?) -> Bool {
            if null() { out = nil; return true }
            out = read(&self)
            return out != nil
        }

        mutating func bool() -> Bool? {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "t") || bytes[i] == UInt8(ascii: "f") else { return nil }
            let value = bytes[i] == UInt8(ascii: "t")
            return skipValue() ? value : nil
        }

        mutating func optionalString(_ out: inout String?) -> Bool {
            if null() { out = nil; return true }
            guard let s = string() else { return false }
            out = s
            return true
        }
    }
}
