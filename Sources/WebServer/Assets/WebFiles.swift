import Foundation
import NIOConcurrencyHelpers
import PhotoLibrary

/// The web app's files: those embedded into the binary at build time (Web/, through the
/// EmbedFiles plugin), or — when `SHOEBOX_WEB_ROOT` names a folder, a development aid for
/// working on the pages without rebuilding — that folder's, read at each request.
public final class WebFiles: Sendable {
    /// One file as served: its bytes, media type and an entity tag of its content.
    public struct File: Sendable {
        public let bytes: Data
        public let contentType: String
        public let etag: String
    }

    private let root: URL?
    private let decoded = NIOLockedValueBox<[String: File]>([:])

    /// `root` nil: the embedded files.
    public init(root: URL? = nil) { self.root = root }

    /// What URLs of these files carry (`/static/v-VERSION/…`) so a browser keeps them for ever;
    /// nil for a folder's files, which change under the same name while someone works on them.
    public var version: String? { root == nil ? EmbeddedFiles.version : nil }

    /// The paths of the files under `folder` (no leading slash), sorted.
    public func paths(under folder: String) -> [String] {
        if let root {
            let base = root.appendingPathComponent(folder)
            let walk = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
            return (walk?.compactMap { ($0 as? URL).map { folder + "/" + String($0.standardizedFileURL.path.dropFirst(base.standardizedFileURL.path.count + 1)) } } ?? [])
                .filter { file($0) != nil }.sorted()
        }
        return EmbeddedFiles.base64.keys.filter { $0.hasPrefix(folder + "/") }.sorted()
    }

    /// The file at `path` below Web/ (no leading slash), or nil. A path with an empty, `.` or `..`
    /// component, a backslash or a NUL is nobody's file.
    public func file(_ path: String) -> File? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.hasPrefix(".") }),
              !path.contains("\\"), !path.contains("\0") else { return nil }
        if let root {
            guard let bytes = try? Data(contentsOf: root.appendingPathComponent(path)) else { return nil }
            return Self.make(path, bytes)
        }
        if let cached = decoded.withLockedValue({ $0[path] }) { return cached }
        guard let base64 = EmbeddedFiles.base64[path], let bytes = Data(base64Encoded: base64) else { return nil }
        let file = Self.make(path, bytes)
        decoded.withLockedValue { $0[path] = file }
        return file
    }

    static func make(_ path: String, _ bytes: Data) -> File {
        let digest = SHA256Hasher.hex(of: bytes).prefix(24)  // the digest's first 12 bytes
        return File(bytes: bytes, contentType: contentType(of: path), etag: "\"\(digest)\"")
    }

    static func contentType(of path: String) -> String {
        switch path.split(separator: ".").last.map({ $0.lowercased() }) ?? "" {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json": "application/json; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        case "woff2": "font/woff2"
        case "woff": "font/woff"
        case "ttf": "font/ttf"
        case "otf": "font/otf"
        case "txt", "md": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
