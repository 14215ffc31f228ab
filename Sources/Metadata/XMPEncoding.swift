import MetadataCore
import Foundation

extension XMP {
    /// The packet's text in whichever Unicode encoding it is: UTF-16 and UTF-32 of either byte
    /// order are told by their byte-order mark or, without one (as the XMP specification allows
    /// and some writers do), by how the opening `<` is laid out in the first four bytes, as XML's
    /// own encoding detection does (its appendix F); else UTF-8.
    static func decodeText(_ p: [UInt8]) -> String {
        let head = Array(p.prefix(4)) + [UInt8](repeating: 0xAA, count: max(0, 4 - p.count))
        let lt: UInt8 = 0x3C
        switch (head[0], head[1], head[2], head[3]) {
        case (0x00, 0x00, 0xFE, 0xFF), (0x00, 0x00, 0x00, lt): return utf32(p, bigEndian: true)
        case (0xFF, 0xFE, 0x00, 0x00), (lt, 0x00, 0x00, 0x00): return utf32(p, bigEndian: false)
        case (0xFE, 0xFF, _, _), (0x00, lt, 0x00, _): return utf16(p, bigEndian: true)
        case (0xFF, 0xFE, _, _), (lt, 0x00, _, 0x00): return utf16(p, bigEndian: false)
        default: return String(decoding: p, as: UTF8.self)
        }
    }

    private static func utf16(_ p: [UInt8], bigEndian: Bool) -> String {
        let units = stride(from: 0, to: p.count - 1, by: 2).map { i -> UInt16 in
            let a = UInt16(p[i]), b = UInt16(p[i + 1])
            return bigEndian ? a << 8 | b : b << 8 | a
        }
        return String(decoding: units, as: UTF16.self)  // a BOM stays as U+FEFF, removed by the caller
    }

    private static func utf32(_ p: [UInt8], bigEndian: Bool) -> String {
        let scalars = stride(from: 0, to: p.count - 3, by: 4).map { i -> Unicode.Scalar in
            let b = bigEndian ? p[i..<i + 4].map { UInt32($0) } : p[i..<i + 4].reversed().map { UInt32($0) }
            return Unicode.Scalar(b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]) ?? "\u{FFFD}"
        }
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars)
        return String(s)
    }
}
