import Foundation
import Hummingbird
import Imaging
import NIOConcurrencyHelpers
import PhotoLibrary
import Tracker
#if canImport(Glibc)
import Glibc
#endif

/// A miniature's photos in the browser (`tracker photo add|list|rm`): a file sent as the body's
/// bytes (`?name=` as for `/api/upload`: a file chosen, dropped, or taken with a paired phone's
/// camera), or a photo of the library by asset id — both handed to the tracker's own import,
/// which takes JPEG, PNG and HEIC by content only and says in words why not otherwise — and the
/// pictures by photo id (`/media/tracker/ID`).
struct TrackerPhotoRoutes {
    let app: WebApp
    /// The last pictures made for the page (a HEIC as JPEG, a smaller size): keyed by content.
    static let renders = PreviewCache(capacity: 24)

    func add(to router: Router<WebContext>) {
        let routes = TrackerRoutes(app: app)
        router.get("/api/tracker/minis/:id/photos") { _, context in
            let id = try WebID.tracker(context.parameters.require("id"), "miniature")
            return try await routes.run { try JSONBody.response(try $0.photos(ofMini: id)) }
        }
        router.post("/api/tracker/minis/:id/photos") { request, context in
            let id = try WebID.tracker(context.parameters.require("id"), "miniature")
            return try await upload(request, mini: id, routes: routes)
        }
        router.post("/api/tracker/minis/:id/photos/library") { request, context in
            let id = try WebID.tracker(context.parameters.require("id"), "miniature")
            let asset = try WebID.asset(try JSONBody.string(try await JSONBody.decode(request, context: context), "id"))
            return try await routes.run { try JSONBody.response(try $0.addPhoto(mini: id, from: .asset(asset.rawValue)), status: .created) }
        }
        router.post("/api/tracker/photos/:id/delete") { _, context in
            let id = try WebID.tracker(context.parameters.require("id"), "photo")
            return try await routes.run { try JSONBody.response(TrackerRemovalJSON(try $0.removePhoto(id))) }
        }
        router.get("/media/tracker/:id") { request, context in
            let id = try WebID.tracker(context.parameters.require("id"), "photo")
            return try await picture(id, request: request)
        }
    }

    // MARK: Upload

    /// The body streamed into a temporary file outside the library, then the tracker's import
    /// of it (the copy it keeps is its own, under `Tracker/photos/`); the temporary goes either way.
    func upload(_ request: Request, mini: String, routes: TrackerRoutes) async throws -> Response {
        guard let name = FormQuery.parse(request.uri.query)["name"], !name.isEmpty else {
            throw WebError(.badRequest, "a photo needs ?name=FILE_NAME", code: "invalid_argument")
        }
        let shown = SafeName.file(name, fallback: "photo")
        if let length = request.headers[.contentLength].flatMap(Int64.init) { try Self.checkSize(length, shown) }
        let file = try await Blocking.run { try ReceivedFile() }
        defer { file.discard() }
        var pending = Data()
        for try await buffer in request.body {
            pending.append(contentsOf: buffer.readableBytesView)
            try Self.checkSize(file.size + Int64(pending.count), shown)
            if pending.count >= UploadRoutes.flushEvery {
                let chunk = pending
                pending = Data()
                try await Blocking.run { try file.append(chunk) }
            }
        }
        let rest = pending
        try await Blocking.run { try file.append(rest) }
        let path = file.path
        return try await routes.run { try JSONBody.response(try $0.addPhoto(mini: mini, from: .received(path: path, name: shown)), status: .created) }
    }

    static func checkSize(_ size: Int64, _ name: String) throws {
        do { try Tracker.checkPhotoSize(size, name: name) } catch let e as ShoeboxError {
            throw WebError(.contentTooLarge, e.message, code: "too_large")
        }
    }

    // MARK: Pictures

    /// A photo as the page shows it: JPEG and PNG as they are; HEIC (which most browsers cannot
    /// show) as a JPEG of at most 2560 px; `size=256|1024`: a JPEG of that long side, upright.
    /// A photo's copy never changes (a new photo is a new id), so the answer is kept for good.
    func picture(_ id: String, request: Request) async throws -> Response {
        let size = try request.uri.queryParameters.get("size").map { text -> Int in
            guard let n = Int(text), ThumbnailStore.sizes.contains(n) else {
                throw WebError(.badRequest, "sizes are \(ThumbnailStore.sizes.map(String.init).joined(separator: " or ")) px", code: "invalid_argument")
            }
            return n
        }
        let session = app.session
        let opened = try await Blocking.run { () throws -> TrackerPhotoFile in
            do { return try TrackerRoutes.tracker(session).openPhoto(id) } catch let e as ShoeboxError { throw TrackerRoutes.webError(e) }
        }
        defer { Glibc.close(opened.descriptor) }
        let key = "\(opened.photo.sha256.prefix(16))-\(size.map(String.init) ?? "full")"
        var headers = HTTPFields()
        headers[.eTag] = "\"\(key)\""
        headers[.cacheControl] = "private, max-age=31536000, immutable"
        if request.headers[.ifNoneMatch] == headers[.eTag] { return Response(status: .notModified, headers: headers) }
        let bytes: [UInt8]
        if size == nil && opened.format != .heic {
            headers[.contentType] = opened.format == .png ? "image/png" : "image/jpeg"
            bytes = try await Blocking.run {
                try OriginalResponse.read(opened.descriptor, at: 0, count: Int(opened.size), name: opened.photo.file)
            }
        } else {
            headers[.contentType] = "image/jpeg"
            let side = size ?? MediaRoutes.previewLongSide
            bytes = try await Self.renders.jpeg(key) {
                try await Blocking.run { try Self.render(opened, longSide: side) }
            }
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func render(_ opened: TrackerPhotoFile, longSide: Int) throws -> [UInt8] {
        let decoded = try ImageDecoder.decode(fileDescriptor: opened.descriptor, name: opened.photo.file, format: opened.format,
                                              minLongSide: longSide)
        var image = decoded.image
        if max(image.width, image.height) > longSide { image = Downsample.area(image, longSide: longSide) }
        return try ThumbnailEncoder.jpeg(image, quality: 85)
    }
}

/// A temporary file outside the library for a photo on its way in (`mkstemp`, mode 0600),
/// removed by `discard` whatever happened.
final class ReceivedFile: @unchecked Sendable {
    static let insufficientStorage = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
    let path: String
    private let fd: Int32
    private(set) var size: Int64 = 0

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/shoebox-tracker-XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else {
            throw WebError(Self.insufficientStorage, "cannot receive the photo: \(String(cString: strerror(errno))) in \(NSTemporaryDirectory())", code: "io")
        }
        self.fd = fd
        path = String(cString: template)
    }

    func append(_ data: Data) throws {
        try data.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    let e = n < 0 ? errno : ENOSPC
                    let full = e == ENOSPC || e == EDQUOT
                    throw WebError(full ? Self.insufficientStorage : .internalServerError,
                                   full ? "the disk holding \(NSTemporaryDirectory()) is full: the photo was not received; free some space and try again"
                                        : "cannot receive the photo: \(String(cString: strerror(e)))", code: full ? "no_space" : "io")
                }
                done += n
            }
        }
        size += Int64(data.count)
    }

    func discard() {
        close(fd)
        unlink(path)
    }
}
