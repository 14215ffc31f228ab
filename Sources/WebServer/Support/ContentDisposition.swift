import Foundation

/// `Content-Disposition: attachment` for a file name of any script: an ASCII `filename` (quotes,
/// backslashes and control characters replaced) for old clients, and the exact name as RFC 5987
/// `filename*` (UTF-8, percent-encoded) for the rest.
enum ContentDisposition {
    static func attachment(_ name: String) -> String {
        let ascii = String(name.unicodeScalars.map { $0.isASCII && $0 != "\"" && $0 != "\\" && $0.value >= 32 && $0.value != 127 ? Character($0) : "_" })
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ascii
        return "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }
}
