import Foundation
import Hummingbird
import PhotoLibrary
import Tidy

/// Tidy (brief 004) in the browser: the same entry points `shoebox tidy …` calls, answering in
/// its `--json` shapes. Each answer about the session adds `ahead` (the next items, for the page
/// to load their pictures before the swipe) and, on each item, `open` (the members this session
/// has not decided: a group stays under review until each is).
struct TidyRoutes {
    let app: WebApp
    /// Items loaded ahead of the one under review (issue 30: "the next three items' images").
    static let aheadCount = 3

    func add(to router: Router<WebContext>) {
        router.get("/api/tidy") { _, _ in
            let session = app.session
            return try await Blocking.run {
                let shown = try Tidy.snapshot(session)
                var object = try Self.view(shown, in: session)
                object["unanalysed"] = try Tidy.unanalysedCount(session)
                return try JSONBody.response(object: object)
            }
        }
        router.post("/api/tidy/decide") { request, context in
            let body = try await JSONBody.decode(request, context: context)
            let decision = try Self.decision(body, "decision")!
            let id = try body["id"].map { _ in try WebID.asset(try JSONBody.string(body, "id")).rawValue }
            let others = try Self.decision(body, "others")
            let session = app.session
            return try await Blocking.run {
                let (decided, after) = try Tidy.decide(session, decision, id, others: others)
                let shape = TidyDecisionJSON(decided, next: after.item, status: TidyStatusJSON(after.status))
                return try JSONBody.response(object: try Self.adding(Self.view(after, in: session, itemKey: "next"), to: JSONBody.object(shape)))
            }
        }
        router.post("/api/tidy/undo") { _, _ in
            let session = app.session
            return try await Blocking.run {
                let (change, after) = try Tidy.undo(session)
                var object = try Self.view(after, in: session, itemKey: "next")
                object["undone"] = change.marks.map(\.id.rawValue)
                return try JSONBody.response(object: object)
            }
        }
        router.get("/api/tidy/filters") { _, _ in
            let session = app.session
            return try await Blocking.run {
                let current = try Tidy.snapshot(session).status.filter
                let filters = try Tidy.filterCounts(session).map { f -> [String: Any] in
                    ["filter": f.filter.description, "label": Self.label(f.filter), "count": f.count]
                }
                return try JSONBody.response(object: ["current": current.description, "filters": filters])
            }
        }
        router.post("/api/tidy/filter") { request, context in
            let body = try await JSONBody.decode(request, context: context)
            let text = try JSONBody.string(body, "filter")
            guard let filter = TidyFilter(text) else {
                throw WebError(.badRequest, "unknown filter \(String(reflecting: text)); filters: \(TidyFilter.spellings)", code: "invalid_argument")
            }
            let session = app.session
            return try await Blocking.run {
                try JSONBody.response(object: try Self.view(try Tidy.start(session, filter), in: session))
            }
        }
        router.get("/api/tidy/trash") { _, _ in try await pile(.delete) }
        router.get("/api/tidy/maybes") { _, _ in try await pile(.maybe) }
        router.post("/api/tidy/unmark") { request, context in
            let id = try WebID.asset(try JSONBody.string(try await JSONBody.decode(request, context: context), "id"))
            let session = app.session
            return try await Blocking.run {
                let kept = try Tidy.unmark(session, id.rawValue)
                let asset = kept.assets[0]
                return try JSONBody.response(TidyAssetJSON(asset, liveVideo: kept.companions[asset.id]))
            }
        }
        router.post("/api/tidy/empty") { _, _ in
            let session = app.session
            let failures = Failures()
            return try await Blocking.run {
                let emptied = try Tidy.empty(session) { failures.add($0) }
                var object = try JSONBody.object(TidyEmptyJSON(emptied))
                object["errors"] = failures.lines
                return try JSONBody.response(object: object)
            }
        }
    }

    func pile(_ decision: TidyDecision) async throws -> Response {
        let session = app.session
        return try await Blocking.run {
            let pile = try Tidy.pile(session, decision)
            return try JSONBody.response(pile.assets.map { TidyAssetJSON($0, liveVideo: pile.companions[$0.id]) })
        }
    }

    // MARK: Answers

    /// `{item, status, ahead}` for a snapshot (`itemKey` names the item: `next` after a change,
    /// as the CLI's `--json` does).
    static func view(_ shown: TidySnapshot, in session: LibrarySession, itemKey: String = "item") throws -> [String: Any] {
        let ahead = try Tidy.ahead(session, of: shown, count: aheadCount)
        return [
            itemKey: try shown.current.map { try item($0, companions: shown.companions) } ?? NSNull(),
            "status": try JSONBody.object(TidyStatusJSON(shown.status)),
            "ahead": try ahead.items.map { try item($0, companions: ahead.companions) },
        ]
    }

    /// An item as `tidy next --json` prints it, with `open`.
    static func item(_ current: TidyCurrent, companions: [AssetID: String]) throws -> [String: Any] {
        var object = try JSONBody.object(TidyItemJSON(current, companions: companions))
        object["open"] = current.open.map(\.rawValue)
        return object
    }

    static func adding(_ extra: [String: Any], to object: [String: Any]) -> [String: Any] {
        object.merging(extra) { _, new in new }
    }

    /// A decision field of a body: keep, delete or maybe (nil when absent and optional).
    static func decision(_ body: [String: Any], _ key: String) throws -> TidyDecision? {
        guard let value = body[key] else {
            if key == "decision" { throw WebError(.badRequest, "\"decision\" must be keep, delete or maybe", code: "invalid_argument") }
            return nil
        }
        guard let text = value as? String, let d = TidyDecision(rawValue: text), d != .emptied else {
            throw WebError(.badRequest, "\"\(key)\" must be keep, delete or maybe", code: "invalid_argument")
        }
        return d
    }

    /// Brief 004's names for the filters.
    static func label(_ filter: TidyFilter) -> String {
        switch filter {
        case .all: "All Photos"
        case .screenshots: "Screenshots"
        case .last30Days: "Last 30 days"
        case .year(let y): String(y)
        case .largest: "Largest files first"
        case .maybe: "Maybe pile"
        }
    }
}
