import Foundation
import Hummingbird
import PhotoLibrary

/// A failure put into an HTTP response: a status and one line, as `{"error", "code"}` for the API
/// and as text for pages and media. Library errors keep their own words; the code says the kind.
public struct WebError: Error, HTTPResponseError, Sendable {
    public let status: HTTPResponse.Status
    public let message: String
    /// snake_case of `ShoeboxError.Code` (or a web-only one such as `forbidden`).
    public let code: String
    /// The field of the request's body the refused value was given for (a form marks that input
    /// and shows the message beside it), when the feature says which; sent as `"field"`.
    public var field: String?

    public init(_ status: HTTPResponse.Status, _ message: String, code: String? = nil, field: String? = nil) {
        self.status = status
        self.message = message
        self.code = code ?? Self.snake(status.reasonPhrase)
        self.field = field
    }

    /// The response a library error gets: missing things 404, bad input 400, a busy library 409…
    public init(_ error: ShoeboxError) {
        let status: HTTPResponse.Status = switch error.code {
        case .notFound: .notFound
        case .invalidArgument, .ambiguous: .badRequest
        case .locked, .alreadyExists, .fileChanged: .conflict
        case .readOnly, .noSpace: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
        case .unreadable: .forbidden
        default: .internalServerError
        }
        self.init(status, error.description, code: Self.snake(String(describing: error.code)))
    }

    /// Any error from a route: library errors by their code, anything else a 500 with its words.
    static func from(_ error: any Error) -> WebError {
        if let e = error as? WebError { return e }
        if let e = error as? ShoeboxError { return WebError(e) }
        if let e = error as? any HTTPResponseError { return WebError(e.status, "\(e.status.reasonPhrase)") }
        return WebError(.internalServerError, String(describing: error), code: "internal")
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let wantsJSON = request.uri.path.hasPrefix("/api/")
        var headers = HTTPFields()
        let body: String
        if wantsJSON {
            headers[.contentType] = "application/json; charset=utf-8"
            var object = ["error": message, "code": code]
            if let field { object["field"] = field }
            body = String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data(), as: UTF8.self)
        } else {
            headers[.contentType] = "text/plain; charset=utf-8"
            body = message + "\n"
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    static func snake(_ text: String) -> String {
        var out = ""
        for ch in text {
            if ch.isUppercase { if !out.isEmpty { out += "_" }; out += ch.lowercased() } else if ch == " " || ch == "-" { out += "_" } else { out.append(ch) }
        }
        return out.replacingOccurrences(of: "__", with: "_")
    }
}
