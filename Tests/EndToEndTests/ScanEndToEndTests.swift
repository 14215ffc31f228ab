import Foundation
import Testing
import TestSupport

/// The built `shoebox` binary on generated camera rolls, checked against their ground truth.
@Suite(.serialized)
struct ScanEndToEndTests {
    /// "2021-11-03T10:00:01.250+10:00" → "2021-11-03T10:00:01+10:00": the manifest has whole seconds.
    static func wholeSeconds(_ s: String) -> String {
        guard let dot = s.firstIndex(of: "."), let end = s[dot...].firstIndex(where: { $0 == "+" || $0 == "-" || $0 == "Z" }) else { return s }
        return String(s[..<dot]) + String(s[end...])
    }

    @Test func everyAssetMatchesTheGroundTruth() throws {
        let roll = try TestRoll.standard()
        let cli = ShoeboxCLI(library: roll.root)
        #expect(try cli.run(["init"]).status == 0)
        let scan = try cli.json(["scan"]) as! [String: Any]
        #expect((scan["failed"] as! [Any]).isEmpty, "scan failures: \(scan["failed"]!)")
        let listed = try cli.assetsByPath()
        let liveVideos = Set(roll.entries.compactMap(\.live_video))
        // Live Photo videos are part of their photo, not listed on their own.
        #expect(listed.count == roll.entries.count - liveVideos.count)
        var checked = 0
        for e in roll.entries where e.live_photo_of == nil {
            guard let a = listed[e.path] else { Issue.record("\(e.path) not listed"); continue }
            checked += 1
            let expectedKind = e.kind == "document" ? "photo" : e.kind
            #expect(a["kind"] as? String == expectedKind, "\(e.path) kind")
            #expect(a["format"] as? String == e.format, "\(e.path) format")
            #expect(a["width"] as? Int == e.upright_size[0] && a["height"] as? Int == e.upright_size[1],
                    "\(e.path): \(a["width"]!)×\(a["height"]!) vs \(e.upright_size)")
            if let t = e.taken_at {
                #expect((a["taken_at"] as? String).map(Self.wholeSeconds) == t, "\(e.path) taken_at \(a["taken_at"]!) vs \(t)")
                #expect(["exif", "container"].contains(a["taken_at_source"] as? String ?? ""), "\(e.path) source")
            } else {
                // No date in the file: the name or the modification time, flagged as such.
                #expect(["filename", "mtime"].contains(a["taken_at_source"] as? String ?? ""), "\(e.path) source")
            }
            if let g = e.gps {
                let gps = a["gps"] as? [String: Double]
                #expect(abs((gps?["lat"] ?? 999) - g[0]) < 1e-4 && abs((gps?["lon"] ?? 999) - g[1]) < 1e-4, "\(e.path) gps")
            } else {
                #expect(a["gps"] is NSNull, "\(e.path) has no GPS")
            }
            if let city = e.city {
                // GPS-only photos get their place from the gazetteer ("Reykjavík" for "Reykjavik").
                let place = a["place"] as? [String: Any]
                let fold = { (s: String?) in s?.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
                #expect(fold(place?["city"] as? String) == fold(city), "\(e.path) city \(String(describing: place))")
                #expect(fold(place?["country"] as? String) == fold(e.country), "\(e.path) country")
            }
            #expect(a["persons"] as? [String] == e.persons.map(\.name), "\(e.path) persons")
            #expect((a["duplicate_of"] is NSNull) == (e.duplicate_of == nil), "\(e.path) duplicate flag")
            if let original = e.duplicate_of {
                #expect(a["duplicate_of"] as? String == listed[original]?["id"] as? String, "\(e.path) duplicate of \(original)")
            }
            #expect((a["live_video"] as? String) == e.live_video, "\(e.path) live video")
            #expect((a["sha256"] as? String)?.count == 64)
            #expect(a["state"] as? String == "present")
        }
        #expect(checked == listed.count)
        // A second scan reads nothing.
        let again = try cli.json(["scan"]) as! [String: Any]
        #expect(again["added"] as? Int == 0 && again["bytes_read"] as? Int == 0 && again["updated"] as? Int == 0)
        #expect(try cli.run(["doctor"]).status == 0)
    }

    @Test func idsSurviveRenameMoveEditAndRebuild() throws {
        let roll = try TestRoll.standard()
        let cli = try ShoeboxCLI.scanned(roll)
        let before = try cli.assetsByPath()
        let fm = FileManager.default
        let copiedPaths = Set(roll.entries.compactMap(\.duplicate_of))
        let photos = roll.entries.filter { $0.kind == "photo" && $0.duplicate_of == nil && $0.live_video == nil
            && $0.near_duplicate_of == nil && !copiedPaths.contains($0.path) }
        let renamed = photos[0], moved = photos[1], movedTwice = photos[2], edited = photos[3], copied = photos[4]
        func url(_ p: String) -> URL { roll.root.appendingPathComponent(p) }
        func id(_ p: String) -> String { before[p]!["id"] as! String }

        // Rename in place, move to a new folder, move twice with no scan in between.
        let renamedTo = (renamed.path as NSString).deletingLastPathComponent + "/renamed holiday.jpg"
        try fm.moveItem(at: url(renamed.path), to: url(renamedTo))
        try fm.createDirectory(at: url("Sorted/Best"), withIntermediateDirectories: true)
        let movedTo = "Sorted/Best/" + (moved.path as NSString).lastPathComponent
        try fm.moveItem(at: url(moved.path), to: url(movedTo))
        let middle = "Sorted/tmp-" + (movedTwice.path as NSString).lastPathComponent
        let movedTwiceTo = "Sorted/" + (movedTwice.path as NSString).lastPathComponent
        try fm.moveItem(at: url(movedTwice.path), to: url(middle))
        try fm.moveItem(at: url(middle), to: url(movedTwiceTo))
        // A copy to a new place and removal of the original (new inode: matched by content).
        let copiedTo = "Sorted/copied " + (copied.path as NSString).lastPathComponent
        try Data(contentsOf: url(copied.path)).write(to: url(copiedTo))
        try fm.removeItem(at: url(copied.path))
        // An edit in place: same path, new bytes.
        var bytes = try Data(contentsOf: url(edited.path))
        bytes.append(contentsOf: [UInt8](repeating: 0, count: 16))  // trailing bytes after EOI are legal
        try bytes.write(to: url(edited.path))

        let scan = try cli.json(["scan"]) as! [String: Any]
        #expect(scan["moved"] as? Int == 4, "\(scan)")
        #expect(scan["updated"] as? Int == 1, "\(scan)")
        #expect(scan["added"] as? Int == 0 && scan["removed"] as? Int == 0, "\(scan)")
        var after = try cli.assetsByPath()
        #expect(after[renamedTo]?["id"] as? String == id(renamed.path))
        #expect(after[movedTo]?["id"] as? String == id(moved.path))
        #expect(after[movedTwiceTo]?["id"] as? String == id(movedTwice.path))
        #expect(after[copiedTo]?["id"] as? String == id(copied.path))
        #expect(after[edited.path]?["id"] as? String == id(edited.path))
        #expect(after[edited.path]?["sha256"] as? String != before[edited.path]?["sha256"] as? String)
        #expect(after.count == before.count)

        // A vanished file is missing, not forgotten, and comes back with its id.
        let parked = roll.root.deletingLastPathComponent().appendingPathComponent("parked.jpg")
        try fm.moveItem(at: url(movedTo), to: parked)
        let gone = try cli.json(["scan"]) as! [String: Any]
        #expect(gone["removed"] as? Int == 1)
        let missing = try cli.assetsByPath(["--missing"])
        #expect(missing[movedTo]?["id"] as? String == id(moved.path))
        try fm.moveItem(at: parked, to: url("back again.jpg"))
        let back = try cli.json(["scan"]) as! [String: Any]
        #expect(back["returned"] as? Int == 1, "\(back)")
        after = try cli.assetsByPath()
        #expect(after["back again.jpg"]?["id"] as? String == id(moved.path))

        // The index is a cache: rebuilt from sidecars and files, every id and field is the same.
        let show = try cli.run(["show", "back again.jpg", "--json"]).stdout
        let shownID = try #require(after["back again.jpg"]?["id"] as? String)
        #expect(try cli.run(["rebuild"]).status == 0)
        let rebuilt = try cli.assetsByPath()
        #expect(rebuilt.count == after.count)
        for (path, a) in after {
            #expect(rebuilt[path]?["id"] as? String == a["id"] as? String, "\(path) id after rebuild")
            #expect(rebuilt[path]?["taken_at"] as? String == a["taken_at"] as? String, "\(path) date after rebuild")
        }
        let showRebuilt = try cli.run(["show", String(shownID.prefix(8)), "--json"]).stdout
        #expect(showRebuilt == show && show.contains(shownID))
        // Deleting the index by hand loses nothing either: the next scan refills it from the sidecars.
        for suffix in ["", "-wal", "-shm"] { try? fm.removeItem(atPath: roll.root.path + "/.shoebox/index.sqlite" + suffix) }
        let rescan = try cli.json(["scan"]) as! [String: Any]
        #expect(rescan["added"] as? Int == 0, "\(rescan)")
        let refilled = try cli.assetsByPath()
        #expect(refilled.count == after.count)
        for (path, a) in after {
            #expect(refilled[path]?["id"] as? String == a["id"] as? String, "\(path) id after the index was deleted")
        }
    }
}
