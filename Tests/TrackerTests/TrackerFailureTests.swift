import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Failures leave the previous state: a full disk (a real small tmpfs when root may mount one,
/// and the write failure injected where it cannot be arranged), permission errors, a damaged
/// or newer file, and links planted at the tracker's folders and file.
@Suite struct TrackerFailureTests {
    /// A tracker with one miniature and one photo, and its state on disk.
    func populated(_ t: TrackerLibrary) throws -> (mini: String, store: Data?, photos: [String]) {
        let m = try t.mini(try t.project())
        _ = try t.photo(m, TrackerLibrary.testPhoto("kite.jpg").path)
        return (m, t.storeBytes(), t.photoFiles())
    }

    @Test func req12_3_aFullDiskRefusesPhotosAndLeavesThePreviousState() throws {
        guard geteuid() == 0 else { return }  // the injected form below runs everywhere
        let mount = Scratch.root.appendingPathComponent("shoebox-tracker-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        guard (try? TestRoll.run("/bin/mount", ["-t", "tmpfs", "-o", "size=6m", "tmpfs", mount.path]))?.status == 0 else { return }
        defer { _ = try? TestRoll.run("/bin/umount", ["-l", mount.path], allowFailure: true) }
        var cli = ShoeboxCLI(library: mount.appendingPathComponent("library"))
        try FileManager.default.createDirectory(at: cli.library, withIntermediateDirectories: true)
        cli.environment["SHOEBOX_NOW"] = "2026-11-22T10:15:03Z"
        #expect(try cli.run(["init"]).status == 0)
        let p = try cli.json(["tracker", "project", "add", "--game-system", "40k", "--army", "Orks"]) as? [String: Any]
        let m = try cli.json(["tracker", "mini", "add", p?["id"] as! String, "--name", "Boy", "--type", "troop"]) as? [String: Any]
        let store = mount.appendingPathComponent("library/Tracker/tracker.json")
        let before = try Data(contentsOf: store)
        // Fill the disk but ~100 kB: the 487 kB photo cannot fit.
        var fs = statvfs()
        statvfs(mount.path, &fs)
        let fill = Int(fs.f_bavail) * Int(fs.f_frsize) - 100_000
        try TestRoll.run("/usr/bin/fallocate", ["-l", String(fill), mount.appendingPathComponent("filler").path])
        let r = try cli.run(["tracker", "photo", "add", m?["id"] as! String, TrackerLibrary.testPhoto("kite.jpg").path])
        #expect(r.status == 1 && r.stderrLines.count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("full"), "\(r.stderr)")
        // Then no room at all: the tracker file itself cannot be rewritten.
        try TestRoll.run("/usr/bin/fallocate", ["-l", String(Int(fs.f_frsize) * 1000), mount.appendingPathComponent("filler2").path], allowFailure: true)
        statvfs(mount.path, &fs)
        if fs.f_bavail > 0 { try TestRoll.run("/usr/bin/fallocate", ["-l", String(Int(fs.f_bavail) * Int(fs.f_frsize)), mount.appendingPathComponent("filler3").path], allowFailure: true) }
        let r2 = try cli.run(["tracker", "project", "add", "--game-system", "aos", "--army", "Nighthaunt"])
        #expect(r2.status == 1 && r2.stderrLines.count == 1 && r2.stderr.contains("full"), "\(r2.stderr)")
        #expect(try Data(contentsOf: store) == before)
        let photos = (try? FileManager.default.contentsOfDirectory(atPath: mount.appendingPathComponent("library/Tracker/photos").path)) ?? []
        #expect(photos.isEmpty, "left behind: \(photos)")
        #expect((try cli.json(["tracker", "project", "list"]) as? [Any])?.count == 1)
    }

    @Test func req12_3_and_9_2_injectedWriteFailuresLeaveThePreviousState() throws {
        let t = try TrackerLibrary()
        let (m, store, photos) = try populated(t)
        for (spec, words) in [("photo:ENOSPC", "full"), ("photo:EACCES", "writable"), ("store:ENOSPC", "full"), ("store:EACCES", "writable")] {
            let r = try t.fails(["photo", "add", m, TrackerLibrary.testPhoto("coffee.jpg").path], env: ["SHOEBOX_TRACKER_TEST_FAIL": spec])
            #expect(r.status == 1 && r.stderrLines.count == 1 && r.stderr.contains(words), "\(spec): \(r.stderr)")
            #expect(t.storeBytes() == store && t.photoFiles() == photos, "\(spec) changed the state: \(t.photoFiles())")
        }
        // A failed save of a removal keeps the record and the file.
        let photo = try t.array(["photo", "list", m])[0]["id"] as! String
        let r = try t.fails(["photo", "rm", photo], env: ["SHOEBOX_TRACKER_TEST_FAIL": "store:EACCES"])
        #expect(r.status == 1 && t.storeBytes() == store && t.photoFiles() == photos)
    }

    @Test func req9_2_aDamagedOrNewerStoreIsOneLineAndNeverOverwritten() throws {
        let t = try TrackerLibrary()
        _ = try t.project()
        for bytes in [Data("{\"schema_version\": 2, \"projects\": [".utf8), Data([0xFF, 0x00, 0x12]),
                      Data("{\"schema_version\": 9, \"projects\": []}".utf8)] {
            try bytes.write(to: t.storeURL)
            for args in [["project", "list"], ["project", "add", "--game-system", "aos", "--army", "X"], ["recipe", "add", "--name", "R"]] {
                let r = try t.fails(args)
                #expect(r.status == 1 && r.stderrLines.count == 1 && r.stderr.contains("Tracker/tracker.json"), "\(args): \(r.stderr)")
            }
            #expect(t.storeBytes() == bytes)
            #expect(try t.cli.run(["doctor"]).status == 1)
        }
    }

    @Test func req9_3_brokenReferencesAreReportedOnLoadAndByDoctor() throws {
        let t = try TrackerLibrary()
        let m = try t.mini(try t.project())
        _ = try t.photo(m, TrackerLibrary.testPhoto("kite.jpg").path)
        #expect(try t.cli.run(["doctor"]).status == 0)
        var file = try JSONSerialization.jsonObject(with: t.storeBytes()!) as! [String: Any]
        file["projects"] = []
        var minis = file["miniatures"] as! [[String: Any]]
        minis[0]["recipe_ids"] = ["no-such-recipe"]
        file["miniatures"] = minis
        try JSONSerialization.data(withJSONObject: file).write(to: t.storeURL)
        let r = try t.cli.run(["tracker", "mini", "list", "--json"])
        #expect(r.status == 0)
        #expect(r.stderrLines.count == 2 && r.stderr.contains("not in the tracker"), "\(r.stderr)")
        let doctor = try t.cli.run(["doctor"])
        #expect(doctor.status == 1 && doctor.stdout.contains("tracker"), "\(doctor.stdout)")
        // `rm` removes the orphan, with its photo file.
        _ = try t.object(["mini", "rm", m])
        #expect(try t.photoFiles().isEmpty && t.cli.run(["doctor"]).status == 0)
    }

    @Test func req9_3_aPhotoFileDeletedByHandIsReported() throws {
        let t = try TrackerLibrary()
        let (m, _, files) = try populated(t)
        try FileManager.default.removeItem(at: t.photosURL.appendingPathComponent(files[0]))
        let r = try t.cli.run(["tracker", "photo", "list", m, "--json"])
        #expect(r.status == 0 && r.stderrLines.count == 1 && r.stderr.contains("is missing"), "\(r.stderr)")
        #expect(try t.cli.run(["doctor"]).status == 1)
        let photo = try t.array(["photo", "list", m])[0]["id"] as! String
        _ = try t.object(["photo", "rm", photo])
        #expect(try t.cli.run(["doctor"]).status == 0)
    }

    @Test func symlinkAttacksAtTheTrackerAreRefused() throws {
        let t = try TrackerLibrary()
        let (m, _, _) = try populated(t)
        let elsewhere = t.outside.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let tracker = t.root.appendingPathComponent("Tracker")
        let moved = t.outside.appendingPathComponent("Tracker.real")
        // 1. Tracker/ itself a link to a folder outside (holding a copy of the real tracker).
        try FileManager.default.moveItem(at: tracker, to: moved)
        try FileManager.default.copyItem(at: moved, to: elsewhere.appendingPathComponent("T"))
        try FileManager.default.createSymbolicLink(at: tracker, withDestinationURL: elsewhere.appendingPathComponent("T"))
        let before = try FileManager.default.contentsOfDirectory(atPath: elsewhere.appendingPathComponent("T/photos").path)
        for args in [["project", "list"], ["project", "add", "--game-system", "aos", "--army", "X"], ["mini", "rm", m],
                     ["photo", "add", m, TrackerLibrary.testPhoto("coffee.jpg").path]] {
            let r = try t.fails(args)
            #expect(r.status == 1 && r.stderrLines.count == 1 && r.stderr.contains("link"), "\(args): \(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.appendingPathComponent("T/photos").path) == before)
        try FileManager.default.removeItem(at: tracker)
        try FileManager.default.moveItem(at: moved, to: tracker)
        // 2. Tracker/photos a link; 3. tracker.json a link to a file outside.
        let photos = t.photosURL, photosReal = t.outside.appendingPathComponent("photos.real")
        try FileManager.default.moveItem(at: photos, to: photosReal)
        try FileManager.default.createSymbolicLink(at: photos, withDestinationURL: elsewhere)
        let r = try t.fails(["photo", "add", m, TrackerLibrary.testPhoto("coffee.jpg").path])
        #expect(try r.status == 1 && r.stderrLines.count == 1 && FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == ["T"])
        try FileManager.default.removeItem(at: photos)
        try FileManager.default.moveItem(at: photosReal, to: photos)
        let victim = elsewhere.appendingPathComponent("victim.json")
        try Data("precious".utf8).write(to: victim)
        try FileManager.default.removeItem(at: t.storeURL)
        try FileManager.default.createSymbolicLink(at: t.storeURL, withDestinationURL: victim)
        for args in [["project", "list"], ["recipe", "add", "--name", "R"]] {
            let f = try t.fails(args)
            #expect(f.status == 1 && f.stderrLines.count == 1, "\(args): \(f.stderr)")
        }
        #expect(try Data(contentsOf: victim) == Data("precious".utf8))
    }

    @Test func aPhotoPathFromTheStoreIsValidatedBeforeUse() throws {
        let t = try TrackerLibrary()
        let (m, _, _) = try populated(t)
        let victim = t.outside.appendingPathComponent("victim.jpg")
        try FileManager.default.copyItem(at: TrackerLibrary.testPhoto("kite.jpg"), to: victim)
        var file = try JSONSerialization.jsonObject(with: t.storeBytes()!) as! [String: Any]
        var photos = file["photos"] as! [[String: Any]]
        photos[0]["file"] = "Tracker/photos/../../../victim.jpg"
        file["photos"] = photos
        try JSONSerialization.data(withJSONObject: file).write(to: t.storeURL)
        let r = try t.cli.run(["tracker", "mini", "rm", m])
        #expect(r.status == 0 && r.stderr.contains("not under Tracker/photos"), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: victim.path))
    }
}
