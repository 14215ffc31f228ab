import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 13's attacks: a symbolic link planted where Shoebox owns a folder or file, or a user
/// folder swapped for a link, must never make Shoebox create, change, move or delete anything
/// outside the library. Each test has a sentinel tree beside the library, checksummed before
/// and after, and asserts the library's own photos are all still there.
@Suite(.serialized)
struct SymlinkAttackTests {
    /// A scanned library of two photos and, beside it, an outside folder with a photo and a file.
    struct Scene {
        let base: URL
        let cli: ShoeboxCLI
        var library: URL { cli.library }
        var outside: URL { base.appendingPathComponent("outside") }

        init() throws {
            let fm = FileManager.default
            base = Scratch.root.appendingPathComponent("shoebox-links-\(UUID().uuidString)")
            let lib = base.appendingPathComponent("library")
            let sample = try TestRoll.sampleLibrary()
            let jpegs = sample.entries.filter { $0.format == "jpeg" && $0.kind == "photo" && $0.duplicate_of == nil }
            try fm.createDirectory(at: lib.appendingPathComponent("2017"), withIntermediateDirectories: true)
            try fm.createDirectory(at: base.appendingPathComponent("outside/2017"), withIntermediateDirectories: true)
            for (i, e) in jpegs.prefix(2).enumerated() {
                try fm.copyItem(at: sample.root.appendingPathComponent(e.path), to: lib.appendingPathComponent("2017/p\(i).jpg"))
            }
            // The outside copy of p0 has the same name and bytes: a swapped folder looks right.
            try fm.copyItem(at: sample.root.appendingPathComponent(jpegs[0].path), to: base.appendingPathComponent("outside/2017/p0.jpg"))
            try fm.copyItem(at: sample.root.appendingPathComponent(jpegs[2].path), to: base.appendingPathComponent("outside/victim.jpg"))
            try Data("keep me\n".utf8).write(to: base.appendingPathComponent("outside/notes.txt"))
            cli = ShoeboxCLI(library: lib)
            for step in [["init"], ["scan"]] {
                let r = try cli.run(step)
                guard r.status == 0 else { throw NSError(domain: "scene", code: 1, userInfo: [NSLocalizedDescriptionKey: r.stderr]) }
            }
        }

        func remove() { try? FileManager.default.removeItem(at: base) }

        /// Every entry under `outside/`: relative path → the file's fingerprint or the link's target.
        func outsideTree() -> [String: String] {
            var out: [String: String] = [:]
            let root = outside.path
            guard let walker = FileManager.default.enumerator(atPath: root) else { return out }
            while let rel = walker.nextObject() as? String {
                let full = root + "/" + rel
                var st = stat()
                lstat(full, &st)
                switch st.st_mode & S_IFMT {
                case S_IFREG: out[rel] = (try? Data(contentsOf: URL(fileURLWithPath: full))).map(Scene.fingerprint) ?? "?"
                case S_IFLNK: out[rel] = "link:" + ((try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? "?")
                default: out[rel] = "folder"
                }
            }
            return out
        }

        /// Size and 64-bit FNV-1a of the bytes: short enough to print when a tree differs.
        static func fingerprint(_ data: Data) -> String {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for b in data { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            return "\(data.count) bytes, fnv \(String(h, radix: 16))"
        }

        func link(_ relative: String, to target: URL) throws {
            let at = library.appendingPathComponent(relative)
            try? FileManager.default.removeItem(at: at)
            try FileManager.default.createDirectory(at: at.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: at.path, withDestinationPath: target.path)
        }
    }

    /// Runs `attack` then `commands`; nothing outside may change; the commands that ran into a
    /// planted owned link must fail with one line naming it.
    func assertConfined(_ scene: Scene, _ commands: [[String]], mustFailNaming name: String? = nil,
                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = scene.outsideTree()
        for args in commands {
            let r = try scene.cli.run(args, extraEnvironment: ["SHOEBOX_NOW": "2099-01-01T00:00:00Z"])
            if let name {
                #expect(r.status != 0, "shoebox \(args) must refuse", sourceLocation: sourceLocation)
                #expect(r.stderr.contains(name) && r.stderr.contains("symbolic link"), "\(args): \(r.stderr)", sourceLocation: sourceLocation)
            }
        }
        #expect(scene.outsideTree() == before, "something outside the library changed", sourceLocation: sourceLocation)
    }

    @Test func aLockThatIsALinkToAPhotoNeverTruncatesIt() throws {
        let s = try Scene()
        defer { s.remove() }
        try s.link(".shoebox/lock", to: s.outside.appendingPathComponent("victim.jpg"))
        try assertConfined(s, [["scan"], ["trash", "2017/p1.jpg"], ["rebuild"]], mustFailNaming: ".shoebox/lock")
    }

    @Test func aUserFolderSwappedForALinkIsNeitherTrashedNorPurgedNorRestoredThrough() throws {
        let s = try Scene()
        defer { s.remove() }
        let fm = FileManager.default
        // `mv 2017 ..; ln -s /elsewhere 2017`
        try fm.moveItem(at: s.library.appendingPathComponent("2017"), to: s.base.appendingPathComponent("moved-2017"))
        try s.link("2017", to: s.outside.appendingPathComponent("2017"))
        try assertConfined(s, [["trash", "2017/p0.jpg"], ["trash", "purge"]])
        let r = try s.cli.run(["trash", "2017/p0.jpg"])
        #expect(r.status != 0 && r.stderr.contains("symbolic link"), "\(r.stderr)")
        // Restore: the photo trashed while the folder was real comes back only into a real folder.
        try fm.removeItem(at: s.library.appendingPathComponent("2017"))
        try fm.moveItem(at: s.base.appendingPathComponent("moved-2017"), to: s.library.appendingPathComponent("2017"))
        #expect(try s.cli.run(["trash", "2017/p1.jpg"]).status == 0)
        try fm.moveItem(at: s.library.appendingPathComponent("2017"), to: s.base.appendingPathComponent("moved-2017"))
        try s.link("2017", to: s.outside.appendingPathComponent("2017"))
        try assertConfined(s, [["restore", "2017/p1.jpg"]])
        #expect(!fm.fileExists(atPath: s.outside.appendingPathComponent("2017/p1.jpg").path))
        #expect(fm.fileExists(atPath: s.library.appendingPathComponent("Recently Deleted/files/p1.jpg").path))
    }

    @Test(arguments: ["Recently Deleted", "Recently Deleted/files", "Recently Deleted/info", "Albums",
                      ".shoebox/sidecars", ".shoebox/purge.log"])
    func anOwnedPathThatIsALinkStopsEveryWritingCommand(owned: String) throws {
        let s = try Scene()
        defer { s.remove() }
        let target = owned.hasSuffix(".log") ? s.outside.appendingPathComponent("notes.txt") : s.outside
        try s.link(owned, to: target)
        try assertConfined(s, [["scan"], ["trash", "2017/p0.jpg"], ["trash", "purge"]], mustFailNaming: owned)
        // Both photos are still in the library, untouched.
        #expect(FileManager.default.fileExists(atPath: s.library.appendingPathComponent("2017/p0.jpg").path))
        #expect(FileManager.default.fileExists(atPath: s.library.appendingPathComponent("2017/p1.jpg").path))
        let doctor = try s.cli.run(["doctor"])
        #expect(doctor.status != 0 && doctor.stdout.contains(owned), "doctor must report \(owned): \(doctor.stdout)")
    }

    @Test func aUserAlbumFolderThatIsALinkIsNotWrittenThrough() throws {
        let s = try Scene()
        defer { s.remove() }
        #expect(try s.cli.run(["album", "create", "Trip"]).status == 0)
        try FileManager.default.createSymbolicLink(atPath: s.outside.appendingPathComponent("link-in-album").path,
                                                   withDestinationPath: "victim.jpg")
        try s.link("Albums/Trip", to: s.outside)
        try assertConfined(s, [["album", "add", "Trip", "2017/p0.jpg"], ["scan"]], mustFailNaming: "Albums/Trip")
    }

    @Test func aSidecarWhosePathLeadsOutIsNeverUsed() throws {
        let s = try Scene()
        defer { s.remove() }
        #expect(try s.cli.run(["trash", "2017/p0.jpg"]).status == 0)
        // Edit the trashed asset's sidecar to say it came from ../outside/2017/p0.jpg.
        let sidecars = s.library.appendingPathComponent(".shoebox/sidecars")
        for name in try FileManager.default.contentsOfDirectory(atPath: sidecars.path) where name.hasSuffix(".json") {
            let url = sidecars.appendingPathComponent(name)
            let text = try String(contentsOf: url, encoding: .utf8)
            if text.contains("\"2017\\/p0.jpg\"") || text.contains("\"2017/p0.jpg\"") {
                try text.replacingOccurrences(of: "2017\\/p0.jpg", with: "..\\/outside\\/new.jpg")
                    .replacingOccurrences(of: "2017/p0.jpg", with: "../outside/new.jpg").write(to: url, atomically: true, encoding: .utf8)
            }
        }
        try assertConfined(s, [["rebuild"], ["restore", "p0.jpg"], ["scan"]])
        #expect(!FileManager.default.fileExists(atPath: s.outside.appendingPathComponent("new.jpg").path))
    }

    @Test func aForgedPathInATrashInfoCannotForgeAPurgeLogLine() throws {
        let s = try Scene()
        defer { s.remove() }
        #expect(try s.cli.run(["trash", "2017/p0.jpg"]).status == 0)
        let info = s.library.appendingPathComponent("Recently Deleted/info/p0.jpg.trashinfo")
        try "[Trash Info]\nPath=2017/p0.jpg%0arm%20-rf%20~\nDeletionDate=2020-01-01T00:00:00\n".write(to: info, atomically: true, encoding: .utf8)
        let r = try s.cli.run(["trash", "purge"], extraEnvironment: ["SHOEBOX_NOW": "2099-01-01T00:00:00Z"])
        #expect(r.status == 0, "\(r.stderr)")
        let log = try String(contentsOf: s.library.appendingPathComponent(".shoebox/purge.log"), encoding: .utf8)
        #expect(log.split(separator: "\n").count == 1, "one purge, one line: \(log)")
        #expect(!log.split(separator: "\n").contains { $0.hasPrefix("rm ") })
        #expect(!r.stdout.contains("\nrm -rf") && !r.stderr.contains("\nrm -rf"))
    }
}
