import Analysis
import Foundation
import Hummingbird
import PhotoLibrary

/// People: list, one person's faces, name, merge, forget a face — `people` on the same calls.
struct PeopleRoutes {
    let app: WebApp

    func add(to router: Router<WebContext>) {
        router.get("/api/people") { _, _ in
            let session = app.session
            let people = try await Blocking.run { try People.list(session) }
            return try JSONBody.response(people.map(PersonJSON.init))
        }
        router.get("/api/people/:id") { _, context in
            let id = try WebID.person(context.parameters.require("id"))
            let session = app.session
            let (person, faces) = try await Blocking.run { try People.faces(of: id, in: session) }
            var object = try JSONBody.object(PersonJSON(person))
            object["faces"] = faces.map { f -> [String: Any] in
                ["id": f.key.description, "asset_id": f.key.assetID.rawValue, "x": f.box.x, "y": f.box.y,
                 "w": f.box.w, "h": f.box.h, "sha8": String(f.sha256.prefix(8))]
            }
            return try JSONBody.response(object: object)
        }
        router.post("/api/people/merge") { request, context in
            let body = try await JSONBody.decode(request, context: context)
            guard let ids = body["ids"] as? [String], ids.count == 2 else {
                throw WebError(.badRequest, "merge takes \"ids\": two person ids, the second merged into the first", code: "invalid_argument")
            }
            let (a, b) = (try WebID.person(ids[0]), try WebID.person(ids[1]))
            let session = app.session
            return try JSONBody.response(PersonJSON(try await Blocking.run { try People.merge(a, b, in: session) }))
        }
        router.post("/api/people/:id/name") { request, context in
            let id = try WebID.person(context.parameters.require("id"))
            let name = try JSONBody.string(try await JSONBody.decode(request, context: context), "name")
            let session = app.session
            return try JSONBody.response(PersonJSON(try await Blocking.run { try People.name(id, as: name, in: session) }))
        }
        router.post("/api/faces/forget") { request, context in
            let face = try WebID.face(try JSONBody.string(try await JSONBody.decode(request, context: context), "face"))
            let session = app.session
            let key = try await Blocking.run { try People.forget(face, in: session) }
            return try JSONBody.response(object: ["face": key.description])
        }
    }
}
