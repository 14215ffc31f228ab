import Foundation
import Hummingbird
import PhotoLibrary
import Tracker

/// `tracker export` as a download: `GET /api/tracker/export?format=json|csv[&project=ID]` gives
/// the files `tracker export -o DIR` writes — JSON as its one `tracker.json`, CSV as a zip of
/// the one file per entity (entries stored, not recompressed: each is the CSV byte for byte).
/// Photos are referenced, never embedded, as in every export.
struct TrackerExportRoute {
    let app: WebApp

    func add(to router: Router<WebContext>) {
        router.get("/api/tracker/export") { request, _ in
            let query = FormQuery.parse(request.uri.query)
            let format = try TrackerBody.format(query["format"])
            let project = try query["project"].map { try WebID.tracker($0, "project") }
            return try await TrackerRoutes(app: app).run { tracker in
                let (files, data) = try tracker.exportFiles(project: project, format: format)
                let name = Self.fileName(project: project == nil ? nil : data.projects.first, format: format, at: Date())
                let bytes = format == .json ? [UInt8](files[0].data) : Self.zip(files, at: Date())
                return Self.download(bytes, name: name, type: format == .json ? "application/json; charset=utf-8" : "application/zip")
            }
        }
    }

    /// `shoebox-tracker-2026-05-14.json`, or with one project its army (and name) in it.
    static func fileName(project: Project?, format: TrackerExport.Format, at date: Date) -> String {
        let what = project.map { p in ["tracker", p.army, p.name].compactMap { $0 }.joined(separator: " ") } ?? "tracker"
        let base = SafeName.file("shoebox-\(what)-\(UploadRoutes.day(date))", fallback: "shoebox-tracker")
            .replacingOccurrences(of: " ", with: "-")
        return base + (format == .json ? ".json" : "-csv.zip")
    }

    static func zip(_ files: [(name: String, data: Data)], at date: Date) -> [UInt8] {
        var zip = StoredZip()
        var out: [UInt8] = []
        for f in files { out += zip.add(name: f.name, bytes: [UInt8](f.data), modified: date) }
        return out + zip.finish()
    }

    static func download(_ bytes: [UInt8], name: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        let ascii = String(name.unicodeScalars.map { $0.isASCII && $0 != "\"" && $0 != "\\" && $0.value >= 32 ? Character($0) : "_" })
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ascii
        headers[.contentDisposition] = "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
