import Analysis
import Foundation
import Hummingbird
import Imaging
import PhotoLibrary

/// Pictures and movies, by asset id only (a UUID, checked): a path never comes from the request.
/// Thumbnails from the analysis cache (made now when missing), previews a browser can show,
/// originals with range requests (videos seek), a Live Photo's movie.
struct MediaRoutes {
    let app: WebApp

    func add(to router: Router<WebContext>) {
        router.get("/media/thumb/:id") { request, context in try await thumbnail(request, context) }
        router.get("/media/preview/:id") { request, context in try await preview(request, context) }
        router.get("/media/original/:id") { request, context in
            let asset = try await app.asset(context.parameters.require("id"))
            return try await OriginalResponse(app: app).response(asset, request: request,
                                                                 download: request.uri.queryParameters.get("download") == "1")
        }
        router.get("/media/live/:id") { request, context in
            let asset = try await app.asset(context.parameters.require("id"))
            let session = app.session
            guard let movie = try await Blocking.run({ () -> Asset? in
                try session.read { index in
                    guard let path = try index.liveVideos(for: [asset.id])[asset.id] else { return nil }
                    return try index.asset(path: path)
                }
            }) else { throw WebError(.notFound, "\(asset.path) is not a Live Photo", code: "not_found") }
            return try await OriginalResponse(app: app).response(movie, request: request, download: false)
        }
    }

    func thumbnail(_ request: Request, _ context: WebContext) async throws -> Response {
        let asset = try await app.asset(context.parameters.require("id"))
        let size = request.uri.queryParameters.get("size").flatMap(Int.init) ?? ThumbnailStore.sizes[0]
        return try await thumbnail(asset, size: size, request)
    }

    func thumbnail(_ asset: Asset, size: Int, _ request: Request) async throws -> Response {
        guard ThumbnailStore.sizes.contains(size) else {
            throw WebError(.badRequest, "thumbnails are \(ThumbnailStore.sizes.map(String.init).joined(separator: " or ")) px, not \(size)", code: "invalid_argument")
        }
        let etag = "\"\(asset.sha256.prefix(16))-\(size)\""
        if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: cacheHeaders(request, etag: etag)) }
        let library = app.session.library
        let bytes = try await Blocking.run { () throws -> Data in
            let path = try Thumbnails.path(of: asset, size: size, library: library)
            guard let data = try library.files.contents(of: path, limit: 16 << 20) else {
                throw WebError(.notFound, "\(asset.path) has no thumbnail", code: "not_found")
            }
            return data
        }
        var headers = cacheHeaders(request, etag: etag)
        headers[.contentType] = "image/jpeg"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// What the viewer shows: JPEG and PNG as they are, HEIC, TIFF and raw files as a JPEG of at most
    /// 2560 px (kept for the next few requests), a video's poster frame.
    func preview(_ request: Request, _ context: WebContext) async throws -> Response {
        let asset = try await app.asset(context.parameters.require("id"))
        switch asset.format {
        case .jpeg, .png:
            return try await OriginalResponse(app: app).response(asset, request: request, download: false,
                                                                 cache: cacheHeaders(request, etag: "\"\(asset.sha256.prefix(16))\""))
        case .mp4, .mov:
            return try await thumbnail(asset, size: ThumbnailStore.sizes[1], request)
        case .heic, .raw, .tiff:
            let etag = "\"\(asset.sha256.prefix(16))-preview\""
            if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: cacheHeaders(request, etag: etag)) }
            let jpeg = try await app.previews.jpeg(for: asset) { try await Blocking.run { try makePreview(asset) } }
            var headers = cacheHeaders(request, etag: etag)
            headers[.contentType] = "image/jpeg"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: jpeg)))
        }
    }

    static let previewLongSide = 2560

    func makePreview(_ asset: Asset) throws -> [UInt8] {
        let original = try app.session.openOriginal(asset)
        return try withExtendedLifetime(original) {
            let decoded = try ImageDecoder.decode(fileDescriptor: original.descriptor, name: asset.path, format: asset.format,
                                                  minLongSide: Self.previewLongSide, orientation: asset.metadata.orientation)
            var image = decoded.image
            if max(image.width, image.height) > Self.previewLongSide { image = Downsample.area(image, longSide: Self.previewLongSide) }
            return try ThumbnailEncoder.jpeg(image, quality: 85)
        }
    }

    /// A URL with `v` (the content's version) may be kept for ever: an edited file gets a new one.
    func cacheHeaders(_ request: Request, etag: String) -> HTTPFields {
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.cacheControl] = request.uri.queryParameters.get("v") != nil ? "private, max-age=31536000, immutable" : "private, no-cache"
        return headers
    }
}
