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
        ("/tidy/trash", "tidy", "Marked for deletion — Tidy"),
        ("/tidy/maybes", "tidy", "Maybe pile — Tidy"),
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
            let key = try AlbumRoutes.key(context.parameters.getCatchAll())
            let session = app.session
            let album = try await Blocking.run { try AlbumRoutes.find(key, in: session) }
            return try shell(page: "album", title: album.title)
        }
        router.get("/pair") { request, _ in try pair(request) }
    }

    func shell(page: String, title: String) throws -> Response {
        guard let file = app.files.file("app.html") else { throw WebError(.internalServerError, "app.html is missing from this build") }
        let html = String(decoding: file.bytes, as: UTF8.self)
            .replacingOccurrences(of: "\"/static/", with: "\"\(staticPrefix)")
            .replacingOccurrences(of: "</head>", with: modulePreloads(page) + "</head>")
            .replacingOccurrences(of: "{{title}}", with: "\(title) — Shoebox")
            .replacingOccurrences(of: "{{page}}", with: page)
            .replacingOccurrences(of: "{{token}}", with: app.policy.pageToken)
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// `/static/v-VERSION/` for the built-in files (kept by the browser for ever: a new build has
    /// a new version), `/static/` for a folder's. The pages' imports and stylesheets are relative,
    /// so everything they load comes under the same prefix.
    var staticPrefix: String { app.files.version.map { "/static/v-\($0)/" } ?? "/static/" }

    /// The page's script modules, asked for at once: without this the browser finds them one
    /// import level at a time, a round trip each (`ModuleGraph`).
    func modulePreloads(_ page: String) -> String {
        app.modules.modules(forPage: page).map { "<link rel=\"modulepreload\" href=\"\(staticPrefix)\($0)\">\n" }.joined()
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
            var parts = context.parameters.getCatchAll()
            // `v-VERSION/…`: this build's files, the same for ever under that name. Another
            // version (a page loaded before an upgrade) gets today's file, not cached for long.
            let versioned = parts.first.map { $0.hasPrefix("v-") } ?? false
            let current = versioned && parts.first == "v-\(app.files.version ?? "")"
            if versioned { parts.removeFirst() }
            let path = parts.joined(separator: "/")
            guard !path.hasSuffix(".html"), let file = app.files.file(path) else {
                throw WebError(.notFound, "no file /static/\(path)", code: "not_found")
            }
            var headers = HTTPFields()
            headers[.eTag] = file.etag
            headers[.cacheControl] = current || path.hasPrefix("fonts/") ? "public, max-age=31536000, immutable" : "no-cache"
            if request.headers[.ifNoneMatch] == file.etag { return Response(status: .notModified, headers: headers) }
            headers[.contentType] = file.contentType
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
        }
    }
}
