import Foundation
import Hummingbird
import PhotoLibrary

/// What every route shares: the session (the same entry points as the CLI), the page files, who
/// may connect, the live events and the previews made lately.
final class WebApp: Sendable {
    let session: LibrarySession
    let files: WebFiles
    let policy: AccessPolicy
    let events: LiveEvents
    let previews = PreviewCache(capacity: 8)
    /// Stories and collages made and not saved (served at /media/render/, saved only on request).
    let renders = RenderCache()
    let grids = GridCache()
    let modules: ModuleGraph
    /// Largest upload accepted, in bytes.
    let uploadLimit: Int64

    init(session: LibrarySession, files: WebFiles, policy: AccessPolicy, events: LiveEvents, uploadLimit: Int64) {
        self.session = session
        self.files = files
        modules = ModuleGraph(files: files)
        self.policy = policy
        self.events = events
        self.uploadLimit = uploadLimit
    }

    /// The asset `text` names (a checked id), or 404.
    func asset(_ text: String) async throws -> Asset {
        let id = try WebID.asset(text)
        let session = self.session
        guard let asset = try await Blocking.run({ try session.read { try $0.asset(id: id) } }) else {
            throw WebError(.notFound, "no asset \(id)", code: "not_found")
        }
        return asset
    }

    /// The grid document of `query` (`key`: its canonical query string) at the index's present
    /// generation, from the cache when it is that generation's.
    func gridDocument(_ key: String, _ query: AssetQuery) throws -> Data {
        try session.read { index in
            let generation = try index.generation()
            if let cached = grids.document(key, generation: generation) { return cached }
            let document = LibraryRoutes.gridDocument(generation: generation, rows: try index.gridRows(matching: query))
            grids.store(key, generation: generation, document: document)
            return document
        }
    }

    /// Every route of the app, behind the access policy.
    func router() -> Router<WebContext> {
        let router = Router(context: WebContext.self)
        router.add(middleware: AccessMiddleware(policy: policy))
        PageRoutes(app: self).add(to: router)
        StaticRoutes(app: self).add(to: router)
        MediaRoutes(app: self).add(to: router)
        LibraryRoutes(app: self).add(to: router)
        TrashRoutes(app: self).add(to: router)
        AlbumRoutes(app: self).add(to: router)
        PeopleRoutes(app: self).add(to: router)
        ComposerRoutes(app: self).add(to: router)
        RenderRoutes(app: self).add(to: router)
        TidyRoutes(app: self).add(to: router)
        CurationRoutes(app: self).add(to: router)
        TrackerRoutes(app: self).add(to: router)
        MemoriesRoutes(app: self).add(to: router)
        UploadRoutes(app: self).add(to: router)
        EventRoutes(app: self).add(to: router)
        return router
    }
}
