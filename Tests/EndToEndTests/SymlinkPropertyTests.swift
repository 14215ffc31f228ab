import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 13's property: whatever link is planted at a folder or file Shoebox owns or at a user
/// folder — before a command, or flapping between the real folder and a link while the command
/// runs (a second thread renaming it away and back) — no command creates, changes or deletes
/// anything outside the library, and no original is lost.
///
/// Each trial draws an attack point, a target outside (a copy of the real folder, so that a
/// command going through the link would find what it expects and write there), a timing, and a
/// command. The outside tree is fingerprinted before and after; after the attack is undone,
/// every original is still in the library (in place or in Recently Deleted) and `scan` works.
/// `SHOEBOX_LINK_TRIALS` and `SHOEBOX_LINK_SEED` run more trials or another sequence; a failure
/// names its seed and trial, which replay it.
@Suite(.serialized)
struct SymlinkPropertyTests {
    typealias Scene = SymlinkAttackTests.Scene

    static let trials = Int(ProcessInfo.processInfo.environment["SHOEBOX_LINK_TRIALS"] ?? "") ?? 30
    static let seed = UInt64(ProcessInfo.processInfo.environment["SHOEBOX_LINK_SEED"] ?? "") ?? 0x5ee1_13

    /// Folders and files a link may be planted at; `Albums/Years/*` is added per library.
    static let folderPoints = [".shoebox", ".shoebox/sidecars", ".shoebox/albums", "Albums", "Albums/Years",
                               "Albums/Trip", "Recently Deleted", "Recently Deleted/files", "Recently Deleted/info", "2017"]
    static let filePoints = [".shoebox/lock", ".shoebox/purge.log", ".shoebox/journal.json", ".shoebox/config.toml",
                             ".shoebox/index.sqlite-wal", "2017/p0.jpg"]

    enum Timing: CaseIterable { case planted, flapping }

    @Test func noCommandEverWritesOutsideTheLibraryWhateverLinkIsPlanted() throws {
        var rng = SplitMix64(seed: Self.seed)
        for trial in 0..<Self.trials {
            try runTrial(trial, &rng)
        }
    }

    private func runTrial(_ trial: Int, _ rng: inout SplitMix64) throws {
        let s = try Scene()
        defer { s.remove() }
        let setup = try prepare(s)
        let years = ((try? FileManager.default.contentsOfDirectory(atPath: s.library.appendingPathComponent("Albums/Years").path)) ?? [])
            .filter { !$0.hasPrefix(".") }.sorted().map { "Albums/Years/" + $0 }
        let points = Self.folderPoints.map { ($0, true) } + years.map { ($0, true) } + Self.filePoints.map { ($0, false) }
        let (point, isFolder) = points[rng.below(points.count)]
        let timing = Timing.allCases[rng.below(Timing.allCases.count)]
        let commands = Self.commands(setup)
        let command = commands[rng.below(commands.count)]
        let label = "seed \(Self.seed) trial \(trial): \(timing) link at \(point), then shoebox \(command.joined(separator: " "))"

        let attack = try Attack(scene: s, point: point, isFolder: isFolder, trial: trial)
        let before = s.outsideTree()
        let result: ShoeboxCLI.Result
        switch timing {
        case .planted:
            try attack.plant()
            result = try run(command, in: s)
            try attack.undo(merging: true)
        case .flapping:
            let flapper = Flapper(attack)
            flapper.start()
            result = try run(command, in: s)
            try flapper.stop()
        }
        let after = s.outsideTree()
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        #expect(changed.isEmpty, "\(label): changed outside the library: \(changed) (\(result.stderr.suffix(300)))")
        // The library is whole again: every original is still in it, and a scan works.
        let scan = try s.cli.run(["scan"])
        #expect(scan.status == 0, "\(label): scan after the attack failed: \(scan.stderr)")
        let contents = libraryFileFingerprints(s)
        #expect(contents.contains(setup.p0), "\(label): 2017/p0.jpg's content is gone from the library")
        if command != ["trash", "purge"] {
            #expect(contents.contains(setup.p1), "\(label): the trashed p1.jpg's content is gone from the library")
        }
    }

    /// What a trial's library holds beyond the scene's: a user album with p0, p1 in Recently Deleted.
    struct Setup {
        var p0ID: String
        var p0: String
        var p1: String
    }

    private func prepare(_ s: Scene) throws -> Setup {
        let p0 = Scene.fingerprint(try Data(contentsOf: s.library.appendingPathComponent("2017/p0.jpg")))
        let p1 = Scene.fingerprint(try Data(contentsOf: s.library.appendingPathComponent("2017/p1.jpg")))
        let id = try #require(try s.cli.assetsByPath()["2017/p0.jpg"]?["id"] as? String)
        for step in [["album", "create", "Trip", id], ["trash", "2017/p1.jpg"]] {
            let r = try s.cli.run(step)
            guard r.status == 0 else { throw NSError(domain: "setup", code: 1, userInfo: [NSLocalizedDescriptionKey: r.stderr]) }
        }
        return Setup(p0ID: id, p0: p0, p1: p1)
    }

    /// Every command that writes, and the readers that open the index.
    static func commands(_ setup: Setup) -> [[String]] {
        [["scan"], ["rebuild"], ["trash", "2017/p0.jpg"], ["trash", setup.p0ID], ["restore", "p1.jpg"],
         ["trash", "purge"], ["album", "add", "Trip", "2017/p0.jpg"], ["album", "remove", "Trip", setup.p0ID],
         ["album", "create", "Other", setup.p0ID], ["album", "delete", "Trip"], ["doctor"], ["list", "--json"],
         ["show", setup.p0ID], ["watch"]]
    }

    /// Runs `command`; `watch` runs for a second and a half while a photo is dropped into `Inbox/`.
    private func run(_ command: [String], in s: Scene) throws -> ShoeboxCLI.Result {
        let env = command == ["trash", "purge"] ? ["SHOEBOX_NOW": "2099-01-01T00:00:00Z"] : [:]
        guard command == ["watch"] else { return try s.cli.run(command, extraEnvironment: env) }
        let inbox = s.library.appendingPathComponent("Inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let drop = Thread {
            usleep(500_000)
            var bytes = (try? Data(contentsOf: s.library.appendingPathComponent("Recently Deleted/files/p1.jpg"))) ?? Data()
            bytes.append(Data("dropped".utf8))
            try? bytes.write(to: inbox.appendingPathComponent("dropped.jpg"))
        }
        drop.start()
        var environment = ProcessInfo.processInfo.environment
        environment["SHOEBOX_LIBRARY"] = nil
        let r = try TestRoll.run("/usr/bin/timeout", ["-s", "INT", "1.5", ShoeboxCLI.binary, "watch", "--library", s.library.path],
                                 environment: environment, allowFailure: true)
        while !drop.isFinished { usleep(1000) }
        return ShoeboxCLI.Result(status: r.status, stdout: r.stdout, stderr: r.stderr)
    }

    /// Fingerprints of the regular files in the library outside `.shoebox` and `Albums`.
    private func libraryFileFingerprints(_ s: Scene) -> Set<String> {
        var out = Set<String>()
        guard let walker = FileManager.default.enumerator(atPath: s.library.path) else { return out }
        while let rel = walker.nextObject() as? String {
            if rel.hasPrefix(".shoebox") || rel.hasPrefix("Albums") { continue }
            var st = stat()
            guard lstat(s.library.path + "/" + rel, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { continue }
            if let data = try? Data(contentsOf: s.library.appendingPathComponent(rel)) { out.insert(Scene.fingerprint(data)) }
        }
        return out
    }
}

/// A link planted at `point` in place of the real folder or file, which waits in a stash beside
/// the library; the link's target is outside: a copy of the real folder (so that a command
/// following it finds what it expects), or a photo and a text file for a file.
struct SymlinkAttack {
    let point: URL
    let stash: URL
    let target: URL

    init(scene: SymlinkAttackTests.Scene, point relative: String, isFolder: Bool, trial: Int) throws {
        let fm = FileManager.default
        point = scene.library.appendingPathComponent(relative)
        stash = scene.base.appendingPathComponent("stash-\(trial)")
        if isFolder {
            target = scene.outside.appendingPathComponent("copy-\(trial)")
            if fm.fileExists(atPath: point.path) {
                _ = try TestRoll.run("/bin/cp", ["-a", point.path, target.path])
            } else {
                try fm.createDirectory(at: target, withIntermediateDirectories: true)
            }
        } else {
            target = scene.outside.appendingPathComponent(relative.hasSuffix(".jpg") ? "victim.jpg" : "notes.txt")
        }
    }

    /// The real entry to the stash (when there is one), a link in its place. False when the
    /// folder holding `point` is gone at the moment (it is being swapped by another attack).
    @discardableResult
    func plant() throws -> Bool {
        if Glibc.rename(point.path, stash.path) != 0 && errno != ENOENT { return false }
        return symlink(target.path, point.path) == 0
    }

    /// The link out, the real entry back. A command may have made a new folder at `point` while
    /// the real one was away (an album rebuilt, a folder a restore needed): with `merging`, what
    /// the stash holds that the new folder lacks is copied in, so that nothing is lost either way.
    func undo(merging: Bool = false) throws {
        var st = stat()
        if lstat(point.path, &st) == 0, st.st_mode & S_IFMT == S_IFLNK { unlink(point.path) }
        if lstat(stash.path, &st) == 0 {
            if merging, Glibc.rename(stash.path, point.path) != 0, errno == ENOTEMPTY || errno == EEXIST {
                _ = try TestRoll.run("/bin/cp", ["-an", stash.path + "/.", point.path])
                try FileManager.default.removeItem(at: stash)
                return
            }
            guard lstat(stash.path, &st) != 0 || Glibc.rename(stash.path, point.path) == 0 else {
                throw NSError(domain: "attack", code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "cannot put \(point.path) back"])
            }
        }
    }
}

extension SymlinkPropertyTests {
    typealias Attack = SymlinkAttack

    /// Swaps the real entry for the link and back every few hundred microseconds until stopped.
    final class Flapper: @unchecked Sendable {
        let attack: SymlinkAttack
        private let lock = NSLock()
        private var stopping = false
        private var thread: Thread?

        init(_ attack: SymlinkAttack) { self.attack = attack }

        func start() {
            let t = Thread { [self] in
                while !isStopping {
                    _ = try? attack.plant()
                    usleep(300)
                    try? attack.undo()
                    usleep(300)
                }
            }
            thread = t
            t.start()
        }

        private var isStopping: Bool { lock.withLock { stopping } }

        func stop() throws {
            lock.withLock { stopping = true }
            while let t = thread, !t.isFinished { usleep(1000) }
            try attack.undo(merging: true)
        }
    }
}
