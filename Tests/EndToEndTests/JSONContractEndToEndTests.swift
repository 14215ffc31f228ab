import Foundation
import Testing
import TestSupport

/// The public JSON contract, pinned from outside: the field names of every shape a command
/// prints with `--json`, read from the output of the built binary on a real scanned library.
/// Scripts rely on these names; renaming or dropping one must fail here (adding one is allowed,
/// and then this list grows with it).
@Suite(.serialized)
struct JSONContractEndToEndTests {
    static let asset: Set<String> = [
        "id", "path", "kind", "format", "size", "width", "height", "taken_at", "taken_at_source", "year", "gps", "place",
        "persons", "faces", "score", "is_utility", "sha256", "similar_group", "duplicate_of", "live_video", "state",
        "orientation", "make", "model", "duration", "mtime", "first_seen", "trash_name", "deletion_date",
        "xmp_sidecar", "rating", "keywords", "raw_type", "raw_file", "analyzed", "damaged", "phash", "score_detail",
    ]
    /// A face: `name` and `person` only when known.
    static let face: Set<String> = ["x", "y", "w", "h", "source"]
    static let faceOptional: Set<String> = ["name", "person"]
    static let analyzeReport: Set<String> = ["analyzed", "damaged", "faces", "left", "problems"]
    static let person: Set<String> = ["id", "name", "photos", "faces", "face"]
    static let personFace: Set<String> = ["id", "asset_id", "x", "y", "w", "h"]
    static let fileProblem: Set<String> = ["path", "reason", "still_being_written"]
    static let scanCounts: Set<String> = [
        "added", "updated", "moved", "returned", "removed", "unchanged", "duplicates", "failed", "skipped", "warnings",
        "bytes_read", "seconds", "removed_from_albums", "not_indexed",
    ]
    /// A file a scan left alone (issue 32).
    static let notIndexed: Set<String> = ["path", "reason", "kind"]
    /// `albums_off` only when the file system has no symbolic links (never on the test's).
    static let scanOptional: Set<String> = ["albums_off"]
    static let albumSummary: Set<String> = ["name", "kind", "path", "count"]
    static let albumEntry: Set<String> = ["position", "link", "id", "path"]
    static let trashItem: Set<String> = ["id", "name", "original_path", "deletion_date", "days_left", "size", "problem"]
    static let purgedItem: Set<String> = ["id", "name", "original_path", "size"]
    static let restoredItem: Set<String> = ["id", "path"]
    static let doctorCheck: Set<String> = ["name", "status", "detail"]

    /// A copy of the sample library with a text file named like a photo (a file the scan fails
    /// on) and a symbolic link (one it skips), so that the scan report's problem lists are not empty.
    static func libraryWithProblems() throws -> (ShoeboxCLI, TestRoll.Made) {
        let made = try TestRoll.sampleCopy()
        let photo = try #require(made.entries.first { $0.format == "jpeg" && $0.live_photo_of == nil })
        try Data("shopping list\n".utf8).write(to: made.root.appendingPathComponent("not a photo.jpg"))
        try FileManager.default.createSymbolicLink(atPath: made.root.appendingPathComponent("a link.jpg").path,
                                                   withDestinationPath: photo.path)
        return (ShoeboxCLI(library: made.root), made)
    }

    static func object(_ value: Any?) throws -> [String: Any] { try #require(value as? [String: Any], "\(String(describing: value))") }
    static func array(_ value: Any?) throws -> [[String: Any]] { try #require(value as? [[String: Any]], "\(String(describing: value))") }

    /// The keys of `object` are `required` plus any of `optional`: nothing renamed, nothing lost.
    static func expectKeys(_ object: [String: Any], _ required: Set<String>, optional: Set<String> = [],
                           _ shape: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let keys = Set(object.keys)
        #expect(keys.isSuperset(of: required), "\(shape) lacks \(required.subtracting(keys).sorted())", sourceLocation: sourceLocation)
        #expect(keys.isSubset(of: required.union(optional)),
                "\(shape) has fields this test does not pin: \(keys.subtracting(required.union(optional)).sorted())",
                sourceLocation: sourceLocation)
    }

    static func expectScanReport(_ report: [String: Any], _ shape: String) throws {
        expectKeys(report, scanCounts, optional: scanOptional, shape)
        for list in ["failed", "skipped", "warnings"] {
            for problem in try array(report[list]) { expectKeys(problem, fileProblem, "\(shape).\(list)[]") }
        }
        for file in try array(report["not_indexed"]) { expectKeys(file, notIndexed, "\(shape).not_indexed[]") }
    }

    @Test func theShapesOfAnalyzeAndPeople() throws {
        let made = try TestRoll.sampleCopy()
        let cli = try ShoeboxCLI.scanned(made)
        let report = try Self.object(try cli.json(["analyze"]))
        Self.expectKeys(report, Self.analyzeReport, "analyze")
        for p in try Self.array(report["problems"]) { Self.expectKeys(p, ["path", "reason", "still_being_written"], "analyze.problems[]") }
        var faces = 0
        for a in try Self.array(try cli.json(["list"])) {
            for f in try Self.array(a["faces"]) { Self.expectKeys(f, Self.face, optional: Self.faceOptional, "list[].faces[]"); faces += 1 }
        }
        #expect(faces > 0)
        let people = try Self.array(try cli.json(["people", "list"]))
        #expect(!people.isEmpty)
        for p in people {
            Self.expectKeys(p, Self.person, "people list[]")
            Self.expectKeys(try Self.object(p["face"]), Self.personFace, "people list[].face")
        }
        let named = try Self.object(try cli.json(["people", "name", people[0]["id"] as! String, "Someone"]))
        Self.expectKeys(named, Self.person, "people name")
    }

    @Test func theShapesOfInitScanListShowRebuildAndDoctor() throws {
        let (cli, made) = try Self.libraryWithProblems()
        Self.expectKeys(try Self.object(try cli.json(["init"])), ["root", "index"], "init")
        let scan = try Self.object(try cli.json(["scan"]))
        try Self.expectScanReport(scan, "scan")
        #expect(try Self.array(scan["failed"]).map { $0["path"] as? String } == ["not a photo.jpg"])
        #expect(try Self.array(scan["skipped"]).map { $0["path"] as? String } == ["a link.jpg"])

        let assets = try Self.array(try cli.json(["list"]))
        #expect(assets.count == made.entries.filter { $0.live_photo_of == nil }.count)
        for a in assets { Self.expectKeys(a, Self.asset, "list[]") }
        let livePhoto = try #require(made.entries.first { $0.live_video != nil })
        let shown = try Self.object(try cli.json(["show", livePhoto.path]))
        Self.expectKeys(shown, Self.asset, "show")
        #expect(shown["live_video"] as? String == livePhoto.live_video)

        let rebuild = try Self.object(try cli.json(["rebuild"]))
        Self.expectKeys(rebuild, ["sidecars", "bad_sidecars", "sidecars_from_index", "scan"], "rebuild")
        let sidecars = try FileManager.default.contentsOfDirectory(atPath: made.root.appendingPathComponent(".shoebox/sidecars").path)
        #expect(rebuild["sidecars"] as? Int == sidecars.filter { $0.hasSuffix(".json") }.count)
        try Self.expectScanReport(try Self.object(rebuild["scan"]), "rebuild.scan")

        let doctor = try Self.object(try cli.json(["doctor"]))
        Self.expectKeys(doctor, ["checks"], "doctor")
        let checks = try Self.array(doctor["checks"])
        for c in checks { Self.expectKeys(c, Self.doctorCheck, optional: ["fix"], "doctor.checks[]") }
        // The file that is not a photo is a warning with a fix: the optional field where it belongs.
        let unindexable = try #require(checks.first { $0["name"] as? String == "unindexable" })
        Self.expectKeys(unindexable, Self.doctorCheck.union(["fix"]), "doctor.checks[unindexable]")
    }

    @Test func theShapesOfTrashRestoreAndPurge() throws {
        let made = try TestRoll.sampleCopy()
        let cli = try ShoeboxCLI.scanned(made)
        let photos = made.entries.filter { $0.live_photo_of == nil && $0.live_video == nil }.prefix(2).map(\.path)
        let trashed = try Self.array(try cli.json(["trash", photos[0], photos[1]]))
        #expect(Set(trashed.compactMap { $0["original_path"] as? String }) == Set(photos))
        for item in trashed { Self.expectKeys(item, Self.trashItem, "trash[]") }
        for item in try Self.array(try cli.json(["trash", "list"])) { Self.expectKeys(item, Self.trashItem, "trash list[]") }

        let restored = try Self.array(try cli.json(["restore", photos[0]]))
        #expect(restored.map { $0["path"] as? String } == [photos[0]])
        for item in restored { Self.expectKeys(item, Self.restoredItem, optional: ["note"], "restore[]") }

        // Thirty-one days later the other one is purged for good.
        let later = try cli.run(["trash", "purge", "--json"], extraEnvironment: ["SHOEBOX_NOW": "2099-01-01T00:00:00Z"])
        #expect(later.status == 0, "\(later.stderr)")
        let purged = try Self.array(try JSONSerialization.jsonObject(with: Data(later.stdout.utf8)))
        #expect(purged.map { $0["original_path"] as? String } == [photos[1]])
        for item in purged { Self.expectKeys(item, Self.purgedItem, "trash purge[]") }
        #expect(!FileManager.default.fileExists(atPath: made.root.appendingPathComponent(photos[1]).path))
    }

    /// Every album command prints with `--json`; `remove`, `order` and `delete` print the album
    /// as it now is (or, for `delete`, what was deleted), and do what they did without it.
    @Test func everyAlbumCommandPrintsItsAlbum() throws {
        let made = try TestRoll.sampleCopy()
        let cli = try ShoeboxCLI.scanned(made)
        for album in try Self.array(try cli.json(["album", "list"])) {
            Self.expectKeys(album, Self.albumSummary, "album list[] (generated)")
        }
        let byPath = try cli.assetsByPath()
        let paths = made.entries.filter { $0.live_photo_of == nil && $0.duplicate_of == nil }.prefix(3).map(\.path)
        let ids = try paths.map { try #require(byPath[$0]?["id"] as? String) }
        func expectAlbum(_ album: [String: Any], _ command: String, holds expected: [String]) throws {
            Self.expectKeys(album, Self.albumSummary.union(["id", "entries"]), "album \(command)")
            let entries = try Self.array(album["entries"])
            for e in entries { Self.expectKeys(e, Self.albumEntry, "album \(command).entries[]") }
            #expect(entries.map { $0["id"] as? String } == expected, "album \(command)")
            #expect(entries.map { $0["position"] as? Int } == Array(1..<(expected.count + 1)))
            #expect(album["count"] as? Int == expected.count)
        }
        try expectAlbum(try Self.object(try cli.json(["album", "create", "Trip", ids[0], ids[1]])), "create", holds: [ids[0], ids[1]])
        try expectAlbum(try Self.object(try cli.json(["album", "add", "Trip", ids[2]])), "add", holds: ids)
        try expectAlbum(try Self.object(try cli.json(["album", "remove", "Trip", ids[1]])), "remove", holds: [ids[0], ids[2]])
        try expectAlbum(try Self.object(try cli.json(["album", "order", "Trip", ids[2]])), "order", holds: [ids[2], ids[0]])
        try expectAlbum(try Self.object(try cli.json(["album", "show", "Trip"])), "show", holds: [ids[2], ids[0]])
        // The folder agrees: the photo put first is the first link.
        let folder = made.root.appendingPathComponent("Albums/Trip")
        let links = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(links.count == 2 && links[0].hasSuffix((paths[2] as NSString).lastPathComponent), "\(links)")

        let deleted = try Self.object(try cli.json(["album", "delete", "Trip"]))
        Self.expectKeys(deleted, Self.albumSummary.union(["id"]), "album delete")
        #expect(deleted["name"] as? String == "Trip" && deleted["path"] as? String == "Albums/Trip" && deleted["count"] as? Int == 2)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        #expect(try Self.array(try cli.json(["album", "list"])).allSatisfy { $0["name"] as? String != "Trip" })
        for p in paths { #expect(FileManager.default.fileExists(atPath: made.root.appendingPathComponent(p).path)) }
    }

    /// Without `--json` the new album options change nothing: one line on stdout, as before.
    @Test func albumCommandsWithoutJSONStillPrintALine() throws {
        let made = try TestRoll.sampleCopy()
        let cli = try ShoeboxCLI.scanned(made)
        let id = try #require(try cli.assetsByPath().values.first?["id"] as? String)
        #expect(try cli.run(["album", "create", "Solo", id]).status == 0)
        let removed = try cli.run(["album", "remove", "Solo", id])
        #expect(removed.status == 0 && removed.stdout == "Took 1 out of \"Solo\".\n")
        let deleted = try cli.run(["album", "delete", "Solo"])
        #expect(deleted.status == 0 && deleted.stdout.hasPrefix("Deleted the album \"Solo\""))
    }
}
