import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Disk full, inodes gone and read-only mounts (issue 5): every write of scan, sidecars, trash,
/// restore, albums and watch fails with one clear line, leaves nothing half-written, loses no
/// photo, and everything works again once space is back; a read-only library can still be read.
@Suite(.serialized, .enabled(if: SmallDisk.unavailable == nil, "\(SmallDisk.unavailable ?? "")"))
struct DiskFullTests {
    /// The sample library's originals under `folders`, by path: what must stay byte-identical.
    /// How many assets `list` shows for `folders` (the video half of a Live Photo is not one).
    static func listedCount(_ folders: [String]) throws -> Int {
        try TestRoll.sampleLibrary().entries.filter { e in
            e.live_photo_of == nil && folders.contains { e.path.hasPrefix($0 + "/") }
        }.count
    }

    static func originals(_ folders: [String]) throws -> [String: Data] {
        let sample = try TestRoll.sampleLibrary()
        var out: [String: Data] = [:]
        for e in sample.entries where folders.contains(where: { e.path.hasPrefix($0 + "/") }) {
            out[e.path] = try Data(contentsOf: sample.root.appendingPathComponent(e.path))
        }
        return out
    }

    /// Every regular file of the library outside `.shoebox/` and `Albums/`, by relative path.
    static func filesOnDisk(_ root: URL) -> [String: Data] {
        var out: [String: Data] = [:]
        let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])!
        for case let url as URL in e {
            let rel = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            if rel.hasPrefix(".shoebox") || rel.hasPrefix("Albums") { e.skipDescendants(); continue }
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true, !rel.hasPrefix("Recently Deleted/info") {
                out[rel] = try? Data(contentsOf: url)
            }
        }
        return out
    }

    /// Each original exactly once, byte-identical: at its path or in `Recently Deleted/files/`.
    static func expectEveryOriginalOnce(_ root: URL, _ originals: [String: Data], sourceLocation: SourceLocation = #_sourceLocation) {
        let disk = filesOnDisk(root)
        for (path, bytes) in originals {
            let name = (path as NSString).lastPathComponent
            let copies = disk.filter { $0.key == path || $0.key.hasPrefix("Recently Deleted/files/") && $0.key.hasSuffix(name) }
            #expect(copies.count == 1, "\(path) on disk \(copies.count) times", sourceLocation: sourceLocation)
            #expect(copies.values.first == bytes, "\(path) changed", sourceLocation: sourceLocation)
        }
        #expect(disk.count == originals.count, "unexpected files: \(Set(disk.keys).subtracting(originals.keys).sorted())", sourceLocation: sourceLocation)
    }

    /// Nothing half-written: no temporary of an atomic write, every sidecar and album file whole JSON.
    static func expectNothingHalfWritten(_ root: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        let e = FileManager.default.enumerator(atPath: root.path)!
        for case let rel as String in e {
            let name = (rel as NSString).lastPathComponent
            #expect(!(name.hasPrefix(".") && name.hasSuffix(".tmp")), "temporary left: \(rel)", sourceLocation: sourceLocation)
            if rel.hasPrefix(".shoebox/sidecars/") || rel.hasPrefix(".shoebox/albums/"), rel.hasSuffix(".json") {
                let data = (try? Data(contentsOf: root.appendingPathComponent(rel))) ?? Data()
                #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(rel) is not whole JSON", sourceLocation: sourceLocation)
            }
            if rel.hasPrefix("Recently Deleted/info/") {
                let text = (try? String(contentsOf: root.appendingPathComponent(rel), encoding: .utf8)) ?? ""
                #expect(text.contains("Path=") && text.contains("DeletionDate="), "\(rel) is half-written", sourceLocation: sourceLocation)
            }
        }
        let dangling = try? TestRoll.run("/usr/bin/find", [root.path, "-xtype", "l"])
        #expect(dangling?.stdout.isEmpty == true, "dangling links: \(dangling?.stdout ?? "")", sourceLocation: sourceLocation)
    }

    /// `doctor`'s lines that are not `ok`, but for the free-space line (a small disk is always short).
    static func doctorProblems(_ cli: ShoeboxCLI) throws -> [String] {
        try cli.run(["doctor"]).stdout.split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("ok") && !$0.contains("disk space") }
    }

    /// A failed command: exit 1 and one line on stderr that says what ran out.
    static func expectOneLineFailure(_ r: ShoeboxCLI.Result, saying words: [String], _ what: String,
                                     sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == 1, "\(what) should fail: \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderrLines.count == 1, "\(what): one line, got \(r.stderrLines)", sourceLocation: sourceLocation)
        #expect(words.contains { r.stderr.contains($0) }, "\(what) should say one of \(words): \(r.stderr)", sourceLocation: sourceLocation)
    }

    static let spaceWords = ["No space left on device", "is full", "database or disk is full"]

    @Test func aScanThatRunsOutOfSpaceSaysSoAndFinishesOnceSpaceIsBack() throws {
        let first = ["2017", "2019"], arriving = ["2021", "2023", "2025", "2026", "Screenshots"]
        let originals = try Self.originals(first + arriving)
        // From nothing left (the index cannot even be opened for writing) to room for part of
        // the sidecars: each level fails at another write.
        var failures = 0
        for leaving in [0, 48 << 10, 160 << 10, 320 << 10] {
            let disk = try SmallDisk(megabytes: 24, folders: first)
            let cli = ShoeboxCLI(library: disk.library)
            #expect(try cli.run(["init"]).status == 0)
            #expect(try cli.run(["scan"]).status == 0)
            let before = try cli.assetsByPath().mapValues { $0["id"] as! String }
            try disk.copyIn(arriving)
            try disk.fill(leaving: leaving)
            let full = try cli.run(["scan"])
            if full.status != 0 {
                failures += 1
                Self.expectOneLineFailure(full, saying: Self.spaceWords, "scan leaving \(leaving) bytes")
            }
            Self.expectEveryOriginalOnce(disk.library, originals)
            Self.expectNothingHalfWritten(disk.library)
            // What was indexed before is still listed, with its ids, while the disk is full.
            let during = try cli.assetsByPath().mapValues { $0["id"] as! String }
            for (path, id) in before { #expect(during[path] == id, "\(path) while full") }

            disk.giveSpaceBack()
            let again = try cli.run(["scan"])
            #expect(again.status == 0, "scan with space back: \(again.stderr)")
            let after = try cli.assetsByPath().mapValues { $0["id"] as! String }
            for (path, id) in before { #expect(after[path] == id, "\(path) kept its id") }
            #expect(after.count > before.count)
            let problems = try Self.doctorProblems(cli)
            #expect(problems.isEmpty, "doctor after space came back (leaving \(leaving)): \(problems)")
            #expect(FileManager.default.fileExists(atPath: disk.library.path + "/Albums/Screenshots"), "albums made once space is back")
            Self.expectEveryOriginalOnce(disk.library, originals)
            Self.expectNothingHalfWritten(disk.library)
        }
        #expect(failures >= 3, "most levels should run out of space")
    }

    @Test func runningOutOfInodesIsReportedAndRecoveredLikeSpace() throws {
        let folders = ["2017", "2019", "2021"]
        let originals = try Self.originals(folders)
        let disk = try SmallDisk(megabytes: 24, folders: folders)
        let cli = ShoeboxCLI(library: disk.library)
        #expect(try cli.run(["init"]).status == 0)
        // Room for a handful of sidecars, not one per photo.
        try disk.remount("nr_inodes=\(disk.usedInodes + 6)")
        let r = try cli.run(["scan"])
        Self.expectOneLineFailure(r, saying: Self.spaceWords + ["inodes"], "scan without inodes")
        Self.expectEveryOriginalOnce(disk.library, originals)
        Self.expectNothingHalfWritten(disk.library)
        try disk.remount("nr_inodes=100000")
        #expect(try cli.run(["scan"]).status == 0)
        #expect(try cli.assetsByPath().count == Self.listedCount(folders))
        let problems = try Self.doctorProblems(cli)
        #expect(problems.isEmpty, "\(problems)")
        Self.expectNothingHalfWritten(disk.library)
    }

    @Test func trashRestoreAndAlbumsOnAFullDiskChangeNothingOrFinishLater() throws {
        let folders = ["2017", "2019", "2021"]
        let originals = try Self.originals(folders)
        let disk = try SmallDisk(megabytes: 24, folders: folders)
        let cli = ShoeboxCLI(library: disk.library)
        #expect(try cli.run(["init"]).status == 0)
        #expect(try cli.run(["scan"]).status == 0)
        let ids = try cli.assetsByPath().mapValues { $0["id"] as! String }
        let photos = ids.keys.filter { $0.hasSuffix(".JPG") || $0.hasSuffix(".HEIC") }.sorted()
        let (victim, other) = (photos[0], photos[1])
        #expect(try cli.run(["album", "create", "Keep", victim]).status == 0)
        let keepBefore = try cli.run(["album", "show", "Keep", "--json"]).stdout

        try disk.fill(leaving: 0)
        // Reading works on a full disk.
        #expect(try cli.run(["list"]).status == 0)
        #expect(try cli.run(["album", "list"]).status == 0)
        #expect(try cli.run(["trash", "list"]).status == 0)

        let trash = try cli.run(["trash", victim])
        Self.expectOneLineFailure(trash, saying: Self.spaceWords, "trash on a full disk")
        #expect(FileManager.default.fileExists(atPath: disk.library.path + "/" + victim), "still where it was")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: disk.library.path + "/Recently Deleted/info"))?.isEmpty ?? true)

        let create = try cli.run(["album", "create", "Best of", other])
        Self.expectOneLineFailure(create, saying: Self.spaceWords, "album create on a full disk")
        #expect(!FileManager.default.fileExists(atPath: disk.library.path + "/Albums/Best of"))
        #expect(!(try cli.run(["album", "list"]).stdout.contains("Best of")))
        let add = try cli.run(["album", "add", "Keep", other])
        Self.expectOneLineFailure(add, saying: Self.spaceWords, "album add on a full disk")
        #expect(try cli.run(["album", "show", "Keep", "--json"]).stdout == keepBefore, "the album is as it was")
        Self.expectEveryOriginalOnce(disk.library, originals)
        Self.expectNothingHalfWritten(disk.library)

        // Space back: the same commands work; then restore on a full disk.
        disk.giveSpaceBack()
        #expect(try cli.run(["trash", victim]).status == 0)
        try disk.fill(leaving: 0)
        let restore = try cli.run(["restore", victim])
        if restore.status != 0 { Self.expectOneLineFailure(restore, saying: Self.spaceWords, "restore on a full disk") }
        Self.expectEveryOriginalOnce(disk.library, originals)
        Self.expectNothingHalfWritten(disk.library)

        disk.giveSpaceBack()
        #expect(try cli.run(["scan"]).status == 0, "the next command reconciles")
        if !FileManager.default.fileExists(atPath: disk.library.path + "/" + victim) {
            #expect(try cli.run(["restore", victim]).status == 0)
        }
        let after = try cli.assetsByPath()
        #expect(after[victim]?["id"] as? String == ids[victim], "restored with its id")
        #expect(after[victim]?["state"] as? String == "present")
        let keep = try cli.run(["album", "show", "Keep", "--json"]).stdout
        #expect(keep.contains(ids[victim]!), "back in its album")
        #expect(try cli.run(["album", "create", "Best of", other]).status == 0)
        let problems = try Self.doctorProblems(cli)
        #expect(problems.isEmpty, "\(problems)")
        Self.expectEveryOriginalOnce(disk.library, originals)
        Self.expectNothingHalfWritten(disk.library)
    }

    @Test(.timeLimit(.minutes(2)))
    func watchSaysTheDiskIsFullAndCatchesUpWhenSpaceIsBack() throws {
        let folders = ["2017", "2019"]
        let disk = try SmallDisk(megabytes: 24, folders: folders)
        let cli = ShoeboxCLI(library: disk.library)
        #expect(try cli.run(["init"]).status == 0)
        #expect(try cli.run(["scan"]).status == 0)
        let ids = try cli.assetsByPath().mapValues { $0["id"] as! String }
        let moved = try #require(ids.keys.sorted().first { $0.hasSuffix(".JPG") })
        let watch = try WatchProcess(cli)
        defer { watch.stop() }
        try watch.waitFor("reconciled by a scan (start-up)")

        try disk.fill(leaving: 0)
        // A rename needs no space; recording it does.
        let newPath = (moved as NSString).deletingLastPathComponent + "/renamed on a full disk.jpg"
        try FileManager.default.moveItem(atPath: disk.library.path + "/" + moved, toPath: disk.library.path + "/" + newPath)
        try watch.waitFor("No space left on device", orAny: ["is full", "disk is full"])
        disk.giveSpaceBack()
        let deadline = Date().addingTimeInterval(40)
        var after: [String: [String: Any]] = [:]
        while Date() < deadline {
            after = try cli.assetsByPath()
            if after[newPath] != nil { break }
            usleep(300_000)
        }
        #expect(after[newPath]?["id"] as? String == ids[moved], "the rename is recorded with the same id once space is back")
        #expect(watch.isRunning, "watch kept running")
        #expect(watch.stop() == 0)
        let problems = try Self.doctorProblems(cli)
        #expect(problems.isEmpty, "\(problems)")
        Self.expectNothingHalfWritten(disk.library)
    }

    @Test(.timeLimit(.minutes(2)))
    func aReadOnlyLibraryIsReadAndNeverWritten() throws {
        let folders = ["2017", "2019"]
        let originals = try Self.originals(folders + ["2021"])
        let disk = try SmallDisk(megabytes: 24, folders: folders)
        let cli = ShoeboxCLI(library: disk.library)
        #expect(try cli.run(["init"]).status == 0)
        #expect(try cli.run(["scan"]).status == 0)
        // `watch` records an arrival and is killed: what it committed may still be in the WAL,
        // which a read-only reader must see.
        let watch = try WatchProcess(cli)
        try watch.waitFor("watching")
        try disk.copyIn(["2021"])
        var listed = 0
        let deadline = Date().addingTimeInterval(30)
        let expected = try Self.listedCount(folders + ["2021"])
        // `!=`, not `<`: between a batch's commit and its Live Photo pairing, the video half is
        // briefly listed on its own.
        while Date() < deadline, listed != expected {
            listed = try cli.assetsByPath().count
            usleep(200_000)
        }
        watch.kill()
        #expect(listed == expected)
        let ids = try cli.assetsByPath().mapValues { $0["id"] as! String }
        let someone = ids.keys.sorted().first!

        for afterCleanClose in [false, true] {
            if afterCleanClose {
                // A clean close checkpoints the WAL and removes it: the read-only reader then
                // has no -shm to share.
                try disk.remount("rw")
                #expect(try cli.run(["scan"]).status == 0)
                #expect(!FileManager.default.fileExists(atPath: disk.library.path + "/.shoebox/index.sqlite-wal"))
            }
            try disk.remount("ro")
            #expect(try cli.assetsByPath().mapValues { $0["id"] as! String } == ids, "list reads a read-only library")
            #expect(try cli.run(["show", someone]).status == 0)
            #expect(try cli.run(["album", "list"]).status == 0)
            #expect(try cli.run(["album", "show", "Years/2017"]).status == 0)
            #expect(try cli.run(["trash", "list"]).status == 0)
            let doctor = try cli.run(["doctor"])
            #expect(doctor.status == 1)
            #expect(doctor.stdout.contains("read-only"), "\(doctor.stdout)")
            #expect(doctor.stdout.split(separator: "\n").contains { $0.hasPrefix("ok") && $0.contains("index:") }, "\(doctor.stdout)")
            for command in [["scan"], ["trash", someone], ["restore", someone], ["album", "create", "X"], ["rebuild"], ["watch"], ["trash", "purge"]] {
                Self.expectOneLineFailure(try cli.run(command), saying: ["read-only file system"], "\(command) on a read-only library")
            }
            Self.expectEveryOriginalOnce(disk.library, originals)
        }
        try disk.remount("rw")
        #expect(try cli.run(["scan"]).status == 0)
        let problems = try Self.doctorProblems(cli)
        #expect(problems.isEmpty, "\(problems)")
    }
}

/// `shoebox watch` in the background, its log collected.
final class WatchProcess: @unchecked Sendable {
    private let process = Process()
    private let log: URL

    init(_ cli: ShoeboxCLI) throws {
        // Not beside the library: an open file would keep its mount from being remounted read-only.
        log = Scratch.root.appendingPathComponent("shoebox-watch-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: ShoeboxCLI.binary)
        process.arguments = ["watch", "--library", cli.library.path]
        var env = ProcessInfo.processInfo.environment
        env["SHOEBOX_LIBRARY"] = nil
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        let handle = try FileHandle(forWritingTo: log)
        process.standardError = handle
        try process.run()
        try handle.close()
    }

    var text: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
    var isRunning: Bool { process.isRunning }
    var pid: Int32 { process.processIdentifier }

    func waitFor(_ words: String, orAny others: [String] = [], seconds: Double = 30) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let t = text
            if t.contains(words) || others.contains(where: t.contains) { return }
            if !process.isRunning { break }
            usleep(100_000)
        }
        throw NSError(domain: "watch", code: 1, userInfo: [NSLocalizedDescriptionKey: "watch never said \(words): \(text)"])
    }

    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
        return process.terminationStatus
    }

    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }
}
