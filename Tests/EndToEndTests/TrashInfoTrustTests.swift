import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 13: what `Recently Deleted/` holds when its `.trashinfo` files cannot be trusted. A
/// damaged one hid a trashed photo from `trash list` and `restore` and kept it for good, with a
/// `doctor` hint (scan) that did not help; a file another tool trashed out of the library was
/// listed but could not be restored. Now every file there is listed, restorable when anything
/// says where it came from, purged in its time, and the doctor hint works.
@Suite(.serialized)
struct TrashInfoTrustTests {
    static let garbage = Data("\u{1}\u{2} not a trash info\n".utf8)

    static func scanned() throws -> (ShoeboxCLI, DoctorHint) {
        let cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        return (cli, DoctorHint(cli: cli))
    }

    static func trashList(_ cli: ShoeboxCLI) throws -> [String: [String: Any]] {
        let items = try cli.json(["trash", "list"]) as? [[String: Any]] ?? []
        return Dictionary(items.map { ($0["name"] as! String, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// A photo the sample library has once (no copy, no Live Photo video), as bytes.
    static func aPhoto() throws -> Data {
        let sample = try TestRoll.sampleLibrary()
        let e = try #require(sample.entries.first { e in e.format == "jpeg" && e.kind == "photo" && e.duplicate_of == nil
            && !sample.entries.contains { $0.duplicate_of == e.path } })
        return try Data(contentsOf: sample.root.appendingPathComponent(e.path))
    }

    @Test func aTrashedPhotoWithADamagedTrashinfoIsListedRestorableAndDoctorsScanMendsIt() throws {
        let (cli, hint) = try Self.scanned()
        defer { try? FileManager.default.removeItem(at: cli.library.deletingLastPathComponent()) }
        let (path, asset) = try #require(try cli.assetsByPath().sorted { $0.key < $1.key }.first { $0.value["live_video"] is NSNull })
        #expect(try cli.run(["trash", path]).status == 0)
        let name = (path as NSString).lastPathComponent
        let info = cli.library.appendingPathComponent("Recently Deleted/info/\(name).trashinfo")
        try Self.garbage.write(to: info)

        let item = try #require(try Self.trashList(cli)[name], "the photo is hidden from trash list")
        #expect(item["id"] as? String == asset["id"] as? String && item["original_path"] as? String == path)
        #expect(item["problem"] is NSNull)

        let sick = try hint.doctor()
        #expect(sick.status("recently deleted") == "problem" && sick.detail("recently deleted").contains("1 unreadable .trashinfo files"))
        try hint.follow(sick.fix("recently deleted"))
        #expect(try hint.doctor().findings.isEmpty)
        // Other tools can read it again: the index said what it held.
        #expect(try String(contentsOf: info, encoding: .utf8).contains("\nPath=" + path.replacingOccurrences(of: " ", with: "%20") + "\n"))

        let restored = try #require(try cli.json(["restore", name]) as? [[String: Any]])
        #expect(restored.map { $0["id"] as? String } == [asset["id"] as? String])
        #expect(try cli.assetsByPath()[path]?["id"] as? String == asset["id"] as? String)
    }

    /// Another tool's files: one whose `.trashinfo` is damaged, one without any. Listed with
    /// why they cannot be restored; `restore` says so in one line; doctor's fix keeps them.
    @Test func filesWithoutAUsableTrashinfoAreListedAndDoctorsFixKeepsThem() throws {
        let (cli, hint) = try Self.scanned()
        defer { try? FileManager.default.removeItem(at: cli.library.deletingLastPathComponent()) }
        let trash = cli.library.appendingPathComponent("Recently Deleted")
        try FileManager.default.createDirectory(at: trash.appendingPathComponent("info"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: trash.appendingPathComponent("files"), withIntermediateDirectories: true)
        try Self.aPhoto().write(to: trash.appendingPathComponent("files/damaged info.jpg"))
        try Self.garbage.write(to: trash.appendingPathComponent("info/damaged info.jpg.trashinfo"))
        try Data("notes\n".utf8).write(to: trash.appendingPathComponent("files/no info.txt"))

        let items = try Self.trashList(cli)
        #expect((items["damaged info.jpg"]?["problem"] as? String)?.hasPrefix("its .trashinfo has no [Trash Info] group") == true, "\(items)")
        #expect(items["no info.txt"]?["problem"] as? String == "it has no .trashinfo, so nothing says where it came from")
        #expect(items.values.allSatisfy { $0["original_path"] is NSNull && ($0["days_left"] as? Int) == 30 })
        let text = try cli.run(["trash", "list"]).stdout
        #expect(text.contains("damaged info.jpg  [cannot be restored: its .trashinfo has no [Trash Info] group"), "\(text)")

        let refused = try cli.run(["restore", "damaged info.jpg"])
        #expect(refused.status == 1 && refused.stderrLines.count == 1)
        #expect(refused.stderr.contains("Recently Deleted/files/damaged info.jpg cannot be restored: its .trashinfo has no [Trash Info] group"))
        #expect(FileManager.default.fileExists(atPath: trash.appendingPathComponent("files/damaged info.jpg").path))

        // doctor: a warning, and a fix that keeps them in the library.
        let sick = try hint.doctor()
        #expect(sick.status("recently deleted") == "warning", "\(sick.all)")
        #expect(sick.detail("recently deleted").hasPrefix("2 items `restore` cannot put back: damaged info.jpg: its .trashinfo has no [Trash Info] group"))
        try hint.follow(sick.fix("recently deleted"))
        #expect(try hint.doctor().findings.isEmpty)
        #expect(try cli.assetsByPath()["damaged info.jpg"] != nil)
        #expect(FileManager.default.fileExists(atPath: cli.library.appendingPathComponent("no info.txt").path))
        #expect(try Self.trashList(cli).isEmpty)
    }

    /// Left alone, such files are purged in their time (dated by their info file, or by the
    /// file itself), not kept for good.
    @Test func filesWithoutAUsableTrashinfoArePurgedInTheirTime() throws {
        let (cli, _) = try Self.scanned()
        defer { try? FileManager.default.removeItem(at: cli.library.deletingLastPathComponent()) }
        let trash = cli.library.appendingPathComponent("Recently Deleted")
        for folder in ["info", "files"] {
            try FileManager.default.createDirectory(at: trash.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try Self.aPhoto().write(to: trash.appendingPathComponent("files/damaged.jpg"))
        try Self.garbage.write(to: trash.appendingPathComponent("info/damaged.jpg.trashinfo"))
        try Data("notes\n".utf8).write(to: trash.appendingPathComponent("files/no info.txt"))
        var early = cli, late = cli
        early.environment["SHOEBOX_NOW"] = ShoeboxClockText.daysAfterNow(29)
        late.environment["SHOEBOX_NOW"] = ShoeboxClockText.daysAfterNow(31)
        #expect(try early.run(["trash", "purge"]).stdout.hasPrefix("Nothing in Recently Deleted is older than 30 days"))
        let purged = try late.run(["trash", "purge"])
        #expect(purged.status == 0 && purged.stdout.hasPrefix("Purged 2 items"), "\(purged.stdout) \(purged.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: trash.appendingPathComponent("files").path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: trash.appendingPathComponent("info").path).isEmpty)
        let log = try String(contentsOf: cli.library.appendingPathComponent(".shoebox/purge.log"), encoding: .utf8)
        #expect(log.contains("purged Recently Deleted/files/damaged.jpg (") && log.contains("was from an unknown place"), "\(log)")
    }
}

/// Files another tool put into `Recently Deleted/` with a `.trashinfo` of its own: a `Path=`
/// absolute (trash-cli on `/`, through the library's resolved folder), relative to the mount
/// point (trash-cli elsewhere), or relative to the library (the specification). Those inside the
/// library are restored and indexed; those outside are refused with one line each; nothing is
/// moved outside.
@Suite(.serialized)
struct ForeignTrashItemTests {
    static func put(_ data: Data, as name: String, path: String, in trash: URL) throws {
        for folder in ["info", "files"] {
            try FileManager.default.createDirectory(at: trash.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try data.write(to: trash.appendingPathComponent("files/" + name))
        let encoded = path.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~/"))!
        try Data("[Trash Info]\nPath=\(encoded)\nDeletionDate=2026-11-20T10:15:03\n".utf8)
            .write(to: trash.appendingPathComponent("info/\(name).trashinfo"))
    }

    @Test func itemsInsideTheLibraryRestoreAndThoseOutsideAreRefused() throws {
        let made = try TestRoll.sampleCopy()
        let base = made.root.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: base) }
        // The library reached through a link: trash-cli writes the resolved folder.
        let link = base.appendingPathComponent("linked library")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: made.root)
        let cli = try ShoeboxCLI.scanned(TestRoll.Made(root: link, entries: made.entries))
        let photo = try TrashInfoTrustTests.aPhoto()
        let bytes = (0..<3).map { i in photo + Data("\(i)".utf8) }  // three new contents
        let trash = link.appendingPathComponent("Recently Deleted")
        let real = made.root.resolvingSymlinksInPath().path
        let mountPrefix = String(real.dropFirst(TrashInteropTests.mountPoint(containing: real).count)).drop { $0 == "/" }
        try Self.put(bytes[0], as: "absolute.jpg", path: real + "/Imported/absolute.jpg", in: trash)
        try Self.put(bytes[1], as: "mount.jpg", path: mountPrefix + "/Imported/mount.jpg", in: trash)
        try Self.put(bytes[2], as: "library.jpg", path: "Imported/library.jpg", in: trash)
        try Self.put(photo, as: "elsewhere.jpg", path: base.path + "/outside/elsewhere.jpg", in: trash)
        try Self.put(photo, as: "up.jpg", path: "../outside/up.jpg", in: trash)

        let listed = try TrashInfoTrustTests.trashList(cli)
        #expect(listed["absolute.jpg"]?["original_path"] as? String == "Imported/absolute.jpg", "\(listed)")
        #expect(listed["mount.jpg"]?["original_path"] as? String == "Imported/mount.jpg")
        #expect(listed["library.jpg"]?["original_path"] as? String == "Imported/library.jpg")
        #expect((listed["elsewhere.jpg"]?["problem"] as? String)?.hasSuffix("/outside/elsewhere.jpg, outside the library; Shoebox restores only into the library") == true)
        #expect(listed["up.jpg"]?["problem"] as? String == "its .trashinfo names ../outside/up.jpg, which is not a plain path inside the library")

        let r = try cli.run(["restore", "absolute.jpg", "mount.jpg", "Imported/library.jpg", "elsewhere.jpg", "up.jpg", "--json"])
        #expect(r.status == 1)
        #expect(r.stderrLines.count == 2 && r.stderrLines.allSatisfy { $0.contains(" cannot be restored: its .trashinfo names ") }, "\(r.stderr)")
        let restored = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(Set(restored.compactMap { $0["path"] as? String }) == ["Imported/absolute.jpg", "Imported/mount.jpg", "Imported/library.jpg"])
        let assets = try cli.assetsByPath()
        for item in restored {
            let path = try #require(item["path"] as? String)
            #expect(item["id"] as? String == assets[path]?["id"] as? String && item["id"] is String, "\(item)")
        }
        #expect(!FileManager.default.fileExists(atPath: base.appendingPathComponent("outside").path))
        #expect(Set(try TrashInfoTrustTests.trashList(cli).keys) == ["elsewhere.jpg", "up.jpg"])
    }

    /// A `Path=` with a newline and an escape sequence, inside and outside the library: one line
    /// each, escaped, in `trash list`, on the terminal when purged, and in `purge.log`.
    @Test func aForeignPathIsEscapedWhereverItIsShown() throws {
        let (cli, _) = try TrashInfoTrustTests.scanned()
        defer { try? FileManager.default.removeItem(at: cli.library.deletingLastPathComponent()) }
        let trash = cli.library.appendingPathComponent("Recently Deleted")
        try Self.put(Data("a".utf8), as: "in.jpg", path: "in\nrm -rf ~\u{1b}[31m.jpg", in: trash)
        try Self.put(Data("b".utf8), as: "out.jpg", path: "/etc/x\nrm -rf ~\u{1b}[31m", in: trash)
        let list = try cli.run(["trash", "list"])
        #expect(list.stdout.split(separator: "\n").count == 2 && !list.stdout.contains("\u{1b}"), "\(list.stdout)")
        #expect(list.stdout.contains("in\\nrm -rf ~\\x1b[31m.jpg") && list.stdout.contains("/etc/x\\nrm -rf ~\\x1b[31m"))
        let purged = try cli.run(["trash", "purge"], extraEnvironment: ["SHOEBOX_NOW": "2099-01-01T00:00:00Z"])
        #expect(purged.status == 0 && purged.stderrLines.count == 2 && !purged.stderr.contains("\u{1b}"), "\(purged.stderr)")
        let log = try String(contentsOf: cli.library.appendingPathComponent(".shoebox/purge.log"), encoding: .utf8)
        #expect(log.split(separator: "\n").count == 2 && !log.contains("\u{1b}"), "\(log)")
        #expect(log.contains("was in\\nrm -rf ~\\x1b[31m.jpg,") && log.contains("was /etc/x\\nrm -rf ~\\x1b[31m by its .trashinfo,"), "\(log)")
    }

    /// trash-cli trashes a photo the index has not seen yet: `trash list` shows it as another
    /// tool's file; `restore` puts it back and indexes it.
    @Test(.enabled(if: TrashInteropTests.installed, TrashInteropTests.notInstalled))
    func whatTrashPutTrashedBeforeAScanRestores() throws {
        let (cli, _) = try TrashInfoTrustTests.scanned()
        defer { try? FileManager.default.removeItem(at: cli.library.deletingLastPathComponent()) }
        let root = cli.library.path
        try FileManager.default.createDirectory(atPath: root + "/New", withIntermediateDirectories: true)
        try (try TrashInfoTrustTests.aPhoto() + Data("new".utf8)).write(to: URL(fileURLWithPath: root + "/New/not yet seen.jpg"))
        try TrashInteropTests.trashCLI("trash-put", ["--trash-dir=" + root + "/Recently Deleted", root + "/New/not yet seen.jpg"])
        try FileManager.default.removeItem(atPath: root + "/New")
        let item = try #require(try TrashInfoTrustTests.trashList(cli)["not yet seen.jpg"])
        #expect(item["id"] is NSNull && item["original_path"] as? String == "New/not yet seen.jpg" && item["problem"] is NSNull, "\(item)")
        let restored = try #require(try cli.json(["restore", "not yet seen.jpg"]) as? [[String: Any]])
        #expect(restored.first?["path"] as? String == "New/not yet seen.jpg")
        #expect(restored.first?["id"] as? String == (try cli.assetsByPath()["New/not yet seen.jpg"]?["id"] as? String))
        #expect(try TrashInteropTests.trashCLI("trash-list", ["--trash-dir=" + root + "/Recently Deleted"]).isEmpty)
    }
}

/// `$SHOEBOX_NOW` values relative to the real clock.
enum ShoeboxClockText {
    static func daysAfterNow(_ days: Int) -> String {
        let f = ISO8601DateFormatter()
        return f.string(from: Date().addingTimeInterval(Double(days) * 86400))
    }
}
