import Foundation
import Testing
import TestSupport

/// `curate add` with the real analysis pipeline: whatever score it produces (none until the
/// scorer is merged, then the scorer's), the list is ordered by it.
@Suite struct CurationAnalysisTests {
    @Test func addWaitsForTheAnalysisAndRanksByItsScores() throws {
        let made = try TestRoll.make(seed: 37, count: 4, arguments: ["--no-heic", "--videos", "2"])
        let cli = try ShoeboxCLI.scanned(made)
        let listed = try cli.assetsByPath()
        #expect(listed.values.allSatisfy { $0["analyzed"] as? Bool == false })
        // One file changed since the scan: it cannot be analysed, and says so in one line.
        let photos = listed.filter { $0.value["kind"] as? String == "photo" }.keys.sorted()
        let changed = try #require(photos.first)
        let handle = try FileHandle(forWritingTo: made.root.appendingPathComponent(changed))
        handle.seekToEndOfFile()
        handle.write(Data("appended after the scan".utf8))
        try handle.close()
        let r = try cli.run(["curate", "add"] + listed.keys.sorted())
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderrLines.filter { $0.contains(changed) }.count == 1, "\(r.stderr)")
        // Every other file was analysed before `add` returned.
        let after = try cli.assetsByPath()
        for (path, a) in after where path != changed { #expect(a["analyzed"] as? Bool == true, "\(path) not analysed") }
        #expect(after[changed]?["analyzed"] as? Bool == false)
        // The list holds them all, in the order of the scores `show --json` gives.
        let items = try cli.json(["curate", "list"]) as? [[String: Any]] ?? []
        #expect(Set(items.map { $0["path"] as! String }) == Set(listed.keys))
        let shown = try items.map { try cli.json(["show", $0["id"] as! String]) as? [String: Any] ?? [:] }
        #expect(items.map { $0["id"] as! String } == expectedOrder(shown))
        #expect(zip(items, shown).allSatisfy { ($0["score"] as? Double) == ($1["score"] as? Double) })
        // Unscored ones after every scored one.
        let scored = items.map { $0["score"] as? Double != nil }
        #expect(scored == scored.sorted { $0 && !$1 })
    }
}
