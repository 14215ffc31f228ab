import Foundation
import Memories

/// What `/api/memories/…` reads from a request, checked before the module sees it: one source
/// (`year`, `place` or `person`, as `memories collage --year/--place/--person`), a range
/// preset and a seed.
enum MemoriesRequest {
    /// Longest place or person name taken (bytes of UTF-8): longer than any real one.
    static let maxNameBytes = 256

    /// The range of a query or body: `all` (also when absent), `last-year` or `last-5-years`.
    static func range(_ text: String?) throws -> MemoryRange {
        guard let text else { return .all }
        guard let range = MemoryRange(rawValue: text) else {
            throw WebError(.badRequest, "\"range\" must be \(MemoryRange.allCases.map(\.rawValue).joined(separator: ", ")), not \(text.debugDescription)",
                           code: "invalid_argument")
        }
        return range
    }

    /// The one source a collage body names.
    static func source(_ body: [String: Any]) throws -> MemorySource {
        let given = ["year", "place", "person"].filter { body[$0] != nil }
        guard given.count == 1 else {
            throw WebError(.badRequest, "name one source: \"year\", \"place\" or \"person\"", code: "invalid_argument")
        }
        switch given[0] {
        case "year":
            guard let text = number(body["year"]), let year = Int(text), (1...9999).contains(year) else {
                throw WebError(.badRequest, "\"year\" must be a year (1 to 9999)", code: "invalid_argument")
            }
            return .year(year)
        case let key:
            let name = try self.name(body, key)
            return key == "place" ? .place(name) : .person(name)
        }
    }

    /// A place's or person's name: a string with something besides spaces, no control character.
    static func name(_ body: [String: Any], _ key: String) throws -> String {
        guard let text = body[key] as? String else {
            throw WebError(.badRequest, "\"\(key)\" must be a string", code: "invalid_argument")
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.count <= maxNameBytes,
              !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw WebError(.badRequest, "\"\(key)\" must be a name of at most \(maxNameBytes) bytes, without control characters",
                           code: "invalid_argument")
        }
        return trimmed
    }

    /// The seed (default 1, as the CLI's): a whole number from 0 to 2^64 − 1, as a JSON number
    /// or a string of digits (a page's numbers are exact only up to 2^53).
    static func seed(_ body: [String: Any]) throws -> UInt64 {
        guard let value = body["seed"] else { return 1 }
        guard let text = (value as? String) ?? number(value), !text.isEmpty,
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let seed = UInt64(text) else {
            throw WebError(.badRequest, "\"seed\" must be a whole number from 0 to \(UInt64.max)", code: "invalid_argument")
        }
        return seed
    }

    /// A JSON number as its decimal text ("2019"; nil for anything else, booleans included).
    /// JSONSerialization gives `true` as an NSNumber of type `c` (a char); `is Bool` would not
    /// tell it apart, being true of every NSNumber 0 or 1.
    static func number(_ value: Any?) -> String? {
        guard let n = value as? NSNumber, String(cString: n.objCType) != "c" else { return nil }
        return n.stringValue
    }
}
