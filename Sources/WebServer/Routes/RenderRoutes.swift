import Foundation
import Hummingbird

/// `/media/render/TOKEN.EXT[?download=1]`: a render kept in memory (`RenderCache`) — the
/// composer's story, a memory's collage — in the rendition EXT names (`jpg` to show, `heic` to
/// keep). `download=1` adds `Content-Disposition: attachment` with the render's own name. Sent
/// `no-store`: nothing of an unsaved render is kept on disk, not even in the browser's cache.
struct RenderRoutes {
    let app: WebApp

    func add(to router: Router<WebContext>) {
        router.get("/media/render/:file") { request, context in
            let (token, ext) = try Self.parse(try context.parameters.require("file"))
            guard let rendition = app.renders.rendition(token, ext: ext) else {
                let why = app.renders.contains(token) ? "has no .\(ext) rendition" : "is no longer held (the server keeps the last few, until it stops): make it again"
                throw WebError(.notFound, "render \(token) \(why)", code: "not_found")
            }
            var headers = HTTPFields()
            headers[.contentType] = rendition.contentType
            headers[.cacheControl] = "no-store"
            headers[.contentLength] = String(rendition.bytes.count)
            if request.uri.queryParameters.get("download") == "1" {
                headers[.contentDisposition] = ContentDisposition.attachment(rendition.filename)
            }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: rendition.bytes)))
        }
    }

    /// `TOKEN.EXT` of the URL: a checked token and a short lower-case extension.
    static func parse(_ file: String) throws -> (token: String, ext: String) {
        let parts = file.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...5).contains(parts[1].utf8.count),
              parts[1].utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) }) else {
            throw WebError(.badRequest, "a render is TOKEN.jpg or TOKEN.heic, not \(String(file.prefix(80)).debugDescription)", code: "invalid_argument")
        }
        return (try RenderCache.token(String(parts[0])), String(parts[1]))
    }
}
