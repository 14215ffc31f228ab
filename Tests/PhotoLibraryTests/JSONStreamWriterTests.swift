import Foundation
@testable import PhotoLibrary
import Testing

/// `JSONStreamWriter` writes JSONEncoder's bytes for any Encodable a shape may hold: nesting,
/// key order, merged containers, nulls, numbers, escapes, dates (`--json` of every command goes
/// through it; `JSONStreamEndToEndTests` compares each command's output).
struct JSONStreamWriterTests {
    struct Inner: Encodable { var b: Int; var a: String?; var e: [Int] = []; var d: [String: Double] = [:] }

    /// Members out of key order, nulls written and left out, every number type, nesting.
    struct Mixed: Encodable {
        var zeta = "z"
        var alpha: Int? = nil
        var inner = Inner(b: 1, a: nil)
        var list: [Inner] = []
        var nested: [[Int]] = [[], [1, 2], []]
        var when = Date(timeIntervalSince1970: 1_700_000_000.123)
        var link = URL(string: "https://example.org/a b?c=d")!
        var floats: [Float] = [0.1, 1, -2.5, 3e10]
        var doubles: [Double] = [0, -0.0, 1e22, 1e-7, 0.1 + 0.2, 123456789.5, -1, 1.0e16]
        var ints: [Int8] = [-128, 127]
        var big: UInt64 = .max
        var small: Int64 = .min
        var flag = true
        var maybeInner: Inner? = nil
        var words = ["a\"b", "c\\d", "tab\there", "nl\n", "\u{1}\u{1f}", "é/🎉", ""]
        var empty: [String: Int] = [:]
        var byKey: [String: Int] = ["b": 2, "a": 1, "B": 3, "a_b": 4, "ab": 5, "é": 6, "a\"q": 7]

        enum CodingKeys: String, CodingKey {
            case zeta, alpha, inner, list, nested, when, link, floats, doubles, ints, big, small, flag, maybeInner, words, empty, byKey
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(zeta, forKey: .zeta)
            try c.encode(alpha, forKey: .alpha)  // null, written
            try c.encode(inner, forKey: .inner)
            try c.encode(list, forKey: .list)
            try c.encode(nested, forKey: .nested)
            try c.encode(when, forKey: .when)
            try c.encode(link, forKey: .link)
            try c.encode(floats, forKey: .floats)
            try c.encode(doubles, forKey: .doubles)
            try c.encode(ints, forKey: .ints)
            try c.encode(big, forKey: .big)
            try c.encode(small, forKey: .small)
            try c.encode(flag, forKey: .flag)
            try c.encodeIfPresent(maybeInner, forKey: .maybeInner)  // left out
            try c.encode(words, forKey: .words)
            try c.encode(empty, forKey: .empty)
            try c.encode(byKey, forKey: .byKey)
        }
    }

    /// Two containers for one value (as the tidy shape adds `decision` to an asset's members), and
    /// one key written twice (the last value stays, as in JSONEncoder).
    struct Merged: Encodable {
        enum First: String, CodingKey { case m, c }
        enum Second: String, CodingKey { case a, m }
        func encode(to encoder: any Encoder) throws {
            var one = encoder.container(keyedBy: First.self)
            try one.encode(1, forKey: .m)
            try one.encode("c", forKey: .c)
            var two = encoder.container(keyedBy: Second.self)
            try two.encode([Inner(b: 2, a: "x")], forKey: .a)
            try two.encode(2, forKey: .m)
        }
    }

    /// A value that stands for another (an enum of cases, an optional's payload).
    enum Either: Encodable {
        case one(Inner), two([Int])
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .one(let i): try c.encode(i)
            case .two(let l): try c.encode(l)
            }
        }
    }

    static func reference<T: Encodable>(_ v: T) throws -> [UInt8] { Array(try ShoeboxJSON.makeEncoder(pretty: true).encode(v)) }

    static func expectSame<T: Encodable>(_ v: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let streamed = try JSONStreamWriter.document(v)
        let reference = try Self.reference(v)
        #expect(String(decoding: streamed, as: UTF8.self) == String(decoding: reference, as: UTF8.self), sourceLocation: sourceLocation)
    }

    @Test func everyKindOfValueIsWrittenAsJSONEncoderWritesIt() throws {
        var m = Mixed()
        try Self.expectSame(m)
        m.alpha = 3
        m.maybeInner = Inner(b: -1, a: "set", e: [3], d: ["z": 1.5, "y": -0.25])
        m.list = [Inner(b: 0, a: nil), Inner(b: 1, a: "")]
        try Self.expectSame(m)
        try Self.expectSame([m, m])
        try Self.expectSame(Merged())
        try Self.expectSame([Either.one(Inner(b: 5, a: "q")), .two([]), .two([7])])
        try Self.expectSame([Either?.none, .some(.two([1]))])
        try Self.expectSame([String: [Inner]]())
        try Self.expectSame([Int]())
    }

    /// A long top-level array is handed out in pieces as it is written, never as one block.
    @Test func aLongArrayIsHandedOutInPieces() throws {
        let items = (0..<20_000).map { Inner(b: $0, a: "item \($0)", e: [$0], d: ["k": Double($0) / 3]) }
        var pieces: [Int] = []
        var out: [UInt8] = []
        let writer = JSONStreamWriter { pieces.append($0.count); out += $0 }
        try writer.write(items)
        writer.flush()
        #expect(out == (try Self.reference(items)))
        #expect(pieces.count > 10, "\(pieces.count) pieces")
        #expect(pieces.max()! < 1 << 17, "no piece much larger than the buffer: \(pieces.max()!)")
    }

    @Test func aNumberJSONCannotHoldIsAnError() {
        #expect(throws: EncodingError.self) { try JSONStreamWriter.document([Double.infinity]) }
        #expect(throws: EncodingError.self) { try JSONStreamWriter.document(["x": Float.nan]) }
    }
}

/// Issue 33: dates are written digit by digit; the bytes are what `String(format:)` wrote, for
/// every kind of instant a sidecar may hold (before 1970, years of one to five digits,
/// milliseconds that round up into the next second), and they read back.
@Suite struct DateTextTests {
    static func formatted(_ date: Date) -> String {
        let t = date.timeIntervalSince1970
        var seconds = Int(t.rounded(.down))
        var millis = Int(((t - Double(seconds)) * 1000).rounded())
        if millis >= 1000 { seconds += 1; millis -= 1000 }
        var tt = time_t(seconds)
        var tm = tm()
        gmtime_r(&tt, &tm)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1,
                      Int(tm.tm_mday), Int(tm.tm_hour), Int(tm.tm_min), Int(tm.tm_sec), millis)
    }

    @Test func datesAreWrittenAsStringFormatWroteThem() {
        var instants: [TimeInterval] = [0, -1, -0.0004, 0.9996, 1_764_300_000.123, 1_764_300_000.9999, -62_135_596_800,
                                        -62_167_219_200, -62_198_755_200, -30_610_224_000, 253_402_300_799.999, 253_402_300_800,
                                        32_503_680_000, -2_208_988_800]
        var state: UInt64 = 33
        for _ in 0..<5_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            instants.append(Double(Int64(bitPattern: state >> 1) % 400_000_000_000) / 100 - 1_000_000_000)
        }
        for t in instants {
            let date = Date(timeIntervalSince1970: t)
            let text = ShoeboxJSON.format(date)
            #expect(text == Self.formatted(date), "\(t)")
            // Read back whatever the year's width and sign (a Tidy session with "-2026-…" in it
            // decoded through Foundation's calendar to another day: Fuzz/run Tidy).
            #expect(ShoeboxJSON.parse(text).map { abs($0.timeIntervalSince1970 - t) <= 0.0005 + 1e-6 } == true, "\(t): \(text)")
            #expect(ShoeboxJSON.parse(text).map(ShoeboxJSON.format) == text, "\(t): \(text)")
        }
    }
}
