import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `shoebox curate` through the built binary on a generated roll.
@Suite struct CurationEndToEndTests {
    /// Ranking: score descending, unscored last, ties by capture time then id — the byte-identical
    /// copy and the edited copy share their originals' capture times, so ids decide there.
    @Test func ranksByScoreThenCaptureTimeThenId() throws {
        let c = try Curating.roll()
        let paths = c.photos
        let byPath = try c.assets()
        let ids = try paths.map(c.id)
        try c.add(paths)
        var rng = SplitMix64(seed: 17)
        var scores: [String: Double?] = [:]
        // Three tiers of equal scores, a few distinct ones, two unscored.
        for (i, id) in ids.enumerated() {
            switch i % 5 {
            case 0, 1: scores[id] = 0.5
            case 2: scores[id] = -0.25
            case 3: scores[id] = Double(rng.next() % 1000) / 1000
            default: scores.updateValue(i % 10 == 4 ? nil : 0.5, forKey: id)
            }
        }
        // The copies tie with their originals on score too.
        for (copy, original) in [("Downloads/copy of IMG_0766.JPG", "2016/2016-12 Tokyo/IMG_0766.JPG"),
                                 ("Shared/IMG_0772-edited.jpg", "2016/2016-12 Tokyo/IMG_0772.JPG")] {
            let a = try c.id(copy), b = try c.id(original)
            scores[a] = 0.75
            scores[b] = 0.75
            #expect(byPath[copy]?["taken_at"] as? String == byPath[original]?["taken_at"] as? String)
        }
        try c.setScores(scores)
        let items = try c.list()
        #expect(items.count == ids.count)
        #expect(items.map { $0["rank"] as? Int } == Array(1...ids.count).map { $0 })
        #expect(items.map { $0["id"] as! String } == expectedOrder(items))
        // Unscored ones are last.
        let firstUnscored = try #require(items.firstIndex { $0["score"] is NSNull })
        #expect(items[firstUnscored...].allSatisfy { $0["score"] is NSNull })
        // The list's asset fields are `show --json`'s.
        let show = try c.cli.json(["show", items[0]["id"] as! String]) as? [String: Any] ?? [:]
        #expect(show["path"] as? String == items[0]["path"] as? String && show["sha256"] as? String == items[0]["sha256"] as? String)
        // A changed score re-ranks at once: the last becomes the first.
        let last = items.last!["id"] as! String
        try c.setScores([last: 2])
        #expect(try c.listedIDs().first == last)
    }

    @Test func selectAndDeselectByRankAndById() throws {
        let c = try Curating.roll()
        let paths = Array(c.photos.prefix(8))
        try c.add(paths)
        let ids = try c.listedIDs()
        #expect(try c.selectedIDs().isEmpty)
        // Ranks, an id, an id prefix and a path.
        let rank6Path = try c.list()[5]["path"] as! String
        #expect(try c.cli.run(["curate", "select", "1", "3", ids[4], String(ids[6].prefix(13))]).status == 0)
        #expect(try c.cli.run(["curate", "select", c.root.appendingPathComponent(rank6Path).path]).status == 0)
        #expect(try c.selectedIDs() == Set([ids[0], ids[2], ids[4], ids[5], ids[6]]))
        #expect(try c.cli.run(["curate", "deselect", "3", ids[4]]).status == 0)
        #expect(try c.selectedIDs() == Set([ids[0], ids[5], ids[6]]))
        // Bad ranks, unknown ids and photos not in the list: one line, exit 1, nothing changed.
        let outside = try c.id(try #require(c.photos.first { !paths.contains($0) }))
        for bad in [["1", "99"], ["0"], ["nonexistent-photo.jpg"], [outside], ["2", "ffffffff-0000-0000-0000-000000000000"]] {
            let r = try c.cli.run(["curate", "select"] + bad)
            #expect(r.status == 1, "select \(bad): \(r.status)")
            #expect(r.stderrLines.count == 1, "select \(bad): \(r.stderr)")
            #expect(try c.selectedIDs() == Set([ids[0], ids[5], ids[6]]))
        }
        #expect(try c.cli.run(["curate", "select", "99"]).stderr.contains("no rank 99"))
        // No word at all is bad usage.
        #expect(try c.cli.run(["curate", "select"]).status == 2)
        #expect(try c.cli.run(["curate", "deselect"]).status == 2)
    }

    @Test func topReplacesTheSelectionUpToTheListSize() throws {
        let c = try Curating.roll()
        // Empty list: nothing to pick from.
        let empty = try c.cli.run(["curate", "top", "5"])
        #expect(empty.status == 1 && empty.stderr.contains("empty"))
        let paths = Array(c.photos.prefix(7))
        try c.add(paths)
        try c.setScores(Dictionary(uniqueKeysWithValues: try paths.enumerated().map { (try c.id($1), Double($0) / 10) }))
        let ids = try c.listedIDs()
        #expect(try c.cli.run(["curate", "select", "7"]).status == 0)
        #expect(try c.cli.run(["curate", "top", "1"]).status == 0)
        #expect(try c.selectedIDs() == [ids[0]])
        #expect(try c.cli.run(["curate", "top", "5"]).status == 0)
        #expect(try c.selectedIDs() == Set(ids.prefix(5)))
        // Fewer than N: all of them.
        let ten = try c.cli.json(["curate", "top", "10"]) as? [[String: Any]] ?? []
        #expect(ten.count == 7 && ten.allSatisfy { $0["selected"] as? Bool == true })
        #expect(try c.cli.run(["curate", "top", "20"]).status == 0)
        #expect(try c.selectedIDs() == Set(ids))
        // Only 1, 5, 10, 20.
        for n in ["0", "3", "21", "x"] { #expect(try c.cli.run(["curate", "top", n]).status == 2) }
        #expect(try c.selectedIDs() == Set(ids))
    }

    @Test func removeAndShareNeedASelection() throws {
        let c = try Curating.roll()
        let paths = Array(c.photos.prefix(4))
        try c.add(paths)
        let dir = try tempFolder("share")
        for args in [["curate", "remove"], ["curate", "share", "--to", dir.path]] {
            let r = try c.cli.run(args)
            #expect(r.status == 1)
            #expect(r.stderrLines == ["shoebox: error: must select photos"], "\(args): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path))
        #expect(try c.listedIDs().count == 4)
        // `share` without --to is bad usage.
        #expect(try c.cli.run(["curate", "share"]).status == 2)
        // With a selection, remove takes it out of the list, never a file.
        let ids = try c.listedIDs()
        #expect(try c.cli.run(["curate", "select", "2", "4"]).status == 0)
        let after = try c.cli.json(["curate", "remove"]) as? [[String: Any]] ?? []
        #expect(after.map { $0["id"] as! String } == [ids[0], ids[2]])
        #expect(after.allSatisfy { $0["selected"] as? Bool == false })
        for p in paths { #expect(FileManager.default.fileExists(atPath: c.root.appendingPathComponent(p).path)) }
        #expect(try c.cli.run(["curate", "remove"]).stderr.contains("must select photos"))
    }

    @Test func shareWritesTheOriginalsByteForByte() throws {
        let c = try Curating.roll()
        let live = "2016/2016-12 Tokyo/IMG_0758.HEIC"
        let picks = [live, "2016/2016-12 Tokyo/IMG_0761.JPG", "2023/2023-12 Honolulu/IMG_0773.JPG", "Downloads/copy of IMG_0766.JPG"]
        try c.add(picks)
        #expect(try c.cli.run(["curate", "top", "20"]).status == 0)
        let dir = try tempFolder("share")
        let shared = try c.cli.json(["curate", "share", "--to", dir.path]) as? [String: Any] ?? [:]
        let files = shared["files"] as? [[String: Any]] ?? []
        #expect(shared["to"] as? String == dir.path)
        // Every selected photo, plus the Live Photo's movie under the same stem.
        #expect(Set(files.map { $0["source"] as! String }) == Set(picks + ["2016/2016-12 Tokyo/IMG_0758.MOV"]))
        #expect(files.filter { $0["companion"] as? Bool == true }.map { $0["name"] as? String } == ["IMG_0758.MOV"])
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(Set(names) == Set(files.map { $0["name"] as! String }))
        for f in files {
            let original = c.root.appendingPathComponent(f["source"] as! String)
            let copy = URL(fileURLWithPath: f["path"] as! String)
            #expect(try Data(contentsOf: copy) == Data(contentsOf: original), "\(copy.path) differs from its original")
            // Same file system as the library here: hard links, the original's inode.
            #expect(f["method"] as? String == "link")
            #expect(inode(copy) == inode(original))
        }
        // Sharing again writes nothing: the same bytes are there already.
        let again = try c.cli.json(["curate", "share", "--to", dir.path]) as? [String: Any] ?? [:]
        #expect((again["files"] as? [[String: Any]] ?? []).allSatisfy { $0["method"] as? String == "already-there" })
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) == Set(names))

        // --copy: new files, same bytes; a name taken by another file or by a planted link gets
        // " (2)", and neither the file nor the link's target is touched.
        let dir2 = try tempFolder("share2")
        try FileManager.default.createDirectory(at: dir2, withIntermediateDirectories: true)
        let victim = dir2.deletingLastPathComponent().appendingPathComponent("victim.txt")
        try Data("keep me".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(atPath: dir2.appendingPathComponent("IMG_0761.JPG").path, withDestinationPath: victim.path)
        try Data("other".utf8).write(to: dir2.appendingPathComponent("IMG_0773.JPG"))
        let copied = try c.cli.json(["curate", "share", "--copy", "--to", dir2.path]) as? [String: Any] ?? [:]
        let copies = copied["files"] as? [[String: Any]] ?? []
        #expect(copies.count == files.count)
        for f in copies {
            let original = c.root.appendingPathComponent(f["source"] as! String)
            let copy = URL(fileURLWithPath: f["path"] as! String)
            #expect(f["method"] as? String == "copy")
            #expect(inode(copy) != inode(original))
            #expect(try Data(contentsOf: copy) == Data(contentsOf: original))
        }
        #expect(Set(copies.map { $0["name"] as! String }).isSuperset(of: ["IMG_0761 (2).JPG", "IMG_0773 (2).JPG", "IMG_0758.HEIC", "IMG_0758.MOV"]))
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir2.appendingPathComponent("IMG_0761.JPG").path) == victim.path)
        #expect(try String(contentsOf: dir2.appendingPathComponent("IMG_0773.JPG"), encoding: .utf8) == "other")

        // Another file system (tmpfs), where no hard link can be made: copies.
        if FileManager.default.isWritableFile(atPath: "/dev/shm") {
            var a = stat(), b = stat()
            if stat("/dev/shm", &a) == 0, stat(c.root.path, &b) == 0, a.st_dev != b.st_dev {
                let dir3 = URL(fileURLWithPath: "/dev/shm/shoebox-curate-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: dir3) }
                let other = try c.cli.json(["curate", "share", "--to", dir3.path]) as? [String: Any] ?? [:]
                for f in other["files"] as? [[String: Any]] ?? [] {
                    #expect(f["method"] as? String == "copy")
                    #expect(try Data(contentsOf: URL(fileURLWithPath: f["path"] as! String)) == Data(contentsOf: c.root.appendingPathComponent(f["source"] as! String)))
                }
            }
        }
        // Into the library: refused (the copies would be indexed as duplicates).
        for folder in ["Shared", "Shared/new folder"] {
            let inside = try c.cli.run(["curate", "share", "--to", c.root.appendingPathComponent(folder).path])
            #expect(inside.status == 1 && inside.stderr.contains("inside the library"))
        }
        #expect(!FileManager.default.fileExists(atPath: c.root.appendingPathComponent("Shared/new folder").path))
        // A folder whose parent is missing: one line, exit 1.
        let nowhere = try c.cli.run(["curate", "share", "--to", dir.appendingPathComponent("no/such").path])
        #expect(nowhere.status == 1 && nowhere.stderrLines.count == 1)
    }

    @Test func albumIsNamedAsTheBriefSaysInScoreOrder() throws {
        let c = try Curating.roll()
        let paths = Array(c.photos.prefix(12))
        try c.add(paths)
        var rng = SplitMix64(seed: 3)
        try c.setScores(Dictionary(uniqueKeysWithValues: try paths.map { (try c.id($0), Double(rng.next() % 2000) / 1000 - 1) }))
        let order = try c.list().map { $0["path"] as! String }
        let now = "2026-11-22T10:15:03"
        // The expected name from the same instant, in local time.
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = .current
        f.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let date = try #require(f.date(from: now))
        f.dateFormat = "yyyy-MM-dd HH.mm.ss"
        let base = "TO NAME " + f.string(from: date)
        let env = ["SHOEBOX_NOW": now]
        let first = try c.cli.run(["curate", "album"], extraEnvironment: env)
        #expect(first.status == 0, "\(first.stderr)")
        let folder = c.root.appendingPathComponent("Albums/" + base)
        #expect(first.stdout.contains(folder.path))
        // Link names: zero-padded positions, so name order is score order.
        let links = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(links.count == paths.count)
        #expect(links.allSatisfy { $0.prefix(4).allSatisfy { $0.isNumber || $0 == " " } && $0.hasPrefix("0") })
        let targets = try links.map { name -> String in
            let target = try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent(name).path)
            #expect(!target.hasPrefix("/"))
            return URL(fileURLWithPath: target, relativeTo: folder.appendingPathComponent(name)).standardizedFileURL.path
        }
        #expect(targets == order.map { c.root.appendingPathComponent($0).standardizedFileURL.path })
        // The same instant again: " (2)", then " (3)"; --json gives the album.
        let second = try c.cli.run(["curate", "album", "--json"], extraEnvironment: env)
        #expect(second.status == 0)
        let album = try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(album["name"] as? String == base + " (2)")
        #expect(album["path"] as? String == "Albums/" + base + " (2)")
        #expect((album["entries"] as? [[String: Any]] ?? []).map { $0["path"] as? String } == order)
        #expect(try c.cli.run(["curate", "album"], extraEnvironment: env).stdout.contains(base + " (3)"))
        let listed = try c.cli.json(["album", "list"]) as? [[String: Any]] ?? []
        #expect(Set(listed.compactMap { $0["name"] as? String }.filter { $0.hasPrefix("TO NAME") }) == [base, base + " (2)", base + " (3)"])
        // An empty list makes no album.
        #expect(try c.cli.run(["curate", "clear"]).status == 0)
        let none = try c.cli.run(["curate", "album"], extraEnvironment: env)
        #expect(none.status == 1 && none.stderr.contains("empty"))
    }

    @Test func theListLastsUntilClear() throws {
        let c = try Curating.roll()
        try c.add(Array(c.photos.prefix(3)))
        #expect(try c.cli.run(["curate", "select", "2"]).status == 0)
        let before = try c.list()
        // Other processes see the same list; adding more keeps it.
        #expect(try c.list().map { $0["id"] as! String } == before.map { $0["id"] as! String })
        try c.add([c.photos[3], c.photos[0]])
        #expect(try c.listedIDs().count == 4)
        #expect(try c.selectedIDs() == [before[1]["id"] as! String])
        let state = c.root.appendingPathComponent(".shoebox/curation.json")
        #expect(FileManager.default.fileExists(atPath: state.path))
        let cleared = try c.cli.run(["curate", "clear", "--json"])
        #expect(cleared.status == 0)
        #expect((try JSONSerialization.jsonObject(with: Data(cleared.stdout.utf8)) as? [Any])?.isEmpty == true)
        #expect(try c.list().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: state.path))
        for p in c.photos.prefix(4) { #expect(FileManager.default.fileExists(atPath: c.root.appendingPathComponent(p).path)) }
    }

    @Test func aDamagedListIsOneLineAndClearMendsIt() throws {
        let c = try Curating.roll()
        let state = c.root.appendingPathComponent(".shoebox/curation.json")
        for bad in [Data("{\"schema\":1,\"items\":[\"x\"],\"selected\":[]}".utf8), Data([0xFF, 0xFE, 0x00, 0x7B]), Data("[1,2".utf8),
                    Data("{\"schema\":99,\"items\":[],\"selected\":[]}".utf8)] {
            try bad.write(to: state)
            for args in [["curate", "list"], ["curate", "select", "1"], ["curate", "album"]] {
                let r = try c.cli.run(args)
                #expect(r.status == 1, "\(args): \(r.status) \(r.stderr)")
                #expect(r.stderrLines.count == 1 && r.stderr.contains("curation.json"), "\(args): \(r.stderr)")
            }
            #expect(try c.cli.run(["curate", "clear"]).status == 0)
            #expect(try c.list().isEmpty)
        }
        // A link planted as the list file is refused, never followed.
        let outside = c.root.deletingLastPathComponent().appendingPathComponent("outside.json")
        try Data("{}".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(atPath: state.path, withDestinationPath: outside.path)
        let r = try c.cli.run(["curate", "add", c.photos[0]])
        #expect(r.status == 1)
        #expect(try String(contentsOf: outside, encoding: .utf8) == "{}")
    }

    @Test func purgedPhotosLeaveTheListWithANote() throws {
        let c = try Curating.roll()
        let paths = Array(c.photos.prefix(3))
        try c.add(paths)
        let gone = try c.id(paths[1])
        #expect(try c.cli.run(["trash", gone]).status == 0)
        // Trashed: still listed, with its state.
        #expect(try c.list().first { $0["id"] as? String == gone }?["state"] as? String == "trashed")
        #expect(try c.cli.run(["trash", "purge"], extraEnvironment: ["SHOEBOX_NOW": "2099-01-01T00:00:00"]).status == 0)
        let r = try c.cli.run(["curate", "list", "--json"])
        #expect(r.status == 0)
        #expect(r.stderr.contains(gone))
        #expect(!(try c.listedIDs()).contains(gone))
        #expect(try c.listedIDs().count == 2)
    }

    @Test func addRefusesBadInputAndAddsNothing() throws {
        let c = try Curating.roll()
        let ok = c.photos[0]
        for refs in [[ok, "no/such/photo.jpg"], ["--album", "No such album"], ["--year", "1901"], ["ffffffff-0000-0000-0000-000000000000"]] {
            let r = try c.cli.run(["curate", "add"] + refs)
            #expect(r.status == 1, "\(refs): \(r.status)")
            #expect(r.stderrLines.count == 1, "\(refs): \(r.stderr)")
        }
        #expect(try c.list().isEmpty)
        #expect(try c.cli.run(["curate", "add"]).status == 2)
        // A Live Photo's movie stands for its photo; --year and --album add what they hold.
        try c.add(["2016/2016-12 Tokyo/IMG_0758.MOV"])
        #expect(try c.list().map { $0["path"] as? String } == ["2016/2016-12 Tokyo/IMG_0758.HEIC"])
        try c.add(["--year", "2023"])
        let in2023 = try c.assets().values.filter { $0["year"] as? Int == 2023 }.map { $0["id"] as! String }
        #expect(Set(try c.listedIDs()) == Set(in2023 + [try c.id("2016/2016-12 Tokyo/IMG_0758.HEIC")]))
    }
}
