import Foundation
import Testing
import TestSupport

/// `shoebox memories` through the built binary on an analysed roll (`MemoryRoll`), checked
/// against the roll's manifest.
@Suite struct MemoriesEndToEndTests {
    @Test func sourcesAndCountsMatchTheManifest() throws {
        let roll = try MemoryRoll.get()
        let json = try roll.cli.json(["memories", "sources"]) as! [String: Any]
        let eligible = roll.eligible
        var years: [Int: Int] = [:]
        for e in eligible { if let t = e.taken_at, let y = Int(t.prefix(4)) { years[y, default: 0] += 1 } }
        let listedYears = (json["years"] as! [[String: Any]]).map { ($0["year"] as! Int, $0["count"] as! Int) }
        #expect(Dictionary(uniqueKeysWithValues: listedYears) == years)
        #expect(listedYears.map(\.0) == listedYears.map(\.0).sorted(by: >), "latest year first")

        var places: [String: Int] = [:]
        for e in eligible { if let city = e.city, let country = e.country { places["\(city), \(country)", default: 0] += 1 } }
        let listedPlaces = (json["places"] as! [[String: Any]]).map { ("\($0["city"] as! String), \($0["country"] as! String)", $0["count"] as! Int) }
        #expect(Dictionary(uniqueKeysWithValues: listedPlaces) == places)

        // People: the two portrait subjects, each with (nearly) every photo the manifest puts
        // them in (the detector may miss a face), and nobody else with 10 photos.
        let people = json["people"] as! [[String: Any]]
        #expect(Set(people.map { $0["name"] as! String }) == ["Ana", "Tom"], "\(people)")
        for p in people {
            let name = p["name"] as! String, count = p["count"] as! Int
            let truth = eligible.filter { $0.persons.contains { $0.name == name } }.count
            // Within 10 %: the recogniser may miss a face or take one subject for the other.
            #expect(truth >= 10 && abs(Double(count - truth)) <= 0.1 * Double(truth), "\(name): \(count) of \(truth)")
        }
    }

    @Test func theRangePresetsCountBackFromNow() throws {
        let roll = try MemoryRoll.get()
        let now = "2026-11-01T00:00:00Z"
        for (range, from) in [("last-year", "2025-11-01"), ("last-5-years", "2021-11-01")] {
            let r = try roll.cli.run(["memories", "sources", "--range", range, "--json"], extraEnvironment: ["SHOEBOX_NOW": now])
            #expect(r.status == 0, "\(r.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
            let start = ISO8601DateFormatter().date(from: from + "T00:00:00Z")!
            let iso = ISO8601DateFormatter()
            let truth = roll.eligible.filter { e in e.taken_at.flatMap { iso.date(from: $0) }.map { $0 >= start } ?? false }
            let total = (json["years"] as! [[String: Any]]).map { $0["count"] as! Int }.reduce(0, +)
            #expect(total == truth.count, "\(range): \(total) listed, \(truth.count) in the manifest")
            #expect(json["range"] as? String == range)
        }
    }

    /// Every cell of a person's collage shows that person, and its crop holds the whole face box
    /// the manifest gives (centre → top-left), for both people and several seeds.
    @Test func aPersonsCollageKeepsTheirWholeFaceInEveryCell() throws {
        let roll = try MemoryRoll.get()
        var mistaken = Set<String>()
        for name in ["Ana", "Tom"] {
            for seed in [1, 2, 3] {
                let json = try roll.collage(["--person", name, "--seed", String(seed)])
                let cells = MemoryRoll.cells(json)
                #expect(cells.count == 6)
                #expect(Set(cells.map(\.id)).count == 6, "a photo twice")
                for cell in cells {
                    let entry = try #require(roll.made.entry(cell.path))
                    // The recogniser took one subject for the other in a photo or two: its one face then.
                    if !entry.persons.contains(where: { $0.name == name }) { mistaken.insert(cell.path) }
                    let person = try #require(entry.persons.first { $0.name == name } ?? (entry.persons.count == 1 ? entry.persons[0] : nil),
                                              "\(cell.path) does not show \(name)")
                    let b = person.box, (x, y, w, h) = (b[0] - b[2] / 2, b[1] - b[3] / 2, b[2], b[3])
                    let c = cell.crop, eps = 1e-4
                    #expect(c[0] <= x + eps && c[1] <= y + eps && c[0] + c[2] >= x + w - eps && c[1] + c[3] >= y + h - eps,
                            "\(name) seed \(seed): \(cell.path) crop \(c) cuts the face \([x, y, w, h])")
                    // The crop has the cell's shape (582×484) in the upright photo's pixels.
                    let (W, H) = (Double(entry.upright_size[0]), Double(entry.upright_size[1]))
                    #expect(abs((c[2] * W) / (c[3] * H) - 582.0 / 484.0) < 0.01, "\(cell.path): crop \(c) of \(W)×\(H)")
                }
            }
        }
        #expect(mistaken.count <= 1, "photos of the other subject: \(mistaken)")
    }

    @Test func theSameSeedGivesTheSameBytesAndAnotherSeedReshuffles() throws {
        let roll = try MemoryRoll.get()
        let out = try scratchFolder()
        let before = files(under: roll.root)
        var bytes: [Data] = []
        var cells: [[String]] = []
        for (name, seed) in [("a.jpg", "5"), ("b.jpg", "5"), ("c.jpg", "6")] {
            let path = out.appendingPathComponent(name).path
            let json = try roll.collage(["--year", "2019", "--seed", seed, "-o", path])
            #expect(json["path"] as? String == path && json["asset_id"] is NSNull && (json["seed"] as? Int).map(String.init) == seed)
            bytes.append(try Data(contentsOf: URL(fileURLWithPath: path)))
            cells.append(MemoryRoll.cells(json).map(\.id))
        }
        #expect(bytes[0] == bytes[1] && cells[0] == cells[1])
        // Another seed reshuffles. The draw mixes the seed with the asset ids (a scan makes them
        // at random) and weighs it by score: on this roll's 2019 the best five photos win under
        // most seeds and one cell varies among a few, so one other seed draws the same six about
        // one time in three. The first of seeds 6…20 that draws otherwise.
        var reshuffled = bytes[0] != bytes[2] && cells[0] != cells[2]
        for seed in 7...20 where !reshuffled {
            reshuffled = MemoryRoll.cells(try roll.collage(["--year", "2019", "--seed", String(seed)])).map(\.id) != cells[0]
        }
        #expect(reshuffled, "seeds 6 to 20 all drew the photos of seed 5")
        // A 1200×1500 JPEG.
        #expect(bytes[0].prefix(2) == Data([0xFF, 0xD8]))
        let size = try TestRoll.run("/usr/bin/identify", ["-format", "%w %h %Q", out.appendingPathComponent("a.jpg").path]).stdout
        #expect(size == "1200 1500 90")
        // Nothing was written into the library without --save; a run without -o writes nothing.
        let plain = try roll.collage(["--year", "2019"])
        #expect(plain["path"] is NSNull)
        #expect(files(under: roll.root) == before)
    }

    /// Cells are the photos as they look upright and in colour: each JPEG cell equals the
    /// ImageMagick rendering of its crop of the original (`-auto-orient`, crop, resize), turned
    /// ones included.
    @Test func cellsShowTheUprightCropOfTheirPhoto() throws {
        let roll = try MemoryRoll.get()
        let out = try scratchFolder()
        var turned = 0, checked = 0
        for (i, source) in [["--person", "Ana"], ["--person", "Tom"], ["--year", "2016"], ["--place", "Barcelona"]].enumerated() {
            let path = out.appendingPathComponent("\(i).jpg").path
            let json = try roll.collage(source + ["-o", path])
            let layout = (json["cells"] as! [[String: Any]]).map { $0["cell"] as! [String: Int] }
            for (cell, box) in zip(MemoryRoll.cells(json), layout) {
                let entry = try #require(roll.made.entry(cell.path))
                guard entry.format == "jpeg" else { continue }
                let (W, H) = (Double(entry.upright_size[0]), Double(entry.upright_size[1])), c = cell.crop
                let crop = "\(Int((c[2] * W).rounded()))x\(Int((c[3] * H).rounded()))+\(Int((c[0] * W).rounded()))+\(Int((c[1] * H).rounded()))"
                let expected = try magickRGB(roll.root.appendingPathComponent(cell.path).path,
                                             ["-auto-orient", "-crop", crop, "+repage", "-resize", "582x484!"])
                let got = try magickRGB(path, ["-crop", "\(box["w"]!)x\(box["h"]!)+\(box["x"]!)+\(box["y"]!)", "+repage"])
                #expect(expected.count == got.count)
                let mean = zip(expected, got).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / max(1, got.count)
                #expect(mean <= 6, "\(cell.path) (orientation \(entry.orientation)): mean difference \(mean)")
                checked += 1
                if entry.orientation != 1 { turned += 1 }
            }
        }
        #expect(checked >= 10 && turned >= 1, "\(checked) cells checked, \(turned) turned")
    }

    @Test func placesMatchWithoutCaseOrAccents() throws {
        let roll = try MemoryRoll.get()
        let truth = Set(roll.eligible.filter { $0.city == "Reykjavík" }.map(\.path))
        var seen: [[String]] = []
        for spelling in ["Reykjavík", "reykjavik", "REYKJAVIK, iceland", "Reykjavík,Iceland"] {
            let cells = MemoryRoll.cells(try roll.collage(["--place", spelling, "--seed", "3"]))
            #expect(cells.allSatisfy { truth.contains($0.path) }, "\(spelling): \(cells.map(\.path))")
            seen.append(cells.map(\.id))
        }
        #expect(Set(seen.map { $0.joined() }).count == 1, "every spelling is the same place")
        // A country alone is a place too.
        let iceland = MemoryRoll.cells(try roll.collage(["--place", "iceland"]))
        #expect(iceland.allSatisfy { roll.made.entry($0.path)?.country == "Iceland" })
    }

    @Test func saveWritesIntoCollagesWhereItIsIndexed() throws {
        let roll = try MemoryRoll.get().writableCopy()
        let env = ["SHOEBOX_NOW": "2026-11-22T10:15:03Z", "TZ": "UTC"]
        let json = try roll.collage(["--person", "Ana", "--save"], env: env)
        let id = try #require(json["asset_id"] as? String)
        #expect(json["path"] as? String == "Collages/Ana 2026-11-22 10.15.03.jpg")
        let shown = try roll.cli.json(["show", id]) as! [String: Any]
        #expect(shown["path"] as? String == "Collages/Ana 2026-11-22 10.15.03.jpg")
        #expect(shown["width"] as? Int == 1200 && shown["height"] as? Int == 1500 && shown["format"] as? String == "jpeg")
        // The same name again: numbered, never replaced.
        let again = try roll.collage(["--person", "Ana", "--save"], env: env)
        #expect(again["path"] as? String == "Collages/Ana 2026-11-22 10.15.03 (2).jpg")
        #expect(again["asset_id"] as? String != id)
        // A link planted at the next name is neither followed nor replaced: the name after it is used.
        let outside = try scratchFolder()
        let victim = outside.appendingPathComponent("victim.jpg")
        try Data("mine".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(at: roll.root.appendingPathComponent("Collages/Ana 2026-11-22 10.15.03 (3).jpg"),
                                                   withDestinationURL: victim)
        let third = try roll.collage(["--person", "Ana", "--save"], env: env)
        #expect(third["path"] as? String == "Collages/Ana 2026-11-22 10.15.03 (4).jpg")
        #expect(try Data(contentsOf: victim) == Data("mine".utf8))
        try FileManager.default.removeItem(at: roll.root.appendingPathComponent("Collages/Ana 2026-11-22 10.15.03 (3).jpg"))
        // A scan finds nothing new (both are indexed); collages are not memories' photos.
        let scan = try roll.cli.run(["scan"])
        #expect((scan.stdout + scan.stderr).contains(" 0 added"), "\(scan.stdout)\(scan.stderr)")
        let sources = try roll.cli.json(["memories", "sources"]) as! [String: Any]
        let total = (sources["years"] as! [[String: Any]]).map { $0["count"] as! Int }.reduce(0, +)
        #expect(total == roll.eligible.count)
        // Collages/ itself a link to another folder: refused, nothing written there.
        let collages = roll.root.appendingPathComponent("Collages")
        try FileManager.default.moveItem(at: collages, to: roll.root.deletingLastPathComponent().appendingPathComponent("moved-collages"))
        try FileManager.default.createSymbolicLink(at: collages, withDestinationURL: outside)
        let refused = try roll.cli.run(["memories", "collage", "--person", "Ana", "--save"], extraEnvironment: env)
        #expect(refused.status == 1 && refused.stderrLines.last?.contains("Collages") == true, "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["victim.jpg"])
    }

    /// The same collage saved again after the first was deleted: the library knew those bytes
    /// (in Recently Deleted), and the save says where it is now and under which id, instead of
    /// "written but not indexed" (found by `bench/faults.py --seed 341322658`).
    @Test func theSameCollageSavedAgainAfterItWasDeletedIsIndexed() throws {
        let roll = try MemoryRoll.get().writableCopy()
        let env = ["SHOEBOX_NOW": "2026-11-22T10:15:03Z", "TZ": "UTC"]
        let first = try roll.collage(["--person", "Ana", "--seed", "520", "--save"], env: env)
        let id = try #require(first["asset_id"] as? String)
        let trashed = try roll.cli.run(["trash", id])
        #expect(trashed.status == 0, "\(trashed.stderr)")
        let again = try roll.cli.run(["memories", "collage", "--person", "Ana", "--seed", "520", "--save", "--json"],
                                     extraEnvironment: env)
        #expect(again.status == 0, "\(again.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        let path = try #require(json["path"] as? String)
        #expect(path.hasPrefix("Collages/Ana 2026-11-22 10.15.03"))
        let againID = try #require(json["asset_id"] as? String, "\(json)")
        let shown = try #require(try roll.cli.json(["show", againID]) as? [String: Any])
        #expect(shown["path"] as? String == path && shown["state"] as? String == "present", "\(shown)")
    }

    /// A chosen photo whose file cannot be decoded gives its cell to a spare; the others stay.
    @Test func aSpareStandsInForAFileThatFailsToDecode() throws {
        let roll = try MemoryRoll.get().writableCopy()
        let first = MemoryRoll.cells(try roll.collage(["--year", "2019", "--seed", "5"]))
        // No previews (every cell from its original), and one original broken under its name.
        #expect(try roll.cli.run(["cache", "clear"]).status == 0)
        let broken = first[2].path
        let url = roll.root.appendingPathComponent(broken)
        try FileManager.default.removeItem(at: url)  // a hard link to the shared roll: never written through
        try Data(repeating: 0x42, count: 5000).write(to: url)
        let r = try roll.cli.run(["memories", "collage", "--year", "2019", "--seed", "5", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let second = MemoryRoll.cells(json)
        #expect(second.count == 6 && !second.contains { $0.path == broken })
        #expect(Set(first.map(\.id)).subtracting([first[2].id]).isSubset(of: Set(second.map(\.id))))
        #expect(r.stderr.contains(broken) && (json["notes"] as? [String] ?? []).contains { $0.contains(broken) })
        #expect((json["cells"] as! [[String: Any]]).allSatisfy { $0["pixels"] as? String == "original" })
    }

    @Test func emptyStatesNameWhatIsMissing() throws {
        let roll = try MemoryRoll.get()
        for (args, text) in [(["--year", "1999"], "No photos from 1999"),
                             (["--place", "Atlantis"], "No photos from Atlantis"),
                             (["--person", "Nobody"], "No person \"Nobody\" with at least 10 photos")] {
            let r = try roll.cli.run(["memories", "collage"] + args)
            #expect(r.status == 1 && r.stderrLines.count == 1 && r.stderr.contains(text), "\(args): \(r.status) \(r.stderr)")
        }
        // Bad usage: no source, two sources, both outputs.
        for args in [[String](), ["--year", "2019", "--place", "Paris"], ["--year", "2019", "--save", "-o", "/tmp/x.jpg"]] {
            #expect(try roll.cli.run(["memories", "collage"] + args).status == 2, "\(args)")
        }
        // A library nobody analysed has no people yet, and says so.
        let fresh = try TestRoll.make(seed: 31, count: 6, arguments: ["--no-heic"])
        let cli = try ShoeboxCLI.scanned(fresh)
        let r = try cli.run(["memories", "sources"])
        #expect(r.status == 0 && r.stderr.contains("No people with at least 10 photos"), "\(r.stderr)")
        let json = try cli.json(["memories", "sources"]) as! [String: Any]
        #expect((json["people"] as? [Any])?.isEmpty == true)
        let person = try cli.run(["memories", "collage", "--person", "Ana"])
        #expect(person.status == 1 && person.stderr.contains("No person \"Ana\" with at least 10 photos"))
    }

    @Test func theOutputIsNeverALinkNorAnExistingFile() throws {
        let roll = try MemoryRoll.get()
        let out = try scratchFolder()
        let target = out.appendingPathComponent("target.jpg")
        try Data("mine".utf8).write(to: target)
        let link = out.appendingPathComponent("link.jpg")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        for path in [link.path, target.path] {
            let r = try roll.cli.run(["memories", "collage", "--year", "2019", "-o", path])
            #expect(r.status == 1 && r.stderrLines.count == 1 && r.stderr.contains(path), "\(r.stderr)")
        }
        #expect(try Data(contentsOf: target) == Data("mine".utf8))
        // A folder is not a file name.
        let folder = try roll.cli.run(["memories", "collage", "--year", "2019", "-o", out.path])
        #expect(folder.status == 1 && folder.stderr.contains("is a folder"), "\(folder.stderr)")
        // Inside the library: --save is the way.
        let inside = try roll.cli.run(["memories", "collage", "--year", "2019", "-o", roll.root.appendingPathComponent("x.jpg").path])
        #expect(inside.status == 1 && inside.stderr.contains("--save"))
        #expect(!FileManager.default.fileExists(atPath: roll.root.appendingPathComponent("x.jpg").path))
    }
}
