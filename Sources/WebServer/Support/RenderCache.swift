import Foundation
import NIOConcurrencyHelpers

/// Images a page made and has not saved (the composer's story, a memory's collage): kept in
/// memory only — nothing touches the disk until the person asks — under a random token, each in
/// one or more renditions (the HEIC to keep, a JPEG a browser can show), served at
/// `/media/render/TOKEN.EXT` (RenderRoutes). Bounded by count and by bytes: the oldest go first,
/// so a page left open for days holds a few megabytes at most.
final class RenderCache: Sendable {
    /// One encoding of a render: its bytes, its Content-Type and the name a download suggests
    /// (whose extension, lower-cased, is the one its URL takes).
    struct Rendition: Sendable {
        var bytes: [UInt8]
        var contentType: String
        var filename: String
        var ext: String { (filename as NSString).pathExtension.lowercased() }
    }

    private struct Entry {
        var renditions: [Rendition]
        /// What it was made of (asset ids, top to bottom), for the answers about it.
        var sources: [String]
        /// What the render became in the library, once saved (so a second "Save" is the same photo).
        var saved: String?
        var size: Int { renditions.reduce(0) { $0 + $1.bytes.count } }
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var bytes = 0
    }

    private let state = NIOLockedValueBox(State())
    let capacity: Int
    let byteLimit: Int

    /// At most `capacity` renders and `byteLimit` bytes (one render bigger than that is still kept,
    /// alone: the newest always stays).
    init(capacity: Int = 12, byteLimit: Int = 48 << 20) {
        self.capacity = capacity
        self.byteLimit = byteLimit
    }

    /// Keeps `renditions` (made of `sources`) under a new token (32 lower-case hex digits: 128
    /// random bits), evicting the oldest renders beyond the bounds.
    func put(_ renditions: [Rendition], sources: [String] = []) -> String {
        let token = Self.newToken()
        let entry = Entry(renditions: renditions, sources: sources, saved: nil)
        state.withLockedValue { s in
            s.entries[token] = entry
            s.order.append(token)
            s.bytes += entry.size
            while s.order.count > 1, s.order.count > capacity || s.bytes > byteLimit {
                let old = s.order.removeFirst()
                s.bytes -= s.entries.removeValue(forKey: old)?.size ?? 0
            }
        }
        return token
    }

    /// The rendition of `token` whose extension is `ext` (nil: unknown, evicted, or no such one).
    func rendition(_ token: String, ext: String) -> Rendition? {
        state.withLockedValue { $0.entries[token]?.renditions.first { $0.ext == ext.lowercased() } }
    }

    /// What `token` was made of (empty when it is not held).
    func sources(_ token: String) -> [String] { state.withLockedValue { $0.entries[token]?.sources ?? [] } }

    /// Whether `token` is still held.
    func contains(_ token: String) -> Bool { state.withLockedValue { $0.entries[token] != nil } }

    /// The library asset `token` was saved as, if it was.
    func saved(_ token: String) -> String? { state.withLockedValue { $0.entries[token]?.saved } }

    func markSaved(_ token: String, as id: String) {
        state.withLockedValue { $0.entries[token]?.saved = id }
    }

    var count: Int { state.withLockedValue { $0.order.count } }
    var totalBytes: Int { state.withLockedValue { $0.bytes } }

    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let n = generator.next() as UInt64
            let hex = String(n, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// A token as URLs and bodies carry it, checked (32 lower-case hex digits) before any lookup.
    static func token(_ text: String) throws -> String {
        let u = text.utf8
        guard u.count == 32, u.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else {
            throw WebError(.badRequest, "not a render token: \(String(text.prefix(64)).debugDescription)", code: "invalid_argument")
        }
        return text
    }
}
