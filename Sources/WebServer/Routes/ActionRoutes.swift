import Composer
import Foundation
import Hummingbird
import PhotoLibrary

/// The Library's "add to composer": the feature's own entry point, as `compose add` calls it
/// ("add to curation" is CurationRoutes').
struct ActionRoutes {
    let app: WebApp

    func add(to router: Router<WebContext>) {
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
