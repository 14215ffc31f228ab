import Foundation
import Hummingbird
import PhotoLibrary

/// The library as the grid reads it: every asset of a filter in one compact document, the
/// filters' choices, one asset in `show --json`'s shape.
struct LibraryRoutes {
    let app: WebApp

    func add(to router: Router<WebContext>) {
        router.get("/api/library") { request, _ in
            let form = FormQuery.parse(request.uri.query)
            let query = try Self.query(form)
            let key = Self.cacheKey(form)
            let app = self.app
            return JSONBody.response(data: try await Blocking.run { try app.gridDocument(key, query) })
        }
        router.get("/api/facets") { _, _ in
            let session = app.session
            let facets = try await Blocking.run { try session.read { try $0.facets() } }
            return try JSONBody.response(object: [
                "years": facets.years.map { ["year": $0.year, "count": $0.count] },
                "places": facets.places.map { ["name": $0.name, "count": $0.count] },
                "people": facets.persons.map { ["name": $0.name, "count": $0.count] },
                "kinds": facets.kinds.map { ["kind": $0.kind.rawValue, "count": $0.count] },
            ])
        }
        router.get("/api/assets/:id") { _, context in
            let asset = try await app.asset(context.parameters.require("id"))
            let session = app.session
            let (live, liveID) = try await Blocking.run { () throws -> (String?, String?) in
                try session.read { index in
                    let path = try index.liveVideos(for: [asset.id])[asset.id]
                    return (path, try path.flatMap { try index.asset(path: $0) }?.id.rawValue)
                }
            }
            var object = try JSONBody.object(AssetJSON(asset, liveVideo: live))
            object["live_video_id"] = liveID ?? NSNull()
            return try JSONBody.response(object: object)
        }
    }

    /// The unfiltered grid, made now for the next page that asks (after a change).
    static func warm(_ app: WebApp) {
        _ = try? app.gridDocument("", AssetQuery())
    }

    /// The grid cache's key of a query string's fields, each name and value percent-encoded: joined
    /// as they were decoded, `place=a%26year%3D2024` (a place "a&year=2024") and `place=a&year=2024`
    /// shared a key, and one filter was answered with the other's cached rows.
    static func cacheKey(_ form: [String: String]) -> String {
        let encode = { (s: String) in s.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? s }
        return form.keys.sorted().map { "\(encode($0))=\(encode(form[$0]!))" }.joined(separator: "&")
    }

    /// `list`'s filters from the query string: year, place, person, kind, sort, reverse.
    static func query(_ q: [String: String]) throws -> AssetQuery {
        var query = AssetQuery()
        if let year = q["year"], !year.isEmpty {
            guard let y = Int(year) else { throw WebError(.badRequest, "year must be a number, not \(year.debugDescription)", code: "invalid_argument") }
            query.year = y
        }
        if let place = q["place"], !place.isEmpty { query.place = place }
        if let person = q["person"], !person.isEmpty { query.person = person }
        if let kind = q["kind"], !kind.isEmpty {
            guard let k = AssetKind(rawValue: kind) else { throw WebError(.badRequest, "kind is photo, screenshot or video, not \(kind.debugDescription)", code: "invalid_argument") }
            query.kind = k
        }
        if let sort = q["sort"], !sort.isEmpty {
            guard let s = AssetQuery.Sort(rawValue: sort) else { throw WebError(.badRequest, "sort is date, score, size or name", code: "invalid_argument") }
            query.sort = s
        }
        query.reverse = q["reverse"] == "1"
        return query
    }

    /// `{"generation", "count", "items": [[id, taken_epoch, kind, w, h, v, duration], …]}` written
    /// directly: 100,000 rows of ids and numbers need no escaping, and a generic encoder would
    /// spend longer than the query.
    static func gridDocument(generation: String, rows: [GridRow]) -> Data {
        var out = Data()
        out.reserveCapacity(96 * rows.count + 64)
        out.append(contentsOf: Array("{\"generation\":\"\(generation)\",\"count\":\(rows.count),\"items\":[".utf8))
        for (i, r) in rows.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            let kind = switch r.kind { case .photo: "p"; case .screenshot: "s"; case .video: "v" }
            let taken = r.takenEpoch.map { String(Int64($0.rounded(.down))) } ?? "null"
            let duration = r.duration.map { String(format: "%.1f", $0) } ?? "null"
            let version = r.version.allSatisfy(\.isHexDigit) ? r.version : ""
            out.append(contentsOf: Array("[\"\(r.id.rawValue)\",\(taken),\"\(kind)\",\(r.width),\(r.height),\"\(version)\",\(duration)]".utf8))
        }
        out.append(contentsOf: Array("]}".utf8))
        return out
    }
}
