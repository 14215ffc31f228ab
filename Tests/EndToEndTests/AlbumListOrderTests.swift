import Foundation
import Testing
import TestSupport

/// Issue 32: `album list` groups albums — the user's, then years (oldest first), places, people,
/// screenshots, videos, each kind by name — where years, places and people came interleaved in
/// capture order.
@Suite struct AlbumListOrderTests {
    @Test func albumListGroupsAlbumsByKind() throws {
        let made = try TestRoll.sampleCopy()
        let cli = try ShoeboxCLI.scanned(made)
        let photo = try #require(made.entries.first { $0.format == "jpeg" && $0.live_photo_of == nil })
        #expect(try cli.run(["album", "create", "Zebra trip", photo.path]).status == 0)
        let albums = try #require(try cli.json(["album", "list"]) as? [[String: Any]])
        let kinds = albums.compactMap { $0["kind"] as? String }
        let rank = ["user", "year", "place", "person", "screenshots", "videos"]
        let ranks = kinds.map { rank.firstIndex(of: $0) ?? -1 }
        #expect(!ranks.contains(-1) && ranks == ranks.sorted(), "\(kinds)")
        #expect(Set(kinds).isSuperset(of: ["user", "year", "place", "person"]), "\(kinds)")
        for kind in ["year", "place", "person"] {
            let paths = albums.filter { $0["kind"] as? String == kind }.compactMap { $0["path"] as? String }
            #expect(paths == paths.sorted { $0.localizedStandardCompare($1) == .orderedAscending }, "\(kind): \(paths)")
        }
        // The text listing is in the same order.
        let lines = try cli.run(["album", "list"]).stdout.split(separator: "\n")
        #expect(lines.count == albums.count)
        #expect(lines.first?.contains("Zebra trip") == true && lines[1].contains("Years/"), "\(lines)")
    }
}
