import Composer
import Curation
import Foundation
import Hummingbird
import PhotoLibrary

/// The Library's "add to curation" and "add to composer": the features' own entry points, as
/// `curate add` and `compose add` call them.
struct ActionRoutes {
    let app: WebApp

    func add(to router: Router<WebContext>) {
        router.post("/api/curation/add") { request, context in
            let ids = try JSONBody.ids(try await JSONBody.decode(request, context: context))
            let session = app.session
            let list = try await Blocking.run { () throws -> [CurationEntry] in
                // Unscored photos are added as they are: the page does not wait for analysis.
                try Curation.add(session, ids.map(\.rawValue), waitingForScores: { _ in }).entries
            }
            return try JSONBody.response(list.map(CurationItemJSON.init))
        }
        router.post("/api/composer/add") { request, context in
            let ids = try JSONBody.ids(try await JSONBody.decode(request, context: context))
            let session = app.session
            let list = try await Blocking.run { () throws -> [ComposerEntry] in
                try Composer.change(session) { composer, draft in
                    _ = try draft.add(try ids.map { try composer.photo($0.rawValue).id })
                }
            }
            return try JSONBody.response(list.map(ComposerItemJSON.init))
        }
    }
}
