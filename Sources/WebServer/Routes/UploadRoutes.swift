import Foundation
import Hummingbird
import Metadata
import PhotoLibrary

/// Uploads: a file dropped on a page, or chosen (or taken with the camera) on a paired phone, is
/// written whole into `Imports/YYYY-MM-DD/` through the confined layer — a hidden temporary,
/// flushed, then renamed to a free name, so a scan never sees half a photo — and indexed at once.
/// The body is the file's bytes (no multipart: nothing to parse), streamed to disk in pieces.
struct UploadRoutes {
    let app: WebApp
    static let flushEvery = 1 << 20

    func add(to router: Router<WebContext>) {
        router.post("/api/upload") { request, _ in try await upload(request) }
    }

    func upload(_ request: Request) async throws -> Response {
        guard let raw = FormQuery.parse(request.uri.query)["name"], !raw.isEmpty else {
            throw WebError(.badRequest, "an upload needs ?name=FILE_NAME", code: "invalid_argument")
        }
        if let length = request.headers[.contentLength].flatMap(Int64.init), length > app.uploadLimit {
            throw WebError(.contentTooLarge, "\(raw) is \(length) bytes; uploads are at most \(app.uploadLimit)", code: "too_large")
        }
        let name = SafeName.file(raw, fallback: "upload")
        try Self.check(name: name)
        let folder = "Imports/" + Self.day(Date())
        let library = app.session.library
        if let problem = app.session.index.readOnlyReason { throw problem }
        let file = try await Blocking.run { try IncomingFile(library: library, folder: folder, name: name) }
        var pending = Data()
        var sniffed = false
        do {
            for try await buffer in request.body {
                pending.append(contentsOf: buffer.readableBytesView)
                if file.size + Int64(pending.count) > app.uploadLimit {
                    throw WebError(.contentTooLarge, "\(name) is larger than \(app.uploadLimit) bytes, the most an upload may be", code: "too_large")
                }
                if pending.count >= Self.flushEvery {
                    let chunk = pending
                    pending = Data()
                    try await Blocking.run { try file.append(chunk) }
                    if !sniffed { sniffed = true; try Self.check(file, name: name) }
                }
            }
            let rest = pending
            try await Blocking.run { try file.append(rest) }
            try Self.check(file, name: name)
        } catch {
            file.discard()
            throw error
        }
        let session = app.session
        let (path, id) = try await Blocking.run { () throws -> (String, String?) in
            let path = try file.finish()
            let report = try session.ingest(arrived: [path])
            let id = report.entries.lazy.compactMap { entry -> AssetID? in
                switch entry {
                case .added(let id, let p) where p == path, .updated(let id, let p) where p == path: id
                case .returned(let id, let p, _) where p == path: id
                default: nil
                }
            }.first
            return (path, id?.rawValue)
        }
        return try JSONBody.response(object: ["path": path, "id": id ?? NSNull()] as [String: Any], status: .created)
    }

    /// Refuses, before a byte is written, a name no scan indexes (a companion's `.txt` or `.xmp`,
    /// a temporary's `.part` or `~`): the file would sit in Imports/ unseen, its answer without an id.
    static func check(name: String) throws {
        guard LibraryLayout.isIndexable(fileName: name) else {
            throw WebError(.unsupportedMediaType, "\(name): Shoebox never indexes a file named so (a companion's or a temporary's name); "
                           + "name it as a photo or video (.jpg, .heic, .png, .mov, .mp4…)", code: "unsupported")
        }
    }

    /// Refuses what Shoebox would not index: the content must be a photo or video it reads.
    static func check(_ file: IncomingFile, name: String) throws {
        try check(size: file.size, head: file.head, name: name)
    }

    /// `check` on a size and first bytes (the fuzz target's way in: Fuzz/Targets/WebRequest.swift).
    static func check(size: Int64, head: [UInt8], name: String) throws {
        guard size > 0 else { throw WebError(.badRequest, "\(name) is empty", code: "invalid_argument") }
        guard MetadataReader.sniff(head, fileName: name) != nil else {
            throw WebError(.unsupportedMediaType, "\(name) is not a photo or video Shoebox reads (JPEG, PNG, HEIC, MP4, MOV or a camera raw file)", code: "unsupported")
        }
    }

    static func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year ?? 1970, c.month ?? 1, c.day ?? 1)
    }
}
