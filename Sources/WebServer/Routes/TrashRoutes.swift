import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import PhotoLibrary

/// Recently Deleted: move photos there, list it, put them back — `trash`, `trash list` and
/// `restore` on the same session calls.
struct TrashRoutes {
    let app: WebApp

    func add(to router: Router<WebContext>) {
        router.get("/api/trash") { _, _ in
            let session = app.session
            let items = try await Blocking.run { try session.trashItems() }
            return try JSONBody.response(items.map(TrashItemJSON.init))
        }
        router.post("/api/trash") { request, context in
            let ids = try JSONBody.ids(try await JSONBody.decode(request, context: context))
            let session = app.session
            let failures = Failures()
            let items = try await Blocking.run { () throws -> [TrashItem] in
                try session.write { w in
                    let done = try w.trash.trash(try w.resolve(ids.map(\.rawValue))) { failures.add($0) }
                    return try w.trash.items().filter { item in done.contains { $0.name == item.name } }
                }
            }
            try failures.check(of: ids.count, verb: "moved to Recently Deleted")
            return try JSONBody.response(items.map(TrashItemJSON.init))
        }
        router.post("/api/restore") { request, context in
            let body = try await JSONBody.decode(request, context: context)
            // Asset ids, or the names in Recently Deleted/files/ of files Shoebox never indexed.
            let references = body["ids"] != nil ? try JSONBody.ids(body).map(\.rawValue) : try Self.names(body)
            let session = app.session
            let failures = Failures()
            let done = try await Blocking.run { () throws -> [RecentlyDeleted.Restored] in
                try session.write { w in
                    let (targets, foreign) = try w.trash.restoreTargets(references)
                    return try w.trash.restore(targets) { failures.add($0) } + (try w.trash.restoreForeign(foreign) { failures.add($0) })
                }
            }
            try failures.check(of: references.count, verb: "restored")
            return try JSONBody.response(done.map(RestoredItemJSON.init))
        }
    }

    /// `names` of a restore's body: file names in Recently Deleted/files/, never a path.
    static func names(_ body: [String: Any]) throws -> [String] {
        guard let names = body["names"] as? [String], !names.isEmpty,
              names.allSatisfy({ !$0.isEmpty && !$0.contains("/") && $0 != "." && $0 != ".." && !$0.contains("\0") }) else {
            throw WebError(.badRequest, "give \"ids\" (asset ids) or \"names\" (names in Recently Deleted)", code: "invalid_argument")
        }
        return names
    }
}

/// The per-file failures of a change on many files: the others are done; the response then says
/// how many failed and the first one's words.
final class Failures: Sendable {
    private let errors = NIOLockedValueBox<[ShoeboxError]>([])

    func add(_ error: ShoeboxError) { errors.withLockedValue { $0.append(error) } }

    /// Each failure's line, for an answer that reports them beside what was done.
    var lines: [String] { errors.withLockedValue { $0.map(\.description) } }

    func check(of total: Int, verb: String) throws {
        let all = errors.withLockedValue { $0 }
        guard let first = all.first else { return }
        throw WebError(.conflict, all.count == 1 && total == 1 ? first.description
                       : "\(all.count) of \(total) could not be \(verb): \(first.description)", code: "partly_failed")
    }
}
