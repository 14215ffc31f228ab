import Foundation
import Hummingbird
import PhotoLibrary

/// JSON in and out of the API: the CLI's `--json` shapes (the same encoder, so a page and a
/// script read the same document), compact here.
enum JSONBody {
    static func response<Shape: PublicJSONShape>(_ shape: Shape, status: HTTPResponse.Status = .ok) throws -> Response {
        response(data: try ShoeboxJSON.document(shape), status: status)
    }

    static func response(object: Any, status: HTTPResponse.Status = .ok) throws -> Response {
        response(data: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]), status: status)
    }

    static func response(data: Data, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A shape as a dictionary, to add what only the web needs (an album's `key`).
    static func object<Shape: PublicJSONShape>(_ shape: Shape) throws -> [String: Any] {
        (try JSONSerialization.jsonObject(with: try ShoeboxJSON.document(shape)) as? [String: Any]) ?? [:]
    }

    static func objects<Shape: PublicJSONShape>(_ shapes: [Shape]) throws -> [[String: Any]] {
        (try JSONSerialization.jsonObject(with: try ShoeboxJSON.document(shapes)) as? [[String: Any]]) ?? []
    }

    /// The request's JSON object (at most `WebContext.maxUploadSize` bytes).
    static func decode(_ request: Request, context: WebContext) async throws -> [String: Any] {
        try parse(Data(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
    }

    /// A body's bytes as a JSON object (apart from `decode` for the fuzz target, Fuzz/Targets/WebRequest.swift).
    static func parse(_ data: Data) throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw WebError(.badRequest, "the request's body is not a JSON object", code: "invalid_argument")
        }
        return object
    }

    /// `ids` of a JSON body: asset ids, each checked (a UUID), at least one.
    static func ids(_ object: [String: Any], key: String = "ids") throws -> [AssetID] {
        guard let list = object[key] as? [String], !list.isEmpty else {
            throw WebError(.badRequest, "\"\(key)\" must be a non-empty array of asset ids", code: "invalid_argument")
        }
        return try list.map(WebID.asset)
    }

    static func string(_ object: [String: Any], _ key: String) throws -> String {
        guard let s = object[key] as? String else {
            throw WebError(.badRequest, "\"\(key)\" must be a string", code: "invalid_argument")
        }
        return s
    }
}

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
