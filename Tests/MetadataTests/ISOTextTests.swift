import Foundation
import MetadataCore
import Testing

/// Dates in listings are written digit by digit (`ISOText`): every field as printf's `%0Nd`,
/// two-digit fields, years and offsets included, and a whole capture date at the edges of a day.
@Suite("ISO text")
struct ISOTextTests {
    @Test func paddedNumbersAreWhatPrintfWrites() {
        for width in [1, 2, 3, 4] {
            for n in [-1000, -99, -10, -9, -1, 0, 1, 7, 9, 10, 42, 59, 99, 100, 101, 999, 1000, 1969, 2026, 9999, 10000, 123_456] {
                var b: [UInt8] = []
                ISOText.appendPadded(n, width: width, to: &b)
                #expect(String(decoding: b, as: UTF8.self) == String(format: "%0\(width)d", n), "\(n) width \(width)")
            }
        }
    }

    @Test func captureDatesKeepTheirDigits() {
        let edges: [(TimeInterval, Int?, String)] = [
            (0, nil, "1970-01-01T00:00:00"),
            (1_700_000_000.25, 3600, "2023-11-14T23:13:20.250+01:00"),
            (1_704_067_199, -34200, "2023-12-31T14:29:59-09:30"),
            (946_684_800.5, 0, "2000-01-01T00:00:00.500+00:00"),
        ]
        for (t, offset, text) in edges {
            let date = CaptureDate(date: Date(timeIntervalSince1970: t), utcOffsetSeconds: offset, source: .exif)
            #expect(date.iso8601 == text)
        }
    }
}
