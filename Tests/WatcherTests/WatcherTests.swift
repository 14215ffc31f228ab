import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `shoebox watch` as a child process with real inotify on temporary libraries. Each test
/// changes the folder, then polls `list --json` until the index equals the disk (generous
/// timeouts; nothing here asserts on speed).
@Suite(.serialized)
struct WatcherTests {
    // MARK: Scenarios

    @Test func copyInTemporaryNameRenameAndDelete() throws {
        let w = try Watched.start()
        defer { w.stop() }
        // Copy in.
        try w.write("Inbox/new-1.jpg", w.distinctJPEG(1))
        try w.waitUntilIndexEqualsDisk()
        let newID = try #require(try w.id("Inbox/new-1.jpg"))
        // A download under a temporary name, renamed into place: indexed once, under its final name.
        try w.write("Inbox/download.jpg.part", w.distinctJPEG(2))
        try w.rename("Inbox/download.jpg.part", "Inbox/download.jpg")
        try w.waitUntilIndexEqualsDisk()
        #expect(try w.id("Inbox/download.jpg") != nil)
        #expect(try w.id("Inbox/download.jpg.part") == nil)
        // Rename: same id.
        try w.rename("Inbox/new-1.jpg", "Inbox/renamed.jpg")
        try w.waitUntilIndexEqualsDisk()
        #expect(try w.id("Inbox/renamed.jpg") == newID)
        // Delete: missing, not forgotten.
        try FileManager.default.removeItem(at: w.url("Inbox/renamed.jpg"))
        try w.waitUntilIndexEqualsDisk()
        let missing = try w.cli.json(["list", "--missing"]) as? [[String: Any]] ?? []
        #expect(missing.contains { $0["id"] as? String == newID })
        #expect(w.log.contains("added Inbox/new-1.jpg") && w.log.contains("moved Inbox/new-1.jpg → Inbox/renamed.jpg"))
    }

    /// New photos are analysed in the background once the watcher is quiet: faces found, the
    /// XMP name given to the person, thumbnails made — and a copy stripped of its XMP is named too.
    @Test func newPhotosAreAnalysedInTheBackground() throws {
        let w = try Watched.start()
        defer { w.stop() }
        // The start-up scan's files first, then a portrait of Ana named only by its face.
        let everything = try w.cli.assetsByPath()
        try w.waitForLog("analysed", timeout: 120)
        let portrait = try #require(try TestRoll.sampleLibrary().entries.first { e in
            e.format == "jpeg" && e.persons.count == 1 && e.persons[0].name == "Ana"
        })
        try FileManager.default.createDirectory(at: w.url("Inbox"), withIntermediateDirectories: true)
        let copy = w.url("Inbox/ana-copy.jpg")
        try FileManager.default.copyItem(at: TestRoll.repositoryRoot.appendingPathComponent("sample-library/" + portrait.path), to: copy)
        try TestRoll.run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-XMP:all=", copy.path])
        // Generous: the start-up scan's files are analysed first, and a loaded machine (a debug
        // build beside other builds) took over 120 s for them; nothing here is about speed.
        let deadline = Date().addingTimeInterval(360)
        var shown: [String: Any] = [:]
        while Date() < deadline {
            shown = (try? w.cli.json(["show", "Inbox/ana-copy.jpg"]) as? [String: Any]) ?? [:]
            if shown["analyzed"] as? Bool == true { break }
            usleep(200_000)
        }
        #expect(shown["analyzed"] as? Bool == true, "not analysed: \(w.log.suffix(2000))")
        #expect(shown["persons"] as? [String] == ["Ana"], "\(shown["persons"] ?? "nil")")
        let id = try #require(shown["id"] as? String), sha = try #require(shown["sha256"] as? String)
        #expect(FileManager.default.fileExists(atPath: w.url(".shoebox/thumbs/\(id.prefix(2))/\(id).\(sha.prefix(16)).256.jpg").path))
        #expect(try w.cli.assetsByPath().values.filter { $0["analyzed"] as? Bool != true }.isEmpty,
                "\(everything.count) files at start")
    }

    @Test func moveOutAndBackKeepsTheId() throws {
        let w = try Watched.start()
        defer { w.stop() }
        let path = try #require(w.sampleJPEGs.first)
        let id = try #require(try w.id(path))
        let outside = w.root.deletingLastPathComponent().appendingPathComponent("outside.jpg")
        try FileManager.default.moveItem(at: w.url(path), to: outside)
        try w.waitUntilIndexEqualsDisk()
        #expect(try w.id(path) == nil)
        // Back, under another name and folder: the content hash finds the asset.
        try FileManager.default.createDirectory(at: w.url("Back"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: outside, to: w.url("Back/returned.jpg"))
        try w.waitUntilIndexEqualsDisk()
        #expect(try w.id("Back/returned.jpg") == id)
        // Out of Recently Deleted/files/ (not watched, not indexed) back into the library: same id.
        let trash = w.url("Recently Deleted/files")
        try FileManager.default.createDirectory(at: trash, withIntermediateDirectories: true)
        try w.rename("Back/returned.jpg", "Recently Deleted/files/returned.jpg")
        try w.waitUntilIndexEqualsDisk()
        try w.rename("Recently Deleted/files/returned.jpg", "restored.jpg")
        try w.waitUntilIndexEqualsDisk()
        #expect(try w.id("restored.jpg") == id)
    }

    @Test func trashAndRestoreWhileWatchingKeepIdsAndAlbums() throws {
        let w = try Watched.start()
        defer { w.stop() }
        let (a, b) = (w.sampleJPEGs[0], w.sampleJPEGs[1])
        let (idA, idB) = (try #require(try w.id(a)), try #require(try w.id(b)))
        #expect(try w.cli.run(["album", "create", "Pair", idA, idB]).status == 0)
        // `shoebox trash` while the watcher runs: the watcher does not count it as a removal.
        #expect(try w.cli.run(["trash", a]).status == 0)
        try w.waitUntilIndexEqualsDisk()
        #expect(try w.danglingLinks().isEmpty)
        // Dragged back out of Recently Deleted/files/ with a file manager: restored, same id,
        // back in its album; the .trashinfo goes.
        let name = try #require((try w.cli.json(["trash", "list"]) as? [[String: Any]])?.first?["name"] as? String)
        try w.rename("Recently Deleted/files/" + name, "Dragged back/" + name)
        try w.waitUntilIndexEqualsDisk()
        #expect(try w.id("Dragged back/" + name) == idA)
        try w.waitForLog("restored Dragged back/\(name) from Recently Deleted")
        #expect(!FileManager.default.fileExists(atPath: w.url("Recently Deleted/info/\(name).trashinfo").path))
        let pair = try w.cli.json(["album", "show", "Pair"]) as? [String: Any] ?? [:]
        #expect((pair["entries"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String } == ["Dragged back/" + name, b])
        // Dragged into Recently Deleted/files/ by hand: trashed, with the .trashinfo the file
        // manager did not write, and out of the album.
        let nameB = (b as NSString).lastPathComponent
        try w.rename(b, "Recently Deleted/files/" + nameB)
        try w.waitForLog("moved to Recently Deleted by hand: \(b)")
        let items = try w.cli.json(["trash", "list"]) as? [[String: Any]] ?? []
        #expect(items.contains { $0["id"] as? String == idB && $0["original_path"] as? String == b })
        #expect(try w.danglingLinks().isEmpty)
        // `shoebox restore` while watching: back at its path, once.
        #expect(try w.cli.run(["restore", idB]).status == 0)
        try w.waitUntilIndexEqualsDisk()
        #expect(try w.id(b) == idB)
        #expect(try w.danglingLinks().isEmpty)
        #expect(!w.log.contains("added \(b)"))
    }

    /// `rebuild` from another shell while `watch` runs. Before, the rebuild renamed a new index
    /// file over the one the watcher held open, and the watcher went on writing into the deleted
    /// file: a photo dropped afterwards was lost to every other command, got a second id after a
    /// restart, left an orphan sidecar, and its user album lost it. Now the rebuilt pages are
    /// copied into the same file and the watcher, seeing another process wrote, reloads.
    @Test func rebuildWhileWatchingLosesNothing() throws {
        let w = try Watched.start()
        defer { w.stop() }
        let kept = try #require(try w.id(w.sampleJPEGs[0]))
        #expect(try w.cli.run(["rebuild"]).status == 0)
        try w.write("After rebuild/new.jpg", w.distinctJPEG(41))
        try w.waitUntilIndexEqualsDisk()
        let newID = try #require(try w.id("After rebuild/new.jpg"))
        #expect(try w.id(w.sampleJPEGs[0]) == kept)
        #expect(try w.cli.run(["album", "create", "After", newID, kept]).status == 0)
        // A rename seen by the watcher lands in the index everyone reads.
        try w.rename("After rebuild/new.jpg", "After rebuild/renamed.jpg")
        try w.waitUntilIndexEqualsDisk()
        #expect(try w.id("After rebuild/renamed.jpg") == newID)
        w.stop()
        // After the watch: one sidecar per asset, the same ids from a fresh scan, the album whole.
        #expect(try w.cli.run(["scan"]).status == 0)
        #expect(try w.id("After rebuild/renamed.jpg") == newID)
        let doctor = try w.cli.run(["doctor"])
        #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
        let album = try w.cli.json(["album", "show", "After"]) as? [String: Any] ?? [:]
        #expect((album["entries"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } == [newID, kept])
    }

    @Test func slowWriterIsIndexedOnceComplete() throws {
        let w = try Watched.start()
        defer { w.stop() }
        let bytes = w.distinctJPEG(7)
        // Written in pieces over about three seconds, closed and reopened between pieces, as some
        // copy tools do: every close before the last leaves a JPEG without its end marker.
        let url = w.url("Slow/slow.jpg")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let pieces = 6
        let step = (bytes.count + pieces - 1) / pieces
        for i in 0..<pieces {
            let chunk = bytes[(i * step)..<min(bytes.count, (i + 1) * step)]
            let handle = try (i == 0 ? w.create(url) : FileHandle(forWritingTo: url))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(chunk))
            try handle.close()
            #expect(try w.id("Slow/slow.jpg") == nil || i == pieces - 1, "indexed half-written after piece \(i)")
            usleep(500_000)
        }
        try w.waitUntilIndexEqualsDisk()
        let listed = try w.cli.assetsByPath()
        #expect(listed["Slow/slow.jpg"]?["size"] as? Int == bytes.count)
    }

    @Test func folderRenameMovesHundredsOfAssetsInOneStep() throws {
        let w = try Watched.start()
        defer { w.stop() }
        for i in 0..<300 { try w.write("Trip/img-\(i).jpg", w.distinctJPEG(1000 + i)) }
        try w.waitUntilIndexEqualsDisk()
        let before = try w.cli.assetsByPath()
        try w.rename("Trip", "Trip to Lisbon")
        try w.waitUntilIndexEqualsDisk()
        let after = try w.cli.assetsByPath()
        for i in 0..<300 {
            #expect(after["Trip to Lisbon/img-\(i).jpg"]?["id"] as? String == before["Trip/img-\(i).jpg"]?["id"] as? String)
        }
        // The watch logs a batch after its album sync, which may end after the index already matches the disk.
        try w.waitForLog("moved folder Trip → Trip to Lisbon (300 assets)")
        // A file written into the renamed folder is seen under its new name (the watch followed).
        try w.write("Trip to Lisbon/later.jpg", w.distinctJPEG(1999))
        try w.waitUntilIndexEqualsDisk()
    }

    @Test func burstOfTwoThousandFiles() throws {
        let w = try Watched.start()
        defer { w.stop() }
        for i in 0..<2000 { try w.write("Burst/\(i / 100)/b-\(i).jpg", w.distinctJPEG(5000 + i)) }
        // Other commands from another shell while the watcher is busy: they wait their turn, never fail.
        let list = try w.cli.run(["list", "--json"])
        #expect(list.status == 0 && !list.stderr.contains("locked"), "\(list.stderr)")
        let scan = try w.cli.run(["scan"])
        #expect(scan.status == 0 && !scan.stderr.contains("locked"), "\(scan.stderr)")
        try w.waitUntilIndexEqualsDisk(timeout: 120)
        #expect(try w.cli.assetsByPath().count >= 2000)
    }

    @Test func filesDroppedIntoFoldersMadeAllAtOnceAreAllSeen() throws {
        let w = try Watched.start()
        defer { w.stop() }
        // `mkdir -p "Drop 0"/{0..9}` or a file manager pasting a folder tree: libinotifytools lists
        // a new folder before it watches it, and subfolders made in between were never watched,
        // nor the files later put in them. Thirty rounds, each a new folder with ten subfolders,
        // give that race thirty chances (before the fix, ten rounds lost it in two runs of three).
        var made = 0
        for round in 0..<30 {
            let top = w.url("Drop \(round)").path
            guard mkdir(top, 0o755) == 0 else { throw POSIXError(.init(rawValue: errno)!) }
            for i in 0..<10 {
                guard mkdir(top + "/\(i)", 0o755) == 0 else { throw POSIXError(.init(rawValue: errno)!) }
            }
            usleep(200_000)
            for i in 0..<10 {
                try Data(w.distinctJPEG(8000 + made)).write(to: URL(fileURLWithPath: top + "/\(i)/d-\(made).jpg"))
                made += 1
            }
        }
        try w.waitUntilIndexEqualsDisk()
        #expect(try w.cli.assetsByPath().keys.filter { $0.hasPrefix("Drop ") }.count == made)
    }

    @Test func queueOverflowIsReconciledByAScan() throws {
        let w = try Watched.start()
        defer { w.stop() }
        let keep = try #require(w.sampleJPEGs.first)
        let keepID = try #require(try w.id(keep))
        // Stop reading: the watcher cannot take events while stopped.
        kill(w.process.processIdentifier, SIGSTOP)
        let limit = Int((try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 16384
        // Two files closed after writing in turn: the kernel merges only identical consecutive events.
        // They sit at the root, which is watched (a folder made now would not be, yet).
        let a = w.url("a.txt").path, b = w.url("b.txt").path
        for i in 0...(limit + 1000) {  // twice what the queue holds: overflow even if some were read before the stop
            for path in [a, b] {
                let fd = open(path, O_WRONLY | O_CREAT, 0o644)
                if i == 0 { _ = write(fd, "x", 1) }
                close(fd)
            }
        }
        // Real changes hidden in the lost events.
        try w.write("Overflow/new.jpg", w.distinctJPEG(42))
        try w.rename(keep, "Overflow/kept.jpg")
        kill(w.process.processIdentifier, SIGCONT)
        try w.waitUntilIndexEqualsDisk()
        #expect(try w.id("Overflow/kept.jpg") == keepID)
        try w.waitForLog("overflowed")
    }

    @Test func vanishedRootPausesInsteadOfMarkingMissing() throws {
        let w = try Watched.start(bindMount: true)
        defer { w.stop() }
        let before = try w.cli.assetsByPath()
        let storage = w.storage  // the same files, reachable while the library's own path is not
        if w.isBindMount {
            _ = try TestRoll.run("/bin/umount", ["-l", w.root.path])
        } else {
            try FileManager.default.moveItem(at: w.root, to: storage)
        }
        try w.waitForLog("paused")
        // Nothing was marked missing.
        let meanwhile = ShoeboxCLI(library: storage)
        #expect(try meanwhile.assetsByPath().count == before.count)
        if w.isBindMount {
            _ = try TestRoll.run("/bin/mount", ["--bind", storage.path, w.root.path])
        } else {
            try FileManager.default.moveItem(at: storage, to: w.root)
        }
        try w.waitForLog("resumed")
        // Watching again: a new file is indexed.
        try w.write("After/after.jpg", w.distinctJPEG(77))
        try w.waitUntilIndexEqualsDisk()
        let after = try w.cli.assetsByPath()
        for (path, asset) in before { #expect(after[path]?["id"] as? String == asset["id"] as? String) }
    }

    @Test func massDisappearancePausesAndResumes() throws {
        let w = try Watched.start()
        defer { w.stop() }
        let before = try w.cli.assetsByPath()
        let aside = w.root.deletingLastPathComponent().appendingPathComponent("aside")
        try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: true)
        // Most of the library's folders go at once (a sub-mount gone, a sync tool gone wild).
        let folders = try FileManager.default.contentsOfDirectory(atPath: w.root.path)
            .filter { !$0.hasPrefix(".") && $0 != "Downloads" && $0 != "SOURCES.md" }
        for f in folders { try FileManager.default.moveItem(at: w.url(f), to: aside.appendingPathComponent(f)) }
        try w.waitForLog("paused")
        #expect(try w.cli.assetsByPath().count == before.count)
        for f in folders { try FileManager.default.moveItem(at: aside.appendingPathComponent(f), to: w.url(f)) }
        try w.waitForLog("resumed")
        try w.waitUntilIndexEqualsDisk()
        let after = try w.cli.assetsByPath()
        for (path, asset) in before { #expect(after[path]?["id"] as? String == asset["id"] as? String) }
    }
}

// MARK: Harness

/// A scanned copy of the sample library with `shoebox watch` running on it.
final class Watched {
    let cli: ShoeboxCLI
    let root: URL
    let process = Process()
    let logURL: URL
    let sampleJPEGs: [String]
    let base: [UInt8]
    /// For the bind-mount test: the folder that holds the files, mounted at `root`.
    let storage: URL
    private(set) var isBindMount = false

    static func start(bindMount: Bool = false) throws -> Watched { try Watched(bindMount: bindMount) }

    /// `watch` on `made` (scanned first) instead of the sample library.
    static func start(_ made: TestRoll.Made) throws -> Watched { try Watched(bindMount: false, made: made) }

    private init(bindMount: Bool, made given: TestRoll.Made? = nil) throws {
        let made = try given ?? TestRoll.sampleCopy()
        let parent = made.root.deletingLastPathComponent()
        storage = parent.appendingPathComponent("storage")
        var root = made.root
        var mounted = false
        if bindMount {
            // Mount the library's folder on another path; fall back to renaming the root when mounting is not allowed.
            let mountPoint = parent.appendingPathComponent("mounted")
            try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: made.root, to: storage)
            if (try? TestRoll.run("/bin/mount", ["--bind", storage.path, mountPoint.path], allowFailure: true).status) == 0 {
                root = mountPoint
                mounted = true
            } else {
                try FileManager.default.removeItem(at: mountPoint)
                try FileManager.default.moveItem(at: storage, to: made.root)
            }
        }
        self.root = root
        isBindMount = mounted
        cli = try ShoeboxCLI.scanned(TestRoll.Made(root: root, entries: made.entries))
        let copied = Set(made.entries.compactMap(\.duplicate_of))
        sampleJPEGs = made.entries.filter { entry in
            entry.format == "jpeg" && entry.duplicate_of == nil && entry.live_video == nil && !copied.contains(entry.path)
        }.map(\.path)
        base = Array(try Data(contentsOf: TestRoll.repositoryRoot.appendingPathComponent("sample-library/Shared/IMG_0461-edited.jpg")))
        logURL = parent.appendingPathComponent("watch.log")
        FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: ShoeboxCLI.binary)
        process.arguments = ["watch", "--library", root.path]
        var env = ProcessInfo.processInfo.environment
        env["SHOEBOX_LIBRARY"] = nil
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: logURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try waitForLog("reconciled by a scan (start-up)")
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGCONT)
            process.terminate()
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning && Date() < deadline { usleep(50_000) }
            #expect(!process.isRunning, "watch did not stop on SIGTERM")
            #expect(process.terminationStatus == 0, "watch exited with \(process.terminationStatus):\n\(log.suffix(3000))")
        }
        if isBindMount { _ = try? TestRoll.run("/bin/umount", ["-l", root.path], allowFailure: true) }
    }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    /// The sample's small JPEG with `n` after its end marker: a valid, distinct photo.
    func distinctJPEG(_ n: Int) -> [UInt8] { base + Array("shoebox-test-\(n)".utf8) }

    func create(_ url: URL) throws -> FileHandle {
        FileManager.default.createFile(atPath: url.path, contents: nil)
        return try FileHandle(forWritingTo: url)
    }

    func write(_ path: String, _ bytes: [UInt8]) throws {
        let u = url(path)
        try FileManager.default.createDirectory(at: u.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: u)
    }

    func rename(_ from: String, _ to: String) throws {
        let target = url(to)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard Glibc.rename(url(from).path, target.path) == 0 else { throw POSIXError(.init(rawValue: errno)!) }
    }

    func id(_ path: String) throws -> String? { try cli.assetsByPath()[path]?["id"] as? String }

    /// `find -xtype l`: links under the library that lead nowhere.
    func danglingLinks() throws -> [String] {
        try TestRoll.run("/usr/bin/find", [root.path, "-xtype", "l"]).stdout.split(separator: "\n").map(String.init)
    }

    /// Media files on disk that Shoebox indexes (not hidden, not reserved, not temporary).
    func diskMedia() -> Set<String> {
        let media: Set<String> = ["jpg", "jpeg", "png", "heic", "heif", "mp4", "mov"]
        var out = Set<String>()
        guard let e = FileManager.default.enumerator(atPath: root.path) else { return out }
        while let p = e.nextObject() as? String {
            let parts = p.split(separator: "/")
            if ["Albums", "Recently Deleted", "Tracker", ".shoebox"].contains(String(parts[0])) || parts.contains(where: { $0.hasPrefix(".") }) {
                continue
            }
            if media.contains((p as NSString).pathExtension.lowercased()) { out.insert(p) }
        }
        return out
    }

    /// Present assets (and their Live Photo videos) equal the media files on disk.
    func indexed() throws -> Set<String> {
        let listed = try cli.assetsByPath()
        return Set(listed.keys).union(listed.values.compactMap { $0["live_video"] as? String })
    }

    func waitUntilIndexEqualsDisk(timeout: Double = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var last: (disk: Set<String>, index: Set<String>) = ([], [])
        while Date() < deadline {
            last = (diskMedia(), try indexed())
            if last.disk == last.index { return }
            usleep(100_000)
        }
        Issue.record("""
            index ≠ disk after \(Int(timeout)) s: only on disk \(last.disk.subtracting(last.index).sorted().prefix(5)), \
            only in index \(last.index.subtracting(last.disk).sorted().prefix(5))\nwatch log:\n\(log.suffix(3000))
            """)
        throw CancellationError()
    }

    func waitForLog(_ text: String, timeout: Double = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if log.contains(text) { return }
            usleep(100_000)
        }
        Issue.record("no \"\(text)\" in the watch log after \(Int(timeout)) s:\n\(log.suffix(3000))")
        throw CancellationError()
    }
}
