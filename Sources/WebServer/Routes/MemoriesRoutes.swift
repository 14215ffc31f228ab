import Analysis
import Foundation
import Hummingbird
import Memories
import PhotoLibrary

/// Memories (brief 003) in the browser: the same entry points `shoebox memories …` calls,
/// answering in its `--json` shapes. A collage is made in memory, its JPEG kept under a render
/// token (`/media/render/TOKEN.jpg`) and saved into `Collages/` only when the page asks.
struct MemoriesRoutes {
    let app: WebApp
    /// The collages a page may still save (their JPEG is the render cache's, shared).
    let collages = CollageRenders(capacity: 12)

    func add(to router: Router<WebContext>) {
        router.get("/api/memories/sources") { request, _ in
            let range = try MemoriesRequest.range(request.uri.queryParameters.get("range"))
            let session = app.session
            return try await Blocking.run {
                try JSONBody.response(object: try Self.sources(Memories(session: session).sources(range: range), range: range, session: session))
            }
        }
        router.post("/api/memories/collage") { request, context in
            let body = try await JSONBody.decode(request, context: context)
            let source = try MemoriesRequest.source(body)
            let range = try MemoriesRequest.range(try body["range"].map { _ in try JSONBody.string(body, "range") })
            let seed = try MemoriesRequest.seed(body)
            let session = app.session
            let collage = try await Blocking.run { try Memories(session: session).collage(of: source, range: range, seed: seed) }
            let name = Self.fileName(collage)
            let token = app.renders.put([.init(bytes: collage.jpeg, contentType: "image/jpeg", filename: name)],
                                        sources: collage.cells.map(\.asset.id.rawValue))
            collages.keep(collage, as: token)
            var object = try JSONBody.object(CollageJSON(collage, path: nil, savedID: nil))
            object["render"] = token
            object["url"] = "/media/render/\(token).jpg"
            object["name"] = name
            object["width"] = CollageLayout().width
            object["height"] = CollageLayout().height
            return try JSONBody.response(object: object)
        }
        router.post("/api/memories/save") { request, context in
            let token = try RenderCache.token(try JSONBody.string(try await JSONBody.decode(request, context: context), "render"))
            let session = app.session
            let collages = self.collages
            return try await Blocking.run {
                guard let saved = try collages.save(token, stillThere: { id in try session.read { try $0.asset(id: id) } != nil },
                                                    save: { try Memories(session: session).save($0) }) else {
                    throw WebError(.notFound, "that collage is no longer kept (the server keeps the last \(collages.capacity)): make it again",
                                   code: "not_found")
                }
                var object = try JSONBody.object(CollageJSON(saved.collage, path: saved.path, savedID: saved.id))
                guard let asset = try session.read({ try $0.asset(id: saved.id) }) else {
                    throw WebError(.notFound, "\(saved.path) was saved but is no longer in the library", code: "not_found")
                }
                object["asset"] = try JSONBody.object(AssetJSON(asset, liveVideo: nil))
                object["already_saved"] = saved.again
                if !saved.again { SavedPhotoAnalysis.start(saved.id, in: session) }
                return try JSONBody.response(object: object)
            }
        }
    }

    /// `memories sources --json`, each person with the face `/people` shows for them (`face`:
    /// `{id, asset_id, x, y, w, h}` as `people list --json`; null if the person has none left).
    static func sources(_ sources: MemorySources, range: MemoryRange, session: LibrarySession) throws -> [String: Any] {
        var object = try JSONBody.object(MemorySourcesJSON(sources, range: range))
        guard !sources.people.isEmpty else { return object }
        let faces = Dictionary(try People.list(session).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        object["people"] = try (object["people"] as? [[String: Any]] ?? []).map { person in
            var person = person
            let known = (person["id"] as? String).flatMap { faces[$0] }
            person["face"] = try known.map { try JSONBody.object(PersonJSON($0))["face"] ?? NSNull() } ?? NSNull()
            return person
        }
        return object
    }

    /// What a download of the render is called: "Ana, seed 7.jpg" (no "/", no leading dot).
    static func fileName(_ collage: Collage) -> String {
        var label = String(collage.source.label.map { $0 == "/" || $0 == "\\" || $0.isNewline || $0 == "\0" ? "-" : $0 }.prefix(100))
        while label.hasPrefix(".") { label.removeFirst() }
        return (label.isEmpty ? "Memory" : label) + ", seed \(collage.seed).jpg"
    }
}
