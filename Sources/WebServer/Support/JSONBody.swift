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
