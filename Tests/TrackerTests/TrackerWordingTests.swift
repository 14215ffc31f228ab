import Foundation
import Testing
import TestSupport

/// Issue 32: `tracker project add` prints the id the README promises (the sentence goes to
/// stderr; --json unchanged), and counts of one are singular ("1 recipe", not "1 recipes").
@Suite struct TrackerWordingTests {
    @Test func projectAddPrintsItsIdAndCountsOfOneAreSingular() throws {
        let t = try TrackerLibrary()
        let added = try t.must(t.cli.run(["tracker", "project", "add", "--game-system", "40k", "--army", "Ultramarines"]))
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!id.isEmpty && !id.contains(" "), "stdout is the id alone: \(added.stdout.debugDescription)")
        #expect(added.stderr.contains("Created the project \(id)"), "\(added.stderr)")
        let listed = try #require(try t.array(["project", "list"]).first)
        #expect(listed["id"] as? String == id)
        #expect(try t.object(["project", "add", "--game-system", "aos", "--army", "Nighthaunt"])["army"] as? String == "Nighthaunt")

        let mini = try t.mini(id)
        let recipe = try t.object(["recipe", "add", "--name", "Blue", "--type", "character", "--step", "Prime black",
                                   "--paint", "Macragge Blue", "--technique", "drybrush"])["id"] as! String
        try t.must(t.cli.run(["tracker", "recipe", "link", recipe, mini]))
        let shown = try t.must(t.cli.run(["tracker", "mini", "list"])).stdout
        #expect(shown.contains(", 1 recipe") && !shown.contains("recipe(s)") && !shown.contains("1 recipes"), "\(shown)")
        let recipes = try t.must(t.cli.run(["tracker", "recipe", "list"])).stdout
        #expect(recipes.contains("1 step, 1 paint, 1 technique"), "\(recipes)")
        let doctor = try t.cli.run(["doctor"]).stdout
        #expect(doctor.contains("2 projects, 1 miniature, 1 recipe, 0 photos"), "\(doctor)")
        #expect(!doctor.contains("1 files") && !doctor.contains("1 sidecars"), "\(doctor)")
    }
}
