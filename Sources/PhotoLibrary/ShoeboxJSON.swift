import Foundation

/// The JSON coding of everything Shoebox stores (sidecars, the index's JSON columns).
/// Dates are ISO 8601 in UTC with milliseconds: readable in a sidecar, and coded the same way
/// everywhere, so a date read back from a sidecar equals the one read back from the index.
enum ShoeboxJSON {
    static func makeEncoder(pretty: Bool) -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .custom { date, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(formatter().string(from: date))
        }
        return e
    }

    static func makeDecoder() -> JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .custom { decoder in
            let c = try decoder.singleValueContainer()
            let text = try c.decode(String.self)
            if let date = formatter().date(from: text) ?? ShoeboxClock.parseISO8601(text) { return date }
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not an ISO 8601 date: \(text)")
        }
        return d
    }

    /// ISO8601DateFormatter is not thread-safe to share; one per call is cheap next to file I/O.
    private static func formatter() -> ISO8601DateFormatter {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }
}
