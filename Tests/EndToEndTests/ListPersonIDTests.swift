import Foundation
import Testing
import TestSupport

/// Issue 32: `list --person` takes a person's id as `people list` prints it ("p3") as well as a
/// name; an id also finds the photos of a person nobody named.
@Suite struct ListPersonIDTests {
    @Test func listPersonTakesAnIdAsWellAsAName() throws {
        let made = try TestRoll.make(seed: 21, count: 40, arguments: ["--portraits", "0.5", "--no-heic"])
        let cli = try ShoeboxCLI.scanned(made)
        _ = try cli.json(["analyze"])
        let people = try #require(try cli.json(["people", "list"]) as? [[String: Any]])
        let ana = try #require(people.first { $0["name"] as? String == "Ana" }, "\(people)")
        let id = try #require(ana["id"] as? String)
        let byName = Set(try cli.assetsByPath(["--person", "Ana"]).keys)
        #expect(!byName.isEmpty)
        #expect(Set(try cli.assetsByPath(["--person", id]).keys) == byName, "--person \(id)")
        #expect(Set(try cli.assetsByPath(["--person", id.uppercased()]).keys) == byName, "--person \(id.uppercased())")
        // Every photo a face of that person is on, by the listing's own faces.
        let all = try cli.assetsByPath()
        let withFace = Set(all.filter { (_, a) in
            ((a["faces"] as? [[String: Any]]) ?? []).contains { $0["person"] as? String == id }
        }.keys)
        #expect(withFace.isSubset(of: byName))
        #expect(try cli.assetsByPath(["--person", "p999999"]).isEmpty)
        let r = try cli.run(["list", "--person", id])
        #expect(r.status == 0 && !r.stdout.isEmpty, "\(r.stderr)")
    }
}
