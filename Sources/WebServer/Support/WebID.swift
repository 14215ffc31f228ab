import Foundation
import PhotoLibrary

/// Ids taken from URLs and bodies, checked before anything looks them up: an asset id is a UUID
/// and nothing else, so no path, `..` or NUL ever reaches the index or the file layer.
enum WebID {
    /// Only the canonical shape (8-4-4-4-12 hex digits): Foundation's UUID(uuidString:) on Linux also
    /// reads a space, "+" or "-" where a digit belongs ("8d-33bb3-…" is 8dfd3bb3-…), so one asset
    /// would answer to many spellings.
    static func asset(_ text: String) throws -> AssetID {
        let u = Array(text.utf8)
        let shaped = u.count == 36 && u.indices.allSatisfy { i in
            [8, 13, 18, 23].contains(i) ? u[i] == UInt8(ascii: "-") : Character(Unicode.Scalar(u[i])).isHexDigit
        }
        guard shaped, let id = AssetID(text) else {
            throw WebError(.badRequest, "not an asset id: \(text.debugDescription)", code: "invalid_argument")
        }
        return id
    }

    /// A person id as `people` gives them (`p12`): ASCII digits only (`isNumber` would let "p١٢"
    /// or "p½" through).
    static func person(_ text: String) throws -> String {
        let digits = text.utf8.dropFirst()
        guard text.utf8.first == UInt8(ascii: "p"), (1...39).contains(digits.count),
              digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw WebError(.badRequest, "not a person id: \(text.debugDescription)", code: "invalid_argument")
        }
        return text
    }

    /// A face id `ASSETID#n`.
    static func face(_ text: String) throws -> String {
        let parts = text.split(separator: "#", omittingEmptySubsequences: false)
        guard parts.count == 2, (try? asset(String(parts[0]))) != nil, let n = Int(parts[1]), n >= 1, n < 10_000 else {
            throw WebError(.badRequest, "not a face id: \(text.debugDescription)", code: "invalid_argument")
        }
        return text
    }
}
