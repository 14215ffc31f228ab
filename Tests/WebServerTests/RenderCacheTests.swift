import Foundation
import Testing
@testable import WebServer

/// Renders kept in memory (the composer's story, a memory's collage): bounded by count and bytes,
/// the oldest going first, each under a token that is checked before any lookup.
@Suite struct RenderCacheTests {
    static func rendition(_ size: Int, _ name: String = "Story.heic") -> RenderCache.Rendition {
        .init(bytes: [UInt8](repeating: 7, count: size), contentType: "image/heic", filename: name)
    }

    @Test func theOldestGoFirstBeyondTheCountOrTheBytes() throws {
        let cache = RenderCache(capacity: 3, byteLimit: 1000)
        let a = cache.put([Self.rendition(100)]), b = cache.put([Self.rendition(100)]), c = cache.put([Self.rendition(100)])
        #expect([a, b, c].allSatisfy(cache.contains))
        let d = cache.put([Self.rendition(100)])
        #expect(!cache.contains(a) && [b, c, d].allSatisfy(cache.contains), "a fourth render pushes out the first")
        let big = cache.put([Self.rendition(600, "Story.jpg"), Self.rendition(250)])
        #expect(!cache.contains(b) && !cache.contains(c) && cache.contains(d) && cache.contains(big), "850 + 100 bytes fit, not 100 more")
        #expect(cache.totalBytes == 950 && cache.count == 2)
        let huge = cache.put([Self.rendition(5000)])
        #expect(cache.contains(huge) && cache.count == 1, "the newest stays even alone over the limit")
    }

    @Test func renditionsAreFoundByTheirExtensionAndTokensAreChecked() throws {
        let cache = RenderCache()
        let t = cache.put([Self.rendition(10, "Story 2026.jpg"), Self.rendition(20, "Story 2026.heic")], sources: ["x"])
        #expect(cache.rendition(t, ext: "jpg")?.bytes.count == 10 && cache.rendition(t, ext: "HEIC")?.bytes.count == 20)
        #expect(cache.rendition(t, ext: "png") == nil && cache.sources(t) == ["x"])
        #expect(t.count == 32 && (try? RenderCache.token(t)) == t)
        #expect(cache.put([]) != t, "a new token each time")
        for bad in ["", String(t.dropLast()), t.uppercased(), t + "0", "../" + t.dropFirst(3), String(repeating: "g", count: 32)] {
            #expect(throws: WebError.self) { try RenderCache.token(bad) }
        }
        let parsed = try RenderRoutes.parse("\(t).heic")
        #expect(parsed.token == t && parsed.ext == "heic")
        for bad in ["\(t)", "\(t).", "\(t).HEIC", "\(t).jpg.x", "\(t).toolong"] {
            #expect(throws: WebError.self) { try RenderRoutes.parse(bad) }
        }
    }
}
