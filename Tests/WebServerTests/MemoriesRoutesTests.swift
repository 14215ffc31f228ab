import Foundation
import Testing
import TestSupport

/// Memories through HTTP (the `/memories` page's calls), checked through `shoebox memories …
/// --json` and `list --json` on the same library: the page's collage is the command's, byte for
/// byte, and nothing is saved until "Save".
@Suite(.serialized) struct MemoriesRoutesTests {
    typealias Object = [String: Any]

    /// A roll of 80 photos, most of them portraits of Ana and Tom (named in their XMP), scanned
    /// and analysed once for the suite (faces, people, scores, previews); each test serves a copy.
    static let analysed: Result<TestRoll.Made, Error> = Result {
        let made = try TestRoll.make(seed: 31, count: 80, arguments: ["--portraits", "0.7", "--long-side", "1024"])
        let cli = try ShoeboxCLI.scanned(made)
        let r = try cli.run(["analyze"])
        guard r.status == 0 else { throw NSError(domain: "analyze", code: 1, userInfo: [NSLocalizedDescriptionKey: r.stderr]) }
        return made
    }

    static func library() throws -> ShoeboxCLI {
        let made = try analysed.get()
        let copy = Scratch.root.appendingPathComponent("shoebox-memories-web-\(UUID().uuidString)")
        try TestRoll.run("/bin/cp", ["-a", made.root.path, copy.path])
        // The copies have new inodes: a scan takes them for the same files (the originals are
        // opened only while the index knows their inode).
        let cli = ShoeboxCLI(library: copy)
        let r = try cli.run(["scan"])
        guard r.status == 0 else { throw NSError(domain: "scan", code: 1, userInfo: [NSLocalizedDescriptionKey: r.stderr]) }
        return cli
    }

    static func cells(_ json: Any?) -> [String] {
        ((json as? Object)?["cells"] as? [Object] ?? []).map { c in
            String(decoding: (try? JSONSerialization.data(withJSONObject: c, options: .sortedKeys)) ?? Data(), as: UTF8.self)
        }
    }

    static func collages(_ cli: ShoeboxCLI) throws -> [Object] {
        (try cli.json(["list"]) as? [Object] ?? []).filter { ($0["path"] as? String)?.hasPrefix("Collages/") == true }
    }

    @Test func theSourcesAreTheCommandsWithEachPersonsFace() throws {
        let cli = try Self.library()
        let served = try ServedLibrary(cli)
        for range in ["all", "last-5-years"] {
            let shown = try #require(try served.json("/api/memories/sources?range=\(range)") as? Object)
            let listed = try #require(try cli.json(["memories", "sources", "--range", range]) as? Object)
            #expect(shown["range"] as? String == range)
            for key in ["years", "places"] {
                #expect((shown[key] as? NSArray) == (listed[key] as? NSArray), "\(key) of \(range) as `memories sources` lists them")
            }
            let people = shown["people"] as? [Object] ?? []
            let strip = people.map { p in p.filter { $0.key != "face" } as NSDictionary }
            #expect(strip == (listed["people"] as? [NSDictionary] ?? []), "people of \(range)")
            if range == "all" { #expect(Set(people.compactMap { $0["name"] as? String }) == ["Ana", "Tom"], "\(people)") }
            let faces = Dictionary(uniqueKeysWithValues: (try cli.json(["people", "list"]) as? [Object] ?? []).map { ($0["id"] as! String, $0["face"] as! NSDictionary) })
            for p in people {
                #expect((p["face"] as? NSDictionary) == faces[p["id"] as! String], "\(p["name"] ?? "") has the face /people shows")
            }
        }
        #expect(try served.request("/api/memories/sources?range=last-decade").status == 400)
    }

    @Test func aCollageIsTheCommandsBytesAndIsSavedOnlyOnSave() throws {
        let cli = try Self.library()
        let served = try ServedLibrary(cli)
        let year = try #require(((try cli.json(["memories", "sources"]) as? Object)?["years"] as? [Object])?.first { ($0["count"] as? Int ?? 0) >= 6 }?["year"] as? Int)
        let made = try served.post("/api/memories/collage", ["year": year, "seed": 3])
        #expect(made.status == 200, "\(made.text)")
        let answer = try #require(try made.json() as? Object)
        let out = Scratch.root.appendingPathComponent("shoebox-memories-web-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: out) }
        let command = try #require(try cli.json(["memories", "collage", "--year", String(year), "--seed", "3", "-o", out.path]) as? Object)
        #expect(Self.cells(answer) == Self.cells(command), "the page's cells are the command's")
        #expect(answer["seed"] as? Int == 3 && answer["path"] is NSNull && answer["asset_id"] is NSNull)
        #expect(answer["width"] as? Int == 1200 && answer["height"] as? Int == 1500)
        let url = try #require(answer["url"] as? String)
        let jpeg = try served.request(url)
        #expect(jpeg.status == 200 && jpeg.headers["content-type"] == "image/jpeg")
        #expect(jpeg.body == (try Data(contentsOf: out)), "the same seed gives the same bytes as `memories collage -o`")
        #expect(try Self.collages(cli).isEmpty, "nothing saved before Save")
        let other = try #require(try served.post("/api/memories/collage", ["year": year, "seed": "4"]).json() as? Object)
        #expect(other["render"] as? String != answer["render"] as? String)

        let saved = try #require(try served.post("/api/memories/save", ["render": answer["render"]!]).json() as? Object)
        let path = try #require(saved["path"] as? String)
        #expect(path.hasPrefix("Collages/\(year) ") && path.hasSuffix(".jpg"))
        #expect(saved["already_saved"] as? Bool == false)
        #expect(((saved["asset"] as? Object)?["id"] as? String) == saved["asset_id"] as? String)
        let listed = try Self.collages(cli)
        #expect(listed.map { $0["path"] as? String } == [path], "`list --json` has the collage in Collages/")
        #expect(listed.first?["id"] as? String == saved["asset_id"] as? String)
        #expect(try Data(contentsOf: cli.library.appendingPathComponent(path)) == jpeg.body, "the file saved is the collage shown")
        let again = try #require(try served.post("/api/memories/save", ["render": answer["render"]!]).json() as? Object)
        #expect(again["asset_id"] as? String == saved["asset_id"] as? String && again["already_saved"] as? Bool == true)
        #expect(try Self.collages(cli).count == 1, "a second tap saves no copy")
    }

    @Test func aPersonByNameIsTheCommandsCollage() throws {
        let cli = try Self.library()
        let served = try ServedLibrary(cli)
        let made = try served.post("/api/memories/collage", ["person": "Ana", "range": "all", "seed": 1])
        #expect(made.status == 200, "\(made.text)")
        let answer = try #require(try made.json() as? Object)
        let command = try cli.json(["memories", "collage", "--person", "Ana"])
        #expect(Self.cells(answer) == Self.cells(command) && Self.cells(answer).count == 6)
        #expect((answer["source"] as? Object)?["person"] as? String == "Ana")
        #expect(answer["name"] as? String == "Ana, seed 1.jpg")
    }

    @Test func badRequestsAndEmptySourcesSayWhatIsWrong() throws {
        let cli = try Self.library()
        let served = try ServedLibrary(cli)
        for body: Object in [[:], ["year": 2020, "place": "Lisbon"], ["year": "twenty"], ["year": true], ["place": "  "],
                             ["person": "Ana", "seed": -1], ["person": "Ana", "seed": 1.5], ["person": "Ana", "range": "ever"],
                             ["person": String(repeating: "a", count: 300)], ["place": "Lis\u{0}bon"]] {
            let r = try served.post("/api/memories/collage", body)
            #expect(r.status == 400 && (try? r.json() as? Object)?["code"] as? String == "invalid_argument", "\(body): \(r.status) \(r.text)")
        }
        let none = try served.post("/api/memories/collage", ["year": 1901])
        #expect(none.status == 404 && none.text.contains("No photos from 1901"), "\(none.text)")
        let nobody = try served.post("/api/memories/collage", ["person": "Nobody"])
        #expect(nobody.status == 404 && nobody.text.contains("at least 10 photos"), "\(nobody.text)")
        #expect(try served.post("/api/memories/save", ["render": "0123456789abcdef0123456789abcdef"]).status == 404)
        #expect(try served.post("/api/memories/save", ["render": "../../etc/passwd"]).status == 400)
        #expect(try served.request("/media/render/0123456789abcdef0123456789abcdef.jpg").status == 404)
        #expect(try Self.collages(cli).isEmpty)
    }
}
