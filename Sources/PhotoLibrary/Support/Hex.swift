/// Hexadecimal digits, written and read: SHA-256 digests, `%XX` escapes in `.trashinfo` paths,
/// `\xNN` escapes in messages.
enum Hex {
    static let lowercaseDigits = Array("0123456789abcdef".utf8)
    static let uppercaseDigits = Array("0123456789ABCDEF".utf8)

    /// Two digits a byte ("00ff…"); lower case, as digests are written, unless `uppercase`.
    static func string<Bytes: Sequence<UInt8>>(_ bytes: Bytes, uppercase: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes { append(byte, to: &out, uppercase: uppercase) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the two digits of `byte` to UTF-8 text being built.
    static func append(_ byte: UInt8, to out: inout [UInt8], uppercase: Bool = false) {
        let digits = uppercase ? uppercaseDigits : lowercaseDigits
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0xF)])
    }

    /// The value of one hex digit (either case); nil for any other byte.
    static func value(ofDigit c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
