import Curation
import Foundation
import Hummingbird
import PhotoLibrary

/// Curation (brief 000) in the browser: the entry points `shoebox curate …` calls, answering in
/// `curate list --json`'s shape (each item also says `scoring`: the server is analysing it for
/// this list now), plus what only the web needs — the files a share gives, for the share
/// sheet, and the share itself as a download (CurationShareDownload).
struct CurationRoutes {
    let app: WebApp

    func add(to router: Router<WebContext>) {
        let scoring = CurationScoring(session: app.session)
        let session = app.session
        /// The list after `body` ran (on the blocking pool), as the page reads it.
        @Sendable func list(_ body: @escaping @Sendable () throws -> [CurationEntry]) async throws -> Response {
            try await Blocking.run { try Self.list(try body(), scoring: scoring) }
        }

        router.get("/api/curation") { _, _ in try await list { try Curation.list(session) } }
        router.post("/api/curation/add") { request, context in
            let ids = try JSONBody.ids(try await JSONBody.decode(request, context: context))
            return try await list {
                // Added at once, scored meanwhile: the page shows which are still being scored. (Any
                // photo of the list not analysed yet: also one a Live Photo's movie stood for, or one
                // `curate add` left unscored.)
                let entries = try Curation.add(session, ids.map(\.rawValue), waitingForScores: { _ in }).entries
                scoring.score(entries)
                return entries
            }
        }
        router.post("/api/curation/select") { request, context in
            let ids = try JSONBody.ids(try await JSONBody.decode(request, context: context))
            return try await list { try Curation.change(session, .select(ids.map(\.rawValue))).entries }
        }
        router.post("/api/curation/deselect") { request, context in
            let ids = try JSONBody.ids(try await JSONBody.decode(request, context: context))
            return try await list { try Curation.change(session, .deselect(ids.map(\.rawValue))).entries }
        }
        router.post("/api/curation/top") { request, context in
            let count = try Self.count(try await JSONBody.decode(request, context: context))
            return try await list { try Curation.change(session, .top(count)).entries }
        }
        router.post("/api/curation/remove") { _, _ in
            try await list { try Curation.change(session, .removeSelected).entries }
        }
        router.post("/api/curation/clear") { _, _ in
            try await list {
                _ = try Curation.clear(session)
                return []
            }
        }
        router.post("/api/curation/album") { _, _ in
            try await Blocking.run {
                let (album, _) = try Curation.album(session)
                return try JSONBody.response(object: AlbumRoutes.withKey(try JSONBody.object(AlbumJSON(album)), album), status: .created)
            }
        }
        router.get("/api/curation/share") { _, _ in
            try await Blocking.run {
                let files = try Curation.sharedFiles(session).map { f -> [String: Any] in
                    ["id": f.asset.id.rawValue, "name": f.name, "size": f.asset.size, "companion": f.isCompanion,
                     "url": "/media/original/\(f.asset.id.rawValue)"]
                }
                return try JSONBody.response(object: ["files": files])
            }
        }
        router.get("/media/curation/share") { request, _ in
            try await CurationShareDownload(app: app).response(request)
        }
    }

    /// `curate list --json`'s array, each item with `scoring`.
    static func list(_ entries: [CurationEntry], scoring: CurationScoring) throws -> Response {
        let busy = scoring.scoring(entries.map(\.asset.id))
        var items = try JSONBody.objects(entries.map(CurationItemJSON.init))
        for i in items.indices {
            items[i]["scoring"] = busy.contains(entries[i].asset.id)
        }
        return try JSONBody.response(object: items)
    }

    /// `count` of a body: the n of `curate top n` (which of them Curation checks).
    static func count(_ body: [String: Any]) throws -> Int {
        guard !(body["count"] is String), let n = body["count"] as? Int else {
            throw WebError(.badRequest, "\"count\" must be 1, 5, 10 or 20", code: "invalid_argument")
        }
        return n
    }
}
