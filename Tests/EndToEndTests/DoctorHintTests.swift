import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 13: each `doctor` finding, made on a real library, then its hint followed as a user
/// would (the `fix` pasted into a shell, or the detail's advice done by hand) — and `doctor`
/// asked again: the finding is gone. Before, some hints went round in circles ("rebuild" for a
/// sidecar every rebuild drops, "scan" for empty files, "chmod" for a path too long).
@Suite(.serialized)
struct DoctorHintTests {
    static func scanned() throws -> (ShoeboxCLI, DoctorHint) {
        let cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        return (cli, DoctorHint(cli: cli))
    }

    static func remove(_ cli: ShoeboxCLI) { try? FileManager.default.removeItem(at: cli.library.deletingLastPathComponent()) }

    // MARK: sidecars

    /// A sidecar cut short, one deleted, and a stray one that is not JSON: `rebuild` keeps the
    /// ids of the first two (the old index still knows them) and moves what cannot be read into
    /// `.shoebox/invalid-sidecars/`, so the next `doctor` is clean instead of asking again.
    @Test func invalidAndMissingSidecarsAreRepairedByTheRebuildDoctorAsksFor() throws {
        let (cli, hint) = try Self.scanned()
        defer { Self.remove(cli) }
        let before = try hint.ids()
        let sidecars = cli.library.appendingPathComponent(".shoebox/sidecars")
        let paths = before.keys.sorted()
        let cut = try #require(before[paths[0]]), gone = try #require(before[paths[1]])
        let cutBytes = try Data(contentsOf: sidecars.appendingPathComponent(cut + ".json")).prefix(40)
        try cutBytes.write(to: sidecars.appendingPathComponent(cut + ".json"))
        try FileManager.default.removeItem(at: sidecars.appendingPathComponent(gone + ".json"))
        let stray = "00000000-0000-4000-8000-000000000000.json"
        try Data("{not json".utf8).write(to: sidecars.appendingPathComponent(stray))

        let sick = try hint.doctor()
        #expect(sick.status("sidecars") == "problem")
        #expect(sick.detail("sidecars").contains("1 assets without a sidecar, 1 sidecars not in the index; 1 not valid: .shoebox/sidecars/\(stray): "),
                "\(sick.detail("sidecars"))")
        let rebuilt = try hint.follow(sick.fix("sidecars"))
        #expect(rebuilt.stderr.contains(".shoebox/sidecars/\(stray): ") && rebuilt.stderr.contains("moved to .shoebox/invalid-sidecars/\(stray)"),
                "\(rebuilt.stderr)")
        #expect(rebuilt.stdout.contains("(2 of them written again from the old index: missing or not valid)"), "\(rebuilt.stdout)")

        let healed = try hint.doctor().findings
        #expect(healed.isEmpty, "\(healed)")
        #expect(try hint.ids() == before)
        // Nothing deleted: both unreadable files kept as they were.
        let kept = cli.library.appendingPathComponent(".shoebox/invalid-sidecars")
        #expect(try Data(contentsOf: kept.appendingPathComponent(stray)) == Data("{not json".utf8))
        #expect(try Data(contentsOf: kept.appendingPathComponent(cut + ".json")) == cutBytes)
        // And a second rebuild has nothing left to say.
        let again = try cli.run(["rebuild"])
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        #expect(try hint.ids() == before)
    }

    /// A sidecar edited by hand to claim sides of 2³² − 1 pixels: `tidy next` multiplied them
    /// (Tidy's similar shots rank by pixel count) and died of the overflow. Now every command that
    /// reads sizes runs, and the size counts as none.
    @Test func aSidecarClaimingSidesOfFourBillionPixelsCrashesNothing() throws {
        let (cli, hint) = try Self.scanned()
        defer { Self.remove(cli) }
        let id = try #require(try hint.ids().values.sorted().first)
        let url = cli.library.appendingPathComponent(".shoebox/sidecars/\(id).json")
        var text = try String(contentsOf: url, encoding: .utf8)
        for key in ["pixelWidth", "pixelHeight"] {
            text = text.replacingOccurrences(of: #""\#(key)" : [0-9]+"#, with: "\"\(key)\" : 4294967295", options: .regularExpression)
        }
        #expect(text.contains("\"pixelWidth\" : 4294967295") && text.contains("\"pixelHeight\" : 4294967295"))
        try Data(text.utf8).write(to: url)
        #expect(try cli.run(["rebuild"]).status == 0)
        for args in [["tidy", "next", "--json"], ["tidy", "similar", "--json"], ["list", "--json"], ["curate", "list", "--json"]] {
            let r = try cli.run(args)
            #expect(r.status == 0, "\(args): \(r.status) \(r.stderr)")
        }
    }

    /// A sidecar a newer Shoebox wrote is valid there: never moved aside; doctor says upgrade.
    @Test func aNewerSidecarIsLeftAloneAndDoctorSaysUpgrade() throws {
        let (cli, hint) = try Self.scanned()
        defer { Self.remove(cli) }
        let name = "00000000-0000-4000-8000-000000000001.json"
        let url = cli.library.appendingPathComponent(".shoebox/sidecars/" + name)
        try Data(#"{"schema": 99, "asset": {}}"#.utf8).write(to: url)
        let sick = try hint.doctor()
        #expect(sick.detail("sidecars").contains("newer than this Shoebox") && sick.detail("sidecars").hasSuffix("Upgrade Shoebox to read them"),
                "\(sick.detail("sidecars"))")
        #expect(sick.fix("sidecars") == nil)
        #expect(try cli.run(["rebuild"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: url.path))
    }

    // MARK: files a scan cannot index

    /// Hundreds of empty files: a scan cannot index them, so `doctor` must not ask for one.
    @Test func emptyFilesAreUnindexableWithAdviceThatWorks() throws {
        let (cli, hint) = try Self.scanned()
        defer { Self.remove(cli) }
        let folder = cli.library.appendingPathComponent("Empty")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for i in 0..<300 { FileManager.default.createFile(atPath: folder.appendingPathComponent(String(format: "IMG_%04d.jpg", i)).path, contents: nil) }

        let sick = try hint.doctor()
        #expect(sick.status("index") == "ok", "\(sick.detail("index"))")
        #expect(sick.status("unindexable") == "warning")
        #expect(sick.detail("unindexable").hasPrefix("300 files cannot be indexed (300 empty (0 bytes): nothing to index; delete them"),
                "\(sick.detail("unindexable"))")
        // The fix is the scan that names each; the advice (delete them) done for the files it names.
        let named = try hint.follow(sick.fix("unindexable")).stderrLines.compactMap { line -> String? in
            guard line.hasSuffix(": empty file (0 bytes)") else { return nil }
            return String(line.dropFirst("shoebox: ".count).dropLast(": empty file (0 bytes)".count))
        }
        #expect(named.count == 300)
        for path in named { try FileManager.default.removeItem(at: cli.library.appendingPathComponent(path)) }
        #expect(try hint.doctor().findings.isEmpty)
    }

    /// A file deeper than PATH_MAX: no chmod can help; `doctor` names it as too long.
    @Test func aPathTooLongIsNamedAndMovingItUpIndexesIt() throws {
        let (cli, hint) = try Self.scanned()
        defer { Self.remove(cli) }
        let sample = try TestRoll.sampleLibrary()
        let jpeg = try #require(sample.entries.first { $0.format == "jpeg" && $0.kind == "photo" && $0.duplicate_of == nil })
        let bytes = try [UInt8](Data(contentsOf: sample.root.appendingPathComponent(jpeg.path)))
        // Deep/d00xxx…/…/d19xxx…/deep.jpg, made folder by folder (no path call could name it).
        let names = (0..<20).map { String(format: "d%02d", $0) + String(repeating: "x", count: 200) }
        var fd = open(cli.library.path, O_RDONLY | O_DIRECTORY)
        for name in ["Deep"] + names {
            #expect(mkdirat(fd, name, 0o755) == 0)
            let next = openat(fd, name, O_RDONLY | O_DIRECTORY)
            close(fd)
            fd = next
        }
        let file = openat(fd, "deep.jpg", O_WRONLY | O_CREAT, 0o644)
        #expect(bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) } == bytes.count)
        close(file)
        close(fd)

        let sick = try hint.doctor()
        #expect(sick.status("permissions") == "ok", "\(sick.detail("permissions"))")
        let detail = sick.detail("unindexable")
        #expect(detail.contains("with a path too long for Linux to name: move them to a shorter path"), "\(detail)")
        #expect(detail.contains("Deep/\(names[0])/") && detail.contains(": path is too long to be indexed ("), "\(detail)")

        // Moved up: Deep/d00…/…/d09… is left, d10… goes to the library's top.
        let parent = (["Deep"] + names[..<10]).joined(separator: "/")
        let dirfd = open(cli.library.appendingPathComponent(parent).path, O_RDONLY | O_DIRECTORY)
        let rootfd = open(cli.library.path, O_RDONLY | O_DIRECTORY)
        #expect(renameat(dirfd, names[10], rootfd, "Shallower") == 0)
        close(dirfd)
        close(rootfd)
        let moved = try hint.doctor()
        #expect(moved.status("unindexable") == nil, "\(moved.detail("unindexable"))")
        #expect(moved.status("index") == "problem" && moved.detail("index").hasPrefix("1 files not indexed"))
        try hint.follow(moved.fix("index"))
        #expect(try hint.doctor().findings.isEmpty)
        #expect(try cli.assetsByPath().keys.contains { $0.hasPrefix("Shallower/") && $0.hasSuffix("/deep.jpg") })
    }

    // MARK: the other hints

    /// `permissions`: a folder nobody may read; its `chmod` run by the library's owner (as root,
    /// who reads everything, the library is given to `nobody`, who runs doctor and the fix).
    @Test func anUnreadableFolderIsFixedByTheChmodDoctorGives() throws {
        let (cli, _) = try Self.scanned()
        defer { Self.remove(cli) }
        let base = cli.library.deletingLastPathComponent()
        let asRoot = geteuid() == 0
        // The build folder may sit under a folder nobody cannot enter (/root): run a copy.
        let bin = base.appendingPathComponent("bin")
        try ShoeboxCLI.placeBinaries(in: bin)
        if asRoot { try TestRoll.run("/bin/chown", ["-R", "65534:65534", base.path]) }
        func asOwner(_ command: String) throws -> (status: Int32, stdout: String, stderr: String) {
            var env = ProcessInfo.processInfo.environment
            env["SHOEBOX_LIBRARY"] = nil
            env["PATH"] = bin.path + ":/usr/bin:/bin"
            let sh = ["/bin/sh", "-c", "cd / && " + command]
            return try TestRoll.run(asRoot ? "/usr/bin/setpriv" : sh[0],
                                    (asRoot ? ["--reuid=65534", "--regid=65534", "--clear-groups"] + sh : Array(sh.dropFirst())),
                                    environment: env, allowFailure: true)
        }
        func permissions() throws -> [String: Any] {
            let out = try asOwner("shoebox doctor --json --library \(cli.library.path)").stdout
            let checks = try #require((try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])?["checks"] as? [[String: Any]])
            return try #require(checks.first { $0["name"] as? String == "permissions" })
        }
        let folder = cli.library.appendingPathComponent("2017")
        #expect(chmod(folder.path, 0o000) == 0)
        defer { chmod(folder.path, 0o755) }
        let sick = try permissions()
        #expect(sick["status"] as? String == "problem" && (sick["detail"] as? String ?? "").contains("2017"), "\(sick)")
        let fix = try #require(sick["fix"] as? String)
        #expect(fix.hasPrefix("chmod -R u+rX "))
        let ran = try asOwner(fix)
        #expect(ran.status == 0, "\(fix): \(ran.stderr)")
        #expect(try permissions()["status"] as? String == "ok")
    }

    /// `index`, `journal`, `albums` and `recently deleted` all say `scan`: each finding made,
    /// the scan run, each gone.
    @Test func theFindingsAScanFixes() throws {
        let (cli, hint) = try Self.scanned()
        defer { Self.remove(cli) }
        let lib = cli.library
        let fm = FileManager.default
        let paths = try cli.assetsByPath().keys.sorted()
        try fm.copyItem(at: lib.appendingPathComponent(paths[0]), to: lib.appendingPathComponent("copied in.jpg"))
        try fm.removeItem(at: lib.appendingPathComponent(paths.last!))
        let album = try #require(try fm.contentsOfDirectory(atPath: lib.path + "/Albums/Years").first)
        try fm.createSymbolicLink(atPath: lib.path + "/Albums/Years/\(album)/999 gone.jpg", withDestinationPath: "../../../nowhere.jpg")
        // A trashed photo whose file was deleted from Recently Deleted by hand.
        #expect(try cli.run(["trash", paths[1]]).status == 0)
        let trashedName = (paths[1] as NSString).lastPathComponent
        try fm.removeItem(at: lib.appendingPathComponent("Recently Deleted/files/" + trashedName))
        // Last: every writing command reconciles Recently Deleted and replays a journal first.
        try Data("[Trash Info]\nPath=gone.jpg\nDeletionDate=2026-11-01T10:00:00\n".utf8)
            .write(to: lib.appendingPathComponent("Recently Deleted/info/gone.jpg.trashinfo"))
        try Data("[]".utf8).write(to: lib.appendingPathComponent(".shoebox/journal.json"))

        let sick = try hint.doctor()
        #expect(sick.detail("recently deleted").hasPrefix("2 .trashinfo files without their file, 1 trashed assets whose file is gone"),
                "\(sick.detail("recently deleted"))")
        for name in ["index", "journal", "albums", "recently deleted"] {
            #expect(sick.status(name) != "ok" && sick.fix(name) == sick.fix("index"), "\(name): \(sick.checks[name] ?? [:])")
        }
        try hint.follow(sick.fix("index"))
        let healed = try hint.doctor().findings
        #expect(healed.isEmpty, "\(healed)")
    }

    /// `config`: the detail names the line and the key meant; editing it as said is enough.
    @Test func aMisspeltConfigKeyIsFixedAsTheDetailSays() throws {
        let (cli, hint) = try Self.scanned()
        defer { Self.remove(cli) }
        let config = cli.library.appendingPathComponent(".shoebox/config.toml")
        try Data("[trash]\nretention_day = 365\n".utf8).write(to: config)
        let sick = try hint.doctor()
        #expect(sick.status("config") == "problem" && sick.detail("config").contains("did you mean trash.retention_days?"),
                "\(sick.detail("config"))")
        #expect(sick.fix("config") == "edit \(config.path)")
        try Data("[trash]\nretention_days = 365\n".utf8).write(to: config)
        #expect(try hint.doctor().findings.isEmpty)
    }

    /// `owned folders`: the detail says to move the link out of the library; done, the next
    /// finding (the albums to write again) says scan; done, clean.
    @Test func aLinkAtAnOwnedFolderMovedAwayAsTheDetailSays() throws {
        let (cli, hint) = try Self.scanned()
        defer { Self.remove(cli) }
        let base = cli.library.deletingLastPathComponent()
        let albums = cli.library.appendingPathComponent("Albums")
        try FileManager.default.moveItem(at: albums, to: base.appendingPathComponent("real albums"))
        try FileManager.default.createSymbolicLink(at: albums, withDestinationURL: base.appendingPathComponent("real albums"))
        let sick = try hint.doctor()
        #expect(sick.detail("owned folders").contains("\(albums.path) is a symbolic link") && sick.detail("owned folders").contains("`mv` it out of the library"))
        #expect(rename(albums.path, base.appendingPathComponent("the link").path) == 0)
        let then = try hint.doctor()
        #expect(then.status("owned folders") == "ok")
        try hint.follow(then.fix("albums"))
        #expect(try hint.doctor().findings.isEmpty)
    }
}
