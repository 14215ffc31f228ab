import Foundation

/// A query string as a form sends it (`application/x-www-form-urlencoded`: `+` is a space, then
/// percent-decoding) — what `URLSearchParams` writes. Hummingbird's own decoding leaves `+` as is,
/// so "Reykjavík, Iceland" from a page would match nothing.
enum FormQuery {
    static func parse(_ raw: String?) -> [String: String] {
        var out: [String: String] = [:]
        for pair in (raw ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String? { s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let key = decode(parts[0]), out[key] == nil else { continue }
            out[key] = parts.count > 1 ? decode(parts[1]) ?? "" : ""
        }
        return out
    }
}
