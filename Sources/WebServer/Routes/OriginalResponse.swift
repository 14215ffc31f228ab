import Foundation
import Hummingbird
import Metadata
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// An original file as an HTTP response, opened through the session (confined, the file the
/// index knows) and streamed in chunks; one byte range (`Range: bytes=…`) answered with 206, as
/// a video element asks when it seeks.
struct OriginalResponse {
    let app: WebApp
    static let chunk = 512 << 10

    func response(_ asset: Asset, request: Request, download: Bool, cache: HTTPFields? = nil) async throws -> Response {
        let session = app.session
        let original = try await Blocking.run { try session.openOriginal(asset) }
        let size = Int(original.stat.size)
        var headers = cache ?? HTTPFields()
        headers[.contentType] = Self.contentType(asset.format)
        headers[.acceptRanges] = "bytes"
        if headers[.eTag] == nil { headers[.eTag] = "\"\(asset.sha256.prefix(16))\"" }
        if download {
            headers[.contentDisposition] = ContentDisposition.attachment(asset.path.split(separator: "/").last.map(String.init) ?? "photo")
        }
        if let etag = headers[.eTag], request.headers[.ifNoneMatch] == etag {
            return Response(status: .notModified, headers: headers)
        }
        var range = 0..<size
        var status = HTTPResponse.Status.ok
        if let header = request.headers[.range] {
            guard let r = Self.parseRange(header, size: size) else {
                headers[.contentRange] = "bytes */\(size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            if let r {
                range = r
                status = .partialContent
                headers[.contentRange] = "bytes \(r.lowerBound)-\(r.upperBound - 1)/\(size)"
            }
        }
        headers[.contentLength] = String(range.count)
        let sent = range
        let body = ResponseBody { writer in
            var offset = sent.lowerBound
            while offset < sent.upperBound {
                let count = min(Self.chunk, sent.upperBound - offset)
                let start = offset
                let bytes = try await Blocking.run { () throws -> [UInt8] in
                    try withExtendedLifetime(original) { try Self.read(original.descriptor, at: start, count: count, name: asset.path) }
                }
                try await writer.write(ByteBuffer(bytes: bytes))
                offset += bytes.count
            }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }

    static func read(_ fd: Int32, at offset: Int, count: Int, name: String) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw ShoeboxError(.fileChanged, "\(name) became shorter while it was being sent")
            }
            done += n
        }
        return bytes
    }

    /// One range of `bytes=a-b`, `bytes=a-` or `bytes=-n`: nil when it cannot be satisfied;
    /// `.some(nil)` when the header is one this server answers whole (several ranges, other units).
    static func parseRange(_ header: String, size: Int) -> Range<Int>?? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return .some(nil) }
        let spec = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .some(nil) }
        if parts[0].isEmpty {
            guard let n = Int(parts[1]), n > 0, size > 0 else { return nil }
            return .some(max(0, size - n)..<size)
        }
        guard let a = Int(parts[0]), a >= 0, a < size else { return nil }
        let b = parts[1].isEmpty ? size - 1 : min(Int(parts[1]) ?? -1, size - 1)
        guard b >= a else { return nil }
        return .some(a..<(b + 1))
    }

    static func contentType(_ format: MediaFormat) -> String {
        switch format {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .heic: "image/heic"
        case .mp4: "video/mp4"
        case .mov: "video/quicktime"
        case .raw: "application/octet-stream"
        case .tiff: "image/tiff"
        }
    }
}
