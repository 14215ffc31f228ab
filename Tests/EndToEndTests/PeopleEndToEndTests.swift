import Foundation
import Testing
import TestSupport

/// People through the command line: the roll's two portrait subjects ("Ana", "Tom", named in
/// their files' XMP) each cluster into one person with that name; a copy stripped of its XMP is
/// still recognised and named; `people name`, `merge` and `forget` change what `list --person`,
/// `Albums/People/` and a `rebuild` show.
@Suite(.serialized) struct PeopleEndToEndTests {
    static func analysedRoll(seed: Int = 21) throws -> (TestRoll.Made, ShoeboxCLI) {
        let made = try TestRoll.make(seed: seed, count: 60, arguments: ["--portraits", "0.5", "--no-heic"])
        let cli = try ShoeboxCLI.scanned(made)
        _ = try cli.json(["analyze"])
        return (made, cli)
    }

    static func people(_ cli: ShoeboxCLI) throws -> [[String: Any]] {
        try cli.json(["people", "list"]) as! [[String: Any]]
    }

    @Test func eachPortraitSubjectIsOnePersonNamedFromXMP() throws {
        let (made, cli) = try Self.analysedRoll()
        let people = try Self.people(cli)
        for name in ["Ana", "Tom"] {
            let truth = Set(made.entries.filter { $0.persons.contains { $0.name == name } }.map(\.path))
            #expect(truth.count >= 10, "the roll has \(truth.count) photos of \(name)")
            let named = people.filter { $0["name"] as? String == name }
            #expect(named.count == 1, "\(name): \(named)")
            let listed = Set(try cli.assetsByPath(["--person", name]).keys)
            let found = truth.intersection(listed)
            #expect(Double(found.count) >= 0.9 * Double(truth.count), "\(name): \(found.count) of \(truth.count) listed")
            #expect(listed.subtracting(truth).isEmpty, "\(name) listed on \(listed.subtracting(truth))")
        }
        // Nobody else with several photos: the subjects were not split into several people.
        #expect(people.filter { ($0["name"] as? String) == nil && ($0["photos"] as? Int ?? 0) >= 3 }.isEmpty, "\(people)")
    }

    @Test func aCopyWithoutItsXMPIsRecognisedAndNamed() throws {
        let (made, cli) = try Self.analysedRoll()
        let portrait = made.entries.first { $0.format == "jpeg" && $0.persons.count == 1 && $0.persons[0].name == "Ana" }!
        let copies = cli.library.appendingPathComponent("Copies")
        try FileManager.default.createDirectory(at: copies, withIntermediateDirectories: true)
        let copy = copies.appendingPathComponent("no-xmp.jpg")
        try FileManager.default.copyItem(at: made.root.appendingPathComponent(portrait.path), to: copy)
        try TestRoll.run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-XMP:all=", copy.path])
        #expect(try cli.run(["scan"]).status == 0)
        _ = try cli.json(["analyze"])
        let a = try cli.json(["show", "Copies/no-xmp.jpg"]) as! [String: Any]
        #expect(a["persons"] as? [String] == ["Ana"], "\(a["persons"] ?? "nil")")
        let faces = a["faces"] as? [[String: Any]] ?? []
        #expect(faces.count == 1 && faces[0]["source"] as? String == "detected" && faces[0]["name"] as? String == "Ana")
    }

    @Test func nameMergeAndForgetReachListingsAlbumsAndRebuild() throws {
        let (_, cli) = try Self.analysedRoll()
        let tom = try Self.people(cli).first { $0["name"] as? String == "Tom" }!
        let tomID = tom["id"] as! String
        // Name by id.
        let renamed = try cli.json(["people", "name", tomID, "Thomas"]) as! [String: Any]
        #expect(renamed["name"] as? String == "Thomas")
        let thomas = try cli.assetsByPath(["--person", "Thomas"])
        #expect(thomas.count == tom["photos"] as? Int)
        // "Tom" stays only where the file says so and no face of the person was found in it.
        for (path, a) in try cli.assetsByPath(["--person", "Tom"]) {
            let faces = a["faces"] as? [[String: Any]] ?? []
            #expect(!faces.contains { $0["person"] as? String == tomID }, "\(path) still says Tom")
        }
        let album = cli.library.appendingPathComponent("Albums/People/Thomas")
        #expect(try FileManager.default.contentsOfDirectory(atPath: album.path).count == thomas.count)
        // The names live in the sidecars: a rebuild keeps them.
        #expect(try cli.run(["rebuild"]).status == 0)
        #expect(try Self.people(cli).first { $0["id"] as? String == tomID }?["name"] as? String == "Thomas")
        // Merge Ana into Thomas: one person, Thomas's name, both sets of photos.
        let ana = try Self.people(cli).first { $0["name"] as? String == "Ana" }!
        let merged = try cli.json(["people", "merge", "Thomas", ana["id"] as! String]) as! [String: Any]
        #expect(merged["name"] as? String == "Thomas")
        #expect(merged["photos"] as? Int == (tom["photos"] as! Int) + (ana["photos"] as! Int))
        #expect(try Self.people(cli).filter { $0["name"] as? String == "Ana" }.isEmpty)
        // Forget one face: its photo leaves the person.
        let face = merged["face"] as! [String: Any]
        let assetID = face["asset_id"] as! String
        let r = try cli.run(["people", "forget", face["id"] as! String])
        #expect(r.status == 0, "\(r.stderr)")
        let after = try cli.json(["show", assetID]) as! [String: Any]
        #expect(!(after["persons"] as? [String] ?? []).contains("Thomas") || (after["faces"] as? [[String: Any]] ?? []).count > 1)
        #expect((try Self.people(cli).first { $0["id"] as? String == tomID }?["photos"] as? Int ?? 0) < merged["photos"] as! Int)
    }

    /// Naming by a face (`<asset id>#n`, as `show` and `people list` print it) names the whole
    /// person, and the photo's own bytes never change: names live in Shoebox's sidecars.
    @Test func namingAFaceNamesItsPersonAndLeavesThePhotoAlone() throws {
        let (made, cli) = try Self.analysedRoll()
        let ana = try #require(try Self.people(cli).first { $0["name"] as? String == "Ana" })
        let face = ana["face"] as! [String: Any]
        let assetID = face["asset_id"] as! String
        let photo = made.root.appendingPathComponent((try cli.json(["show", assetID]) as! [String: Any])["path"] as! String)
        let bytesBefore = try Data(contentsOf: photo)
        let r = try cli.json(["people", "name", face["id"] as! String, "Ana Lima"]) as! [String: Any]
        #expect(r["id"] as? String == ana["id"] as? String && r["name"] as? String == "Ana Lima")
        #expect(try cli.assetsByPath(["--person", "Ana Lima"]).count == ana["photos"] as? Int)
        let album = cli.library.appendingPathComponent("Albums/People/Ana Lima")
        let linked = try FileManager.default.contentsOfDirectory(atPath: album.path)
        // Albums link one of byte-identical copies (SPEC): the person's photos less their copies.
        let originals = try cli.assetsByPath(["--person", "Ana Lima"]).values.filter { $0["duplicate_of"] is NSNull || $0["duplicate_of"] == nil }
        #expect(linked.count == originals.count && originals.count < ana["photos"] as! Int, "\(linked.sorted()) for \(originals.count) photos")
        #expect(try Data(contentsOf: photo) == bytesBefore, "the photo itself was written")
        #expect(try cli.run(["scan"]).stdout.contains("0 updated"))
    }

    @Test func badPeopleArgumentsSayWhatIsWrong() throws {
        let (_, cli) = try Self.analysedRoll()
        let unknown = try cli.run(["people", "name", "p999", "X"])
        #expect(unknown.status == 1)
        #expect(unknown.stderrLines.count == 1 && unknown.stderr.contains("p999"))
        let badFace = try cli.run(["people", "forget", "ffffffff#1"])
        #expect(badFace.status == 1)
        #expect(badFace.stderr.contains("ffffffff"))
        let slash = try cli.run(["people", "name", "p1", "a/b"])
        #expect(slash.status == 1)
        #expect(slash.stderr.contains("/"))
    }
}
