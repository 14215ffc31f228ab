import Foundation
import Hummingbird

/// The pages: stable paths (for bookmarks and tests), each the same shell with its own title;
/// the shell's script shows the screen the `shoebox-page` meta names.
struct PageRoutes {
    let app: WebApp

    /// Path, page name (the screen module), title.
    static let pages: [(String, String, String)] = [
        ("/", "library", "Library"),
        ("/albums", "albums", "Albums"),
        ("/people", "people", "People"),
        ("/trash", "trash", "Recently Deleted"),
        ("/tidy", "tidy", "Tidy"),
        ("/curate", "curate", "Curate"),
        ("/compose", "compose", "Compose"),
        ("/memories", "memories", "Memories"),
        ("/tracker", "tracker", "Tracker"),
    ]

    func add(to router: Router<WebContext>) {
        for (path, page, title) in Self.pages {
            router.get(RouterPath(path)) { _, _ in try shell(page: page, title: title) }
        }
        router.get("/asset/:id") { _, context in
            _ = try WebID.asset(context.parameters.require("id"))
            return try shell(page: "asset", title: "Photo")
        }
        router.get("/people/:id") { _, context in
            _ = try WebID.person(context.parameters.require("id"))
            return try shell(page: "person", title: "Person")
        }
        // A generated album's key is its path ("Years/2024"), hence the catch-all.
        router.get("/albums/**") { _, context in
            _ = try AlbumRoutes.key(context.parameters.getCatchAll())
            return try shell(page: "album", title: "Album")
        }
        router.get("/pair") { request, _ in try pair(request) }
    }

    func shell(page: String, title: String) throws -> Response {
        guard let file = app.files.file("app.html") else { throw WebError(.internalServerError, "app.html is missing from this build") }
        let html = String(decoding: file.bytes, as: UTF8.self)
            .replacingOccurrences(of: "{{title}}", with: "\(title) — Shoebox")
            .replacingOccurrences(of: "{{page}}", with: page)
            .replacingOccurrences(of: "{{token}}", with: app.policy.pageToken)
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// `/pair?token=T`: the one-time token for a session cookie, then the library.
    func pair(_ request: Request) throws -> Response {
        guard let token = request.uri.queryParameters.get("token"), let session = app.policy.pairing.redeem(token) else {
            throw WebError(.forbidden, "this pairing link is wrong, used already or expired: run `shoebox serve --lan` again for a new one", code: "not_paired")
        }
        var headers = HTTPFields()
        headers[.location] = "/"
        headers[.setCookie] = "\(PairingBook.cookieName)=\(session); Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000"
        return Response(status: .seeOther, headers: headers)
    }
}

/// `/static/…`: the embedded scripts, styles, fonts and icons. Code revalidates (`no-cache` with
/// an ETag: a new Shoebox is seen at once); fonts never change under a name.
struct StaticRoutes {
    let app: WebApp

    func add(to router: Router<WebContext>) {
        router.get("/static/**") { request, context in
            let path = context.parameters.getCatchAll().joined(separator: "/")
            guard !path.hasSuffix(".html"), let file = app.files.file(path) else {
                throw WebError(.notFound, "no file /static/\(path)", code: "not_found")
            }
            var headers = HTTPFields()
            headers[.eTag] = file.etag
            headers[.cacheControl] = path.hasPrefix("fonts/") ? "public, max-age=31536000, immutable" : "no-cache"
            if request.headers[.ifNoneMatch] == file.etag { return Response(status: .notModified, headers: headers) }
            headers[.contentType] = file.contentType
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
        }
    }
}
