import Foundation
import Hummingbird
import PhotoLibrary

/// Albums: user albums (create, add, remove, reorder, delete) and the generated ones (years,
/// places, people, screenshots, videos), on the same AlbumLinker calls as `album`. An album's key
/// is its folder under `Albums/` ("Trip", "Years/2024").
struct AlbumRoutes {
    let app: WebApp

    /// A key from the URL, checked: folder names only — no empty, `.` or `..` part, no NUL or
    /// backslash. The router hands path segments as sent ("Beach%20days", "Years%2F2024"): each
    /// is decoded once, and the key is the folders they name.
    static func key(_ encoded: [Substring]) throws -> String {
        let decoded = encoded.map { $0.removingPercentEncoding }
        let path = decoded.compactMap { $0 }.joined(separator: "/")
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard decoded.allSatisfy({ $0 != nil }), !parts.isEmpty, parts.count <= 4,
              parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\0") && !$0.contains("\\") && $0.utf8.count <= 255 }) else {
            throw WebError(.badRequest, "not an album: \(encoded.joined(separator: "/").debugDescription)", code: "invalid_argument")
        }
        return path
    }

    /// The album a key names (user album id, name or folder; generated path or title), or 404.
    static func find(_ key: String, in session: LibrarySession) throws -> AlbumFolder {
        try session.read { index in
            try AlbumLinker(library: session.library, index: index)
                .find(UserAlbums(library: session.library).all().first { $0.id == key }?.name ?? key)
        }
    }

    func add(to router: Router<WebContext>) {
        router.get("/api/albums") { _, _ in
            let session = app.session
            let albums = try await Blocking.run { try session.read { try AlbumLinker(library: session.library, index: $0).summaries() } }
            return try JSONBody.response(object: try albums.map { try Self.withKey(JSONBody.object(AlbumSummaryJSON($0)), $0) })
        }
        router.post("/api/albums") { request, context in
            let body = try await JSONBody.decode(request, context: context)
            let name = try JSONBody.string(body, "name")
            let ids = (body["ids"] as? [Any])?.isEmpty ?? true ? [] : try JSONBody.ids(body)
            return try await change { linker in _ = try linker.create(name: name, ids: ids); return name }
        }
        // POST /api/albums/KEY/ACTION (one trie entry: Hummingbird takes `:album/:action` and
        // the GET's catch-all for one route).
        router.post("/api/albums/**") { request, context in
            let parts = context.parameters.getCatchAll()
            guard parts.count >= 2 else { throw WebError(.notFound, "POST /api/albums/KEY/add|remove|order|delete", code: "not_found") }
            let key = try Self.key(Array(parts.dropLast()))
            let action = String(parts.last!)
            let body = action == "delete" ? [:] : try await JSONBody.decode(request, context: context)
            switch action {
            case "add", "remove", "order":
                let ids = try JSONBody.ids(body)
                let library = app.session.library
                return try await change { linker in
                    let name = try Self.userAlbumName(key, linker, library)
                    switch action {
                    case "add": _ = try linker.add(to: name, ids: ids)
                    case "remove": _ = try linker.remove(from: name, ids: ids)
                    default: _ = try linker.order(name, first: ids)
                    }
                    return name
                }
            case "delete":
                let session = app.session
                let deleted = try await Blocking.run { () throws -> UserAlbum in
                    try session.write { w in
                        let linker = AlbumLinker(library: w.library, index: w.index)
                        return try linker.delete(try Self.userAlbumName(key, linker, w.library)).0
                    }
                }
                return try JSONBody.response(AlbumSummaryJSON(deleted))
            default: throw WebError(.notFound, "no album action \(action.debugDescription)", code: "not_found")
            }
        }
        router.get("/api/albums/**") { _, context in
            let key = try Self.key(context.parameters.getCatchAll())
            let session = app.session
            let album = try await Blocking.run { try Self.find(key, in: session) }
            return try JSONBody.response(object: Self.withKey(try JSONBody.object(AlbumJSON(album)), album))
        }
    }

    /// A user-album change under the writer lock; the album as it now is (`album show`'s shape).
    func change(_ body: @escaping @Sendable (AlbumLinker) throws -> String) async throws -> Response {
        let session = app.session
        let album = try await Blocking.run { () throws -> AlbumFolder in
            try session.write { w in
                let linker = AlbumLinker(library: w.library, index: w.index)
                return try linker.find(try body(linker))
            }
        }
        return try JSONBody.response(object: Self.withKey(try JSONBody.object(AlbumJSON(album)), album))
    }

    /// The user album a key names: its id, its name or its folder.
    static func userAlbumName(_ key: String, _ linker: AlbumLinker, _ library: Library) throws -> String {
        if let byID = UserAlbums(library: library).all().first(where: { $0.id == key }) { return byID.name }
        return try linker.userAlbum(key).name
    }

    /// `key` (what URLs take) and `cover` (the first photo's id, for a card) beside the CLI's fields.
    static func withKey(_ object: [String: Any], _ album: AlbumFolder) -> [String: Any] {
        withKey(object, path: album.path, cover: album.entries.first?.id)
    }

    static func withKey(_ object: [String: Any], _ album: AlbumSummary) -> [String: Any] {
        withKey(object, path: album.path, cover: album.cover)
    }

    private static func withKey(_ object: [String: Any], path: String, cover: AssetID?) -> [String: Any] {
        var object = object
        object["key"] = path
        object["cover"] = cover?.rawValue ?? NSNull()
        return object
    }
}
