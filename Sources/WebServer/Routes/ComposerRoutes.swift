import Analysis
import Composer
import Foundation
import Hummingbird
import PhotoLibrary

/// The composer (brief 001) in the browser: the entry points `shoebox compose …` calls, answering
/// in its `--json` shapes — the draft as `compose list --json` prints it after every change — plus
/// what only the web needs: `export` keeps the story in memory (`RenderCache`) and answers with
/// its token and addresses; `save` puts a kept story into the library, only when asked.
struct ComposerRoutes {
    let app: WebApp

    func add(to router: Router<WebContext>) {
        router.get("/api/composer") { _, _ in
            let session = app.session
            return try await draft { try Composer.list(session, note: session.log) }
        }
        router.post("/api/composer/add") { request, context in
            let ids = try JSONBody.ids(try await JSONBody.decode(request, context: context))
            return try await change { composer, draft in
                _ = try draft.add(try ids.map { try composer.photo($0.rawValue).id })
            }
        }
        router.post("/api/composer/move") { request, context in
            let body = try await JSONBody.decode(request, context: context)
            let (from, to) = (try Self.position(body, "from"), try Self.position(body, "to"))
            return try await change { _, draft in try draft.move(from: from, to: to) }
        }
        router.post("/api/composer/replace") { request, context in
            let body = try await JSONBody.decode(request, context: context)
            let position = try Self.position(body, "position")
            let id = try WebID.asset(try JSONBody.string(body, "id"))
            return try await change { composer, draft in
                try draft.check(position)
                try draft.replace(at: position, with: try composer.photo(id.rawValue).id)
            }
        }
        router.post("/api/composer/remove") { request, context in
            let position = try Self.position(try await JSONBody.decode(request, context: context), "position")
            return try await change { _, draft in _ = try draft.remove(at: position) }
        }
        router.post("/api/composer/clear") { _, _ in
            let session = app.session
            return try await draft { try Composer.clear(session); return [] }
        }
        router.post("/api/composer/export") { _, _ in try await export() }
        router.post("/api/composer/save") { request, context in
            let token = try RenderCache.token(try JSONBody.string(try await JSONBody.decode(request, context: context), "render"))
            return try await save(token)
        }
    }

    /// `compose list --json`'s array of what `body` returns.
    func draft(_ body: @escaping @Sendable () throws -> [ComposerEntry]) async throws -> Response {
        let entries = try await Blocking.run(body)
        return try JSONBody.response(entries.map(ComposerItemJSON.init))
    }

    /// A change of the draft under the writer lock (`Composer.change`), answered with the draft.
    func change(_ body: @escaping @Sendable (Composer, inout ComposerDraft) throws -> Void) async throws -> Response {
        let session = app.session
        return try await draft { try Composer.change(session, note: session.log, body) }
    }

    /// `compose export --json`'s shape (`file` and `saved` null: nothing is written) plus `render`
    /// (the token), `jpeg` and `heic` (its addresses) and `name` (what a download or a save is
    /// called). The draft is cleared, as the command clears it.
    func export() async throws -> Response {
        let session = app.session
        let story = try await Blocking.run { try StoryExport.render(session, note: session.log) }
        let ids = story.entries.map(\.asset.id)
        let jpegName = (story.name as NSString).deletingPathExtension + ".jpg"
        let token = app.renders.put([
            .init(bytes: story.jpeg, contentType: "image/jpeg", filename: jpegName),
            .init(bytes: story.heic, contentType: "image/heic", filename: story.name),
        ], sources: ids.map(\.rawValue))
        let shape = ComposeExportJSON(file: nil, saved: nil, size: story.heic.count, photos: ids)
        return try JSONBody.response(object: try Self.adding(token: token, name: story.name, to: JSONBody.object(shape)))
    }

    /// Saves the story `token` holds as `compose export --save` would (`Collages/`, indexed);
    /// answers `compose export --save --json`'s shape plus the render's fields. The same token
    /// saved again answers the photo already saved, while it is in the library.
    func save(_ token: String) async throws -> Response {
        guard let heic = app.renders.rendition(token, ext: "heic") else {
            throw WebError(.notFound, "this story is no longer held by the server (it keeps the last few, until it stops): export it again", code: "not_found")
        }
        let (session, renders) = (app.session, app.renders)
        let asset = try await Blocking.run { () throws -> Asset in
            if let id = renders.saved(token).flatMap({ AssetID($0) }), let done = try session.read({ try $0.asset(id: id) }), done.state == .present {
                return done
            }
            let saved = try StoryExport.save(session, heic: heic.bytes, named: heic.filename)
            renders.markSaved(token, as: saved.id.rawValue)
            SavedPhotoAnalysis.start(saved.id, in: session)
            return saved
        }
        let photos = renders.sources(token).compactMap { AssetID($0) }
        let shape = ComposeExportJSON(file: nil, saved: asset, size: heic.bytes.count, photos: photos)
        return try JSONBody.response(object: try Self.adding(token: token, name: heic.filename, to: JSONBody.object(shape)))
    }

    static func adding(token: String, name: String, to object: [String: Any]) -> [String: Any] {
        var object = object
        object["render"] = token
        object["jpeg"] = "/media/render/\(token).jpg"
        object["heic"] = "/media/render/\(token).heic"
        object["name"] = name
        return object
    }

    /// A position of a body (`from`, `to`, `position`): a whole JSON number, as `compose list`
    /// counts them (whether the draft has it is the composer's to say, in its words).
    static func position(_ object: [String: Any], _ key: String) throws -> Int {
        let bad = WebError(.badRequest, "\"\(key)\" must be a position in the draft: a whole number from 1", code: "invalid_argument")
        // A JSON true is an NSNumber too (its type "c"); 2.5 and 1e300 are not positions.
        guard let n = object[key] as? NSNumber, String(cString: n.objCType) != "c" else { throw bad }
        let d = n.doubleValue
        guard d.isFinite, d.rounded() == d, abs(d) <= 1_000_000 else { throw bad }
        return Int(d)
    }
}
