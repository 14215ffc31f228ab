import Foundation
import Hummingbird
import PhotoLibrary
import Tracker

/// The painting tracker (brief 002) in the browser: the entry points `shoebox tracker …` calls,
/// answering in its `--json` shapes — `/api/tracker/projects|minis|recipes|photos` mirror the
/// `project|mini|recipe|photo` subcommands (a removal is `… rm --json`'s). Every rule stays in
/// the Tracker module; a value it refuses for a field (an empty name, a game system it does not
/// know) comes back naming that field (`"field"`), for the page to mark the input.
/// Photos (upload, from the library, the pictures) are `TrackerPhotoRoutes`; the downloads
/// `TrackerExportRoute`.
struct TrackerRoutes {
    let app: WebApp

    /// The pages below /tracker: one screen (`js/screens/tracker.js`) whose view follows the path.
    static let pages: [(String, String)] = [
        ("/tracker/recipes", "Recipes — Tracker"),
        ("/tracker/recipes/new", "New recipe — Tracker"),
        ("/tracker/projects/:id", "Project — Tracker"),
        ("/tracker/minis/:id", "Miniature — Tracker"),
        ("/tracker/recipes/:id", "Recipe — Tracker"),
    ]

    func add(to router: Router<WebContext>) {
        for (path, title) in Self.pages {
            router.get(RouterPath(path)) { _, context in
                if let id = context.parameters.get("id") { _ = try WebID.tracker(id, "tracker record") }
                return try PageRoutes(app: app).shell(page: "tracker", title: title)
            }
        }
        addProjects(to: router)
        addMinis(to: router)
        addRecipes(to: router)
        TrackerPhotoRoutes(app: app).add(to: router)
        TrackerExportRoute(app: app).add(to: router)
    }

    func addProjects(to router: Router<WebContext>) {
        router.get("/api/tracker/projects") { _, _ in try await run { try JSONBody.response(try $0.projects()) } }
        router.post("/api/tracker/projects") { request, context in
            let body = try await JSONBody.decode(request, context: context)
            let system = try TrackerBody.string(body, "game_system")!, army = try TrackerBody.string(body, "army")!
            let name = try TrackerBody.string(body, "name", optional: true)
            return try await run { try JSONBody.response(try $0.addProject(gameSystem: system, army: army, name: name), status: .created) }
        }
        router.get("/api/tracker/projects/:id") { _, context in
            let id = try WebID.tracker(context.parameters.require("id"), "project")
            return try await run { try JSONBody.response(try $0.project(id).project) }
        }
        router.post("/api/tracker/projects/:id/update") { request, context in
            let id = try WebID.tracker(context.parameters.require("id"), "project")
            let body = try await JSONBody.decode(request, context: context)
            let army = try TrackerBody.string(body, "army", optional: true), name = try TrackerBody.string(body, "name", optional: true)
            try Self.requireChange(army, name, says: "\"army\" and/or \"name\"")
            return try await run { try JSONBody.response(try $0.updateProject(id, army: army, name: name)) }
        }
        router.post("/api/tracker/projects/:id/delete") { _, context in
            let id = try WebID.tracker(context.parameters.require("id"), "project")
            return try await run { try JSONBody.response(TrackerRemovalJSON(try $0.removeProject(id))) }
        }
    }

    func addMinis(to router: Router<WebContext>) {
        router.get("/api/tracker/minis") { request, _ in
            let project = try FormQuery.parse(request.uri.query)["project"].map { try WebID.tracker($0, "project") }
            return try await run { try JSONBody.response(try $0.miniatures(ofProject: project)) }
        }
        router.post("/api/tracker/minis") { request, context in
            let body = try await JSONBody.decode(request, context: context)
            let project = try WebID.tracker(try TrackerBody.string(body, "project")!, "project")
            let name = try TrackerBody.string(body, "name")!, type = try TrackerBody.type(try TrackerBody.string(body, "type")!)
            return try await run { try JSONBody.response(try $0.addMini(project: project, name: name, type: type), status: .created) }
        }
        router.get("/api/tracker/minis/:id") { _, context in
            let id = try WebID.tracker(context.parameters.require("id"), "miniature")
            return try await run { try JSONBody.response(try $0.miniature(id)) }
        }
        router.post("/api/tracker/minis/:id/update") { request, context in
            let id = try WebID.tracker(context.parameters.require("id"), "miniature")
            let body = try await JSONBody.decode(request, context: context)
            let progress = try TrackerBody.string(body, "progress", optional: true).map(TrackerBody.stage)
            let name = try TrackerBody.string(body, "name", optional: true)
            try Self.requireChange(progress, name, says: "\"progress\" and/or \"name\"")
            return try await run { try JSONBody.response(try $0.updateMini(id, progress: progress, name: name)) }
        }
        router.post("/api/tracker/minis/:id/delete") { _, context in
            let id = try WebID.tracker(context.parameters.require("id"), "miniature")
            return try await run { try JSONBody.response(TrackerRemovalJSON(try $0.removeMini(id))) }
        }
    }

    func addRecipes(to router: Router<WebContext>) {
        router.get("/api/tracker/recipes") { request, _ in
            let type = try FormQuery.parse(request.uri.query)["type"].map { try TrackerBody.type($0) }
            return try await run { try JSONBody.response(try $0.recipes(ofType: type)) }
        }
        router.post("/api/tracker/recipes") { request, context in
            let body = try await JSONBody.decode(request, context: context)
            let c = try TrackerBody.recipe(body)
            let name = try TrackerBody.string(body, "name")!
            return try await run {
                try JSONBody.response(try $0.addRecipe(name: name, type: c.type, steps: c.steps ?? [], paints: c.paints ?? [],
                                                       techniques: c.techniques ?? []), status: .created)
            }
        }
        router.get("/api/tracker/recipes/:id") { _, context in
            let id = try WebID.tracker(context.parameters.require("id"), "recipe")
            return try await run { try JSONBody.response(try $0.recipe(id)) }
        }
        router.post("/api/tracker/recipes/:id/update") { request, context in
            let id = try WebID.tracker(context.parameters.require("id"), "recipe")
            let c = try TrackerBody.recipe(try await JSONBody.decode(request, context: context))
            if c.name == nil && c.type == nil && !c.clearType && c.steps == nil && c.paints == nil && c.techniques == nil {
                throw WebError(.badRequest, "say what to change: \"name\", \"type\", \"steps\", \"paints\" or \"techniques\"", code: "invalid_argument")
            }
            return try await run {
                try JSONBody.response(try $0.updateRecipe(id, name: c.name, type: c.type, clearType: c.clearType,
                                                          steps: c.steps, paints: c.paints, techniques: c.techniques))
            }
        }
        router.post("/api/tracker/recipes/:id/delete") { _, context in
            let id = try WebID.tracker(context.parameters.require("id"), "recipe")
            return try await run { try JSONBody.response(TrackerRemovalJSON(try $0.removeRecipe(id))) }
        }
        for (verb, linked) in [("link", true), ("unlink", false)] {
            router.post(RouterPath("/api/tracker/recipes/:id/\(verb)")) { request, context in
                let id = try WebID.tracker(context.parameters.require("id"), "recipe")
                let body = try await JSONBody.decode(request, context: context)
                let mini = try WebID.tracker(try TrackerBody.string(body, "mini")!, "miniature")
                return try await run { t in
                    try JSONBody.response(linked ? try t.link(recipe: id, mini: mini) : try t.unlink(recipe: id, mini: mini))
                }
            }
        }
    }

    static func requireChange(_ a: Any?, _ b: Any?, says what: String) throws {
        if a == nil && b == nil { throw WebError(.badRequest, "say what to change: \(what)", code: "invalid_argument") }
    }

    /// `body` on the library's tracker, off the event loop; a value the tracker refuses for a
    /// field comes back naming it.
    func run(_ body: @escaping @Sendable (Tracker) throws -> Response) async throws -> Response {
        let session = app.session
        return try await Blocking.run {
            do {
                return try body(Self.tracker(session))
            } catch let e as ShoeboxError {
                throw Self.webError(e)
            }
        }
    }

    static func tracker(_ session: LibrarySession) -> Tracker {
        Tracker(session: session, note: { session.log("Tracker/tracker.json: \($0.message)") })
    }

    /// The tracker's error as the API answers it: its status by code, its field when it names one.
    static func webError(_ e: ShoeboxError) -> WebError {
        var web = WebError(e)
        web.field = (e.remedy as? TrackerFieldRemedy)?.field.rawValue
        return web
    }
}
