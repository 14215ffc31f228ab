import Curation
import Foundation
import Hummingbird
import PhotoLibrary

/// The Library's "add to curation": the feature's own entry point, as `curate add` calls it
/// (its "add to composer" is ComposerRoutes').
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
    }
}
