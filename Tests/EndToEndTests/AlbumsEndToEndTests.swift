import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Albums and Recently Deleted through the built binary, on a generated roll whose manifest says
/// where, when and of whom every photo was taken.
@Suite struct AlbumsEndToEndTests {
    /// A small roll with every kind of generated album: two cities, two named people, a
    /// screenshot, videos, a Live Photo and a byte-identical copy.
    static func roll() throws -> TestRoll.Made {
        try TestRoll.make(seed: 5, count: 24, arguments: ["--videos", "2", "--live", "1", "--portraits", "0.5", "--long-side", "800"])
    }

    @Test func everyGeneratedAlbumHoldsTheRightPhotosInOrder() throws {
        let made = try Self.roll()
        let cli = try ShoeboxCLI.scanned(made)
        let albums = made.root.appendingPathComponent("Albums")
        // What the manifest says each album must hold: the photo of a Live Photo stands for it,
        // and a byte-identical copy is not shown twice.
        let shown = made.entries.filter { $0.live_photo_of == nil && $0.duplicate_of == nil }
        var expected: [String: Set<String>] = [:]
        for e in shown {
            // Undated files fall back to their modification time (local time).
            let year = e.taken_at.map { String($0.prefix(4)) }
                ?? String(Calendar.current.component(.year, from: Date(timeIntervalSince1970: e.mtime)))
            expected["Years/" + year, default: []].insert(e.path)
            if let city = e.city, let country = e.country { expected["Places/\(city), \(country)", default: []].insert(e.path) }
            for p in e.persons { expected["People/" + p.name, default: []].insert(e.path) }
            if e.kind == "screenshot" { expected["Screenshots", default: []].insert(e.path) }
            if e.kind == "video" { expected["Videos", default: []].insert(e.path) }
        }
        #expect(expected.keys.contains { $0.hasPrefix("People/") } && expected["Videos"] != nil && expected["Screenshots"] != nil)
        let listed = try cli.assetsByPath()
        for (album, paths) in expected {
            let links = try Links.read(albums.appendingPathComponent(album))
            let targets = Set(links.map(\.resolvedPath))
            #expect(targets == paths, "\(album): missing \(paths.subtracting(targets).sorted()), extra \(targets.subtracting(paths).sorted())")
            for link in links {
                #expect(!link.target.hasPrefix("/"), "\(album)/\(link.name) is absolute: \(link.target)")
                #expect(link.resolvesToFile, "\(album)/\(link.name) → \(link.target) does not resolve")
                #expect(link.name.hasSuffix((link.resolvedPath as NSString).lastPathComponent))
            }
            // Name order is capture order.
            let dates = links.sorted { $0.name < $1.name }.compactMap { listed[$0.resolvedPath]?["taken_at"] as? String }
                .compactMap(Links.epoch)
            #expect(dates == dates.sorted(), "\(album) is not in capture order")
            #expect(links.allSatisfy { $0.name.prefix(4).allSatisfy { $0.isNumber || $0 == " " } })
        }
        // Nothing else under Albums/ and nothing that dangles.
        #expect(try Links.dangling(in: made.root).isEmpty)
        let albumList = try cli.json(["album", "list"]) as? [[String: Any]] ?? []
        #expect(Set(albumList.compactMap { ($0["path"] as? String).map { String($0.dropFirst("Albums/".count)) } }) == Set(expected.keys))
        // `album show` agrees with the folder.
        let year = try #require(expected.keys.first { $0.hasPrefix("Years/") })
        let show = try cli.json(["album", "show", year]) as? [String: Any] ?? [:]
        let entries = show["entries"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["link"] as? String ?? "" } == (try Links.read(albums.appendingPathComponent(year))).map(\.name).sorted())
        // A second scan changes nothing in Albums/.
        let before = try Links.snapshot(albums)
        #expect(try cli.run(["scan"]).status == 0)
        #expect(try Links.snapshot(albums) == before)
    }

    @Test func userAlbumsKeepTheirOrderAndLoseOnlyLinks() throws {
        let made = try Self.roll()
        let cli = try ShoeboxCLI.scanned(made)
        let listed = try cli.assetsByPath()
        let photos = made.entries.filter { $0.kind == "photo" && $0.live_photo_of == nil && $0.duplicate_of == nil }.map(\.path)
        let picks = [photos[5], photos[1], photos[9], photos[3]]
        let ids = picks.map { listed[$0]!["id"] as! String }
        let created = try cli.json(["album", "create", "Trip / Best of", ids[0], ids[1], picks[2], ids[3]]) as? [String: Any] ?? [:]
        #expect(created["id"] as? String != nil)
        // The unsafe "/" becomes a usable folder name; the order is the order given.
        let folder = made.root.appendingPathComponent("Albums/Trip - Best of")
        #expect(try Links.read(folder).sorted { $0.name < $1.name }.map(\.resolvedPath) == picks)
        // Re-ordering: a new folder swapped in, never half an album.
        #expect(try cli.run(["album", "order", "Trip / Best of", ids[3], ids[2]]).status == 0)
        #expect(try Links.read(folder).sorted { $0.name < $1.name }.map(\.resolvedPath) == [picks[3], picks[2], picks[0], picks[1]])
        // A name that is taken, or reserved for generated albums, is refused with one line.
        let dup = try cli.run(["album", "create", "Trip / Best of"])
        #expect(dup.status == 1 && dup.stderrLines.count == 1)
        #expect(try cli.run(["album", "create", "Years"]).status == 1)
        // Deleting a link by hand takes that photo out of the album, and touches nothing else.
        let victim = try #require(try Links.read(folder).first { $0.resolvedPath == picks[0] })
        let sha = try Links.sha256(made.root.appendingPathComponent(picks[0]))
        #expect(unlink(folder.appendingPathComponent(victim.name).path) == 0)
        #expect(try cli.run(["scan"]).status == 0)
        let show = try cli.json(["album", "show", "Trip / Best of"]) as? [String: Any] ?? [:]
        #expect((show["entries"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } == [ids[3], ids[2], ids[1]])
        #expect(try Links.sha256(made.root.appendingPathComponent(picks[0])) == sha)
        #expect(try Links.read(made.root.appendingPathComponent("Albums/Years/" + String((listed[picks[0]]!["taken_at"] as! String).prefix(4))))
            .contains { $0.resolvedPath == picks[0] })
        // Deleting the album deletes links only.
        let shas = try picks.map { try Links.sha256(made.root.appendingPathComponent($0)) }
        #expect(try cli.run(["album", "delete", "Trip / Best of"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        #expect(try picks.map { try Links.sha256(made.root.appendingPathComponent($0)) } == shas)
        #expect(try cli.run(["album", "delete", "Years/2024"]).status == 1)
    }

    @Test func trashRestoreMoveAndPurgeNeverLeaveADanglingLink() throws {
        let made = try Self.roll()
        let cli = try ShoeboxCLI.scanned(made)
        let listed = try cli.assetsByPath()
        let photos = made.entries.filter { $0.kind == "photo" && $0.live_photo_of == nil && $0.live_video == nil && $0.duplicate_of == nil }.map(\.path)
        let (a, b, c, d) = (photos[0], photos[2], photos[4], photos[6])
        let idOf = { (p: String) in listed[p]!["id"] as! String }
        let shaOf = { (p: String) in listed[p]!["sha256"] as! String }
        #expect(try cli.run(["album", "create", "Keep", idOf(a), idOf(b), idOf(c)]).status == 0)

        // Trash: out of the library and of every album, into files/ with a .trashinfo.
        let trashed = try cli.run(["trash", a, idOf(b)])
        #expect(trashed.status == 0, "\(trashed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: made.root.appendingPathComponent(a).path))
        let items = try cli.json(["trash", "list"]) as? [[String: Any]] ?? []
        #expect(Set(items.compactMap { $0["id"] as? String }) == [idOf(a), idOf(b)])
        let itemA = try #require(items.first { $0["id"] as? String == idOf(a) })
        #expect(itemA["original_path"] as? String == a && itemA["days_left"] as? Int == 30)
        #expect(itemA["size"] as? Int == listed[a]!["size"] as? Int)
        let info = try String(contentsOf: made.root.appendingPathComponent("Recently Deleted/info/\(itemA["name"] as! String).trashinfo"), encoding: .utf8)
        #expect(info.hasPrefix("[Trash Info]\nPath=" + a.replacingOccurrences(of: " ", with: "%20") + "\nDeletionDate="))
        #expect(try Links.dangling(in: made.root).isEmpty)
        #expect(try !Links.albumTargets(made.root).contains(a))
        let keep = { try (cli.json(["album", "show", "Keep"]) as? [String: Any])?["entries"] as? [[String: Any]] ?? [] }
        #expect(try keep().compactMap { $0["id"] as? String } == [idOf(c)])
        #expect(try cli.run(["doctor"]).status == 0)

        // Move a folder while nothing watches: the scan follows it and so do the albums.
        let folder = (c as NSString).deletingLastPathComponent
        #expect(rename(made.root.appendingPathComponent(folder).path, made.root.appendingPathComponent(folder + " (moved)").path) == 0)
        #expect(try cli.run(["scan"]).status == 0)
        #expect(try Links.dangling(in: made.root).isEmpty)
        #expect(try cli.assetsByPath()[folder + " (moved)/" + (c as NSString).lastPathComponent]?["id"] as? String == idOf(c))

        // Restore by name: same id, back in the album at its place; its folder (renamed away) is recreated.
        let restored = try cli.run(["restore", itemA["name"] as! String])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("recreated the folder"))
        #expect(try cli.assetsByPath()[a]?["id"] as? String == idOf(a))
        #expect(try Links.sha256(made.root.appendingPathComponent(a)) == shaOf(a))
        #expect(try keep().compactMap { $0["id"] as? String } == [idOf(a), idOf(c)])
        // Restore when the original path is taken meanwhile: nothing is overwritten.
        let squatter = Data("not a photo".utf8)
        try squatter.write(to: made.root.appendingPathComponent(b))
        let second = try cli.run(["restore", idOf(b)])
        #expect(second.status == 0 && second.stdout.contains("is taken"))
        #expect(try Data(contentsOf: made.root.appendingPathComponent(b)) == squatter)
        let back = try #require(try cli.assetsByPath().first { $0.value["id"] as? String == idOf(b) })
        #expect(back.key.hasSuffix(" (restored)." + (b as NSString).pathExtension))
        #expect(try Links.sha256(made.root.appendingPathComponent(back.key)) == shaOf(b))
        try FileManager.default.removeItem(at: made.root.appendingPathComponent(b))
        #expect(try Links.dangling(in: made.root).isEmpty)

        // Purge: 31 days old goes, 29 days old stays (DeletionDate set by hand, as the spec allows).
        let cMoved = folder + " (moved)/" + (c as NSString).lastPathComponent
        let dMoved = folder + " (moved)/" + (d as NSString).lastPathComponent
        #expect(try cli.run(["trash", cMoved, idOf(d)]).status == 0)
        #expect(try cli.assetsByPath()[dMoved] == nil)
        let names = Dictionary(uniqueKeysWithValues: (try cli.json(["trash", "list"]) as? [[String: Any]] ?? []).map {
            ($0["id"] as! String, $0["name"] as! String) })
        let now = Date()
        try Links.setDeletionDate(made.root, name: names[idOf(c)]!, to: now.addingTimeInterval(-31 * 86400))
        try Links.setDeletionDate(made.root, name: names[idOf(d)]!, to: now.addingTimeInterval(-29 * 86400))
        let purge = try cli.run(["trash", "purge"])
        #expect(purge.status == 0, "\(purge.stderr)")
        #expect(purge.stderr.contains("purged Recently Deleted/files/\(names[idOf(c)]!)"))
        #expect(!FileManager.default.fileExists(atPath: made.root.appendingPathComponent("Recently Deleted/files/\(names[idOf(c)]!)").path))
        #expect(FileManager.default.fileExists(atPath: made.root.appendingPathComponent("Recently Deleted/files/\(names[idOf(d)]!)").path))
        let left = try cli.json(["trash", "list"]) as? [[String: Any]] ?? []
        #expect(left.compactMap { $0["id"] as? String } == [idOf(d)] && left.first?["days_left"] as? Int == 1)
        #expect(try cli.run(["show", idOf(c)]).status == 1)
        #expect(try keep().compactMap { $0["id"] as? String } == [idOf(a), idOf(b)])
        let log = try String(contentsOf: made.root.appendingPathComponent(".shoebox/purge.log"), encoding: .utf8)
        #expect(log.contains(names[idOf(c)]!) && !log.contains(names[idOf(d)]!))
        #expect(try Links.dangling(in: made.root).isEmpty)
        #expect(try cli.run(["doctor"]).status == 0)
        // Ids of everything else never changed.
        let now2 = try cli.assetsByPath()
        for (path, asset) in listed where ![a, b, c, d].contains(path) && !path.hasPrefix(folder + "/") {
            #expect(now2[path]?["id"] as? String == asset["id"] as? String, "\(path)")
        }
    }

    @Test func aLivePhotoGoesToTheTrashAndComesBackWhole() throws {
        let made = try Self.roll()
        let cli = try ShoeboxCLI.scanned(made)
        let live = try #require(made.entries.first { $0.live_video != nil })
        let video = try #require(live.live_video)
        #expect(try cli.run(["trash", live.path]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: made.root.appendingPathComponent(video).path))
        #expect((try cli.json(["trash", "list"]) as? [[String: Any]] ?? []).count == 2)
        #expect(try cli.run(["restore", live.path]).status == 0)
        #expect(FileManager.default.fileExists(atPath: made.root.appendingPathComponent(video).path))
        #expect(try cli.assetsByPath()[live.path]?["live_video"] as? String == video)
        #expect((try cli.json(["trash", "list"]) as? [[String: Any]] ?? []).isEmpty)
    }

    @Test func draggingFilesInAndOutOfTheTrashWithNothingRunning() throws {
        let made = try Self.roll()
        let cli = try ShoeboxCLI.scanned(made)
        let photos = made.entries.filter { $0.kind == "photo" && $0.live_video == nil && $0.duplicate_of == nil }.map(\.path)
        let listed = try cli.assetsByPath()
        let (a, b) = (photos[1], photos[3])
        #expect(try cli.run(["trash", a]).status == 0)
        let name = try #require((try cli.json(["trash", "list"]) as? [[String: Any]])?.first?["name"] as? String)
        // Out of files/ into another folder with a file manager; then a scan: same id, no leftover .trashinfo.
        try FileManager.default.createDirectory(at: made.root.appendingPathComponent("Back"), withIntermediateDirectories: true)
        #expect(rename(made.root.appendingPathComponent("Recently Deleted/files/" + name).path,
                       made.root.appendingPathComponent("Back/" + name).path) == 0)
        #expect(try cli.run(["scan"]).status == 0)
        #expect(try cli.assetsByPath()["Back/" + name]?["id"] as? String == listed[a]?["id"] as? String)
        #expect(try FileManager.default.contentsOfDirectory(atPath: made.root.appendingPathComponent("Recently Deleted/info").path).isEmpty)
        // Into files/ by hand: trashed at the next scan, with a .trashinfo naming where it was.
        let nameB = (b as NSString).lastPathComponent
        #expect(rename(made.root.appendingPathComponent(b).path, made.root.appendingPathComponent("Recently Deleted/files/" + nameB).path) == 0)
        #expect(try cli.run(["scan"]).status == 0)
        let items = try cli.json(["trash", "list"]) as? [[String: Any]] ?? []
        #expect(items.count == 1 && items.first?["id"] as? String == listed[b]?["id"] as? String && items.first?["original_path"] as? String == b)
        #expect(try Links.dangling(in: made.root).isEmpty)
        #expect(try cli.run(["doctor"]).status == 0)
        // The .trashinfo deleted by hand is written again from what the index knows.
        try FileManager.default.removeItem(at: made.root.appendingPathComponent("Recently Deleted/info/\(nameB).trashinfo"))
        #expect(try cli.run(["scan"]).status == 0)
        #expect((try cli.json(["trash", "list"]) as? [[String: Any]] ?? []).first?["original_path"] as? String == b)
        #expect(try cli.run(["restore", nameB]).status == 0)
        #expect(try cli.assetsByPath()[b]?["id"] as? String == listed[b]?["id"] as? String)
    }

    @Test func badReferencesAreOneLineErrors() throws {
        let made = try Self.roll()
        let cli = try ShoeboxCLI.scanned(made)
        for args in [["trash", "no/such.jpg"], ["restore", "nothing-here"], ["album", "show", "Nope"], ["album", "add", "Nope", "x"]] {
            let r = try cli.run(args)
            #expect(r.status == 1 && r.stderrLines.count == 1, "\(args): \(r.status) \(r.stderr)")
        }
        #expect(try cli.run(["trash"]).status == 2)
        // A file already trashed cannot be trashed twice; a present one cannot be restored.
        let photo = try #require(made.entries.first { $0.kind == "photo" && $0.live_video == nil && $0.duplicate_of == nil })
        let id = try #require(try cli.assetsByPath()[photo.path]?["id"] as? String)
        #expect(try cli.run(["restore", id]).status == 1)
        #expect(try cli.run(["trash", id]).status == 0)
        let again = try cli.run(["trash", id])
        #expect(again.status == 1 && again.stderr.contains("already in Recently Deleted"))
    }
}

/// Reading album folders as a file manager would.
enum Links {
    struct Link {
        var name: String
        var target: String
        /// The original it leads to, relative to the library.
        var resolvedPath: String
        var resolvesToFile: Bool
    }

    static func read(_ folder: URL) throws -> [Link] {
        let root = folder.path.components(separatedBy: "/Albums/")[0]
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { name in
            let target = try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent(name).path)
            let resolved = URL(fileURLWithPath: target, relativeTo: folder.appendingPathComponent("x")).standardizedFileURL.path
            var isDir: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: resolved, isDirectory: &isDir) && !isDir.boolValue
            return Link(name: name, target: target, resolvedPath: String(resolved.dropFirst(root.count + 1)), resolvesToFile: exists)
        }
    }

    /// Every symbolic link under `root` that leads nowhere (`find -xtype l`).
    static func dangling(in root: URL) throws -> [String] {
        let r = try TestRoll.run("/usr/bin/find", [root.path, "-xtype", "l"])
        return r.stdout.split(separator: "\n").map(String.init)
    }

    /// Library paths every album link leads to.
    static func albumTargets(_ root: URL) throws -> Set<String> {
        let r = try TestRoll.run("/usr/bin/find", [root.appendingPathComponent("Albums").path, "-type", "l"])
        var out = Set<String>()
        for path in r.stdout.split(separator: "\n") {
            let url = URL(fileURLWithPath: String(path))
            let target = try FileManager.default.destinationOfSymbolicLink(atPath: url.path)
            out.insert(String(URL(fileURLWithPath: target, relativeTo: url).standardizedFileURL.path.dropFirst(root.path.count + 1)))
        }
        return out
    }

    /// Names and targets of every link under a folder.
    static func snapshot(_ folder: URL) throws -> [String: String] {
        let r = try TestRoll.run("/usr/bin/find", [folder.path, "-type", "l", "-printf", "%P\t%l\n"])
        var out: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            out[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return out
    }

    static func sha256(_ url: URL) throws -> String {
        String(try TestRoll.run("/usr/bin/sha256sum", [url.path]).stdout.prefix(64))
    }

    static func epoch(_ iso: String) -> Double? {
        let f = ISO8601DateFormatter()
        return f.date(from: iso)?.timeIntervalSince1970
    }

    /// Rewrites an item's `DeletionDate=` (local time, as the trash specification writes it).
    static func setDeletionDate(_ root: URL, name: String, to date: Date) throws {
        let url = root.appendingPathComponent("Recently Deleted/info/\(name).trashinfo")
        let text = try String(contentsOf: url, encoding: .utf8)
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone.current
        f.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let lines = text.split(separator: "\n").map { $0.hasPrefix("DeletionDate=") ? "DeletionDate=" + f.string(from: date) : String($0) }
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    }
}
