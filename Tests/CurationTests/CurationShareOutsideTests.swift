import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `curate share --to DIR` writes outside the library only, and a failed share leaves the folder
/// as it found it (issue 28): DIR is made relative to its opened and checked parent, what a failed
/// run made goes (DIR too when it made it), a full disk is named by its folder, and a second share
/// finds the same bytes under a numbered name as well.
@Suite struct CurationShareOutsideTests {
    static let picks = ["2016/2016-12 Tokyo/IMG_0758.HEIC", "2016/2016-12 Tokyo/IMG_0761.JPG",
                        "2023/2023-12 Honolulu/IMG_0773.JPG", "Downloads/copy of IMG_0766.JPG"]

    static func selected() throws -> Curating {
        let c = try Curating.roll()
        try c.add(picks)
        let r = try c.cli.run(["curate", "top", "20"])
        guard r.status == 0 else { throw Failure("curate top failed: \(r.stderr)") }
        return c
    }

    @Test func aParentSwappedForALinkIntoTheLibraryNeverGetsTheFolder() throws {
        let c = try Self.selected()
        let before = FolderSwap.names(under: c.root)
        let swap = try FolderSwap(try tempFolder("parent"), linkTo: c.root)
        let results = try swap.during(25) { i in
            try c.cli.run(["curate", "share", "--to", swap.folder.appendingPathComponent("out\(i)").path])
        }
        #expect(FolderSwap.names(under: c.root) == before, "folders were made in the library")
        for (i, r) in results.enumerated() {
            if r.status == 0 {
                let made = try FileManager.default.contentsOfDirectory(atPath: swap.folder.appendingPathComponent("out\(i)").path)
                #expect(made.count == Self.picks.count + 1, "run \(i): \(made)")  // and the Live Photo's movie
            } else {
                #expect(r.status == 1 && r.stderrLines.count == 1, "run \(i): \(r.stderr)")
            }
        }
    }

    @Test func aFailedShareLeavesTheFolderAsItWas() throws {
        let c = try Self.selected()
        // A selected photo touched since the scan: the share stops before writing.
        let touched = c.root.appendingPathComponent(Self.picks[3])
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: touched.path)
        let fresh = try tempFolder("new")
        let r = try c.cli.run(["curate", "share", "--to", fresh.path])
        #expect(r.status == 1 && r.stderrLines.count == 1 && r.stderr.contains("changed since the last scan"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fresh.path), "the failed share left the folder it made")
        // A folder that was there stays, with what it held.
        let old = try tempFolder("old")
        try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: old.appendingPathComponent("notes.txt"))
        #expect(try c.cli.run(["curate", "share", "--to", old.path]).status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: old.path) == ["notes.txt"])
    }

    @Test(.enabled(if: SmallDisk.unavailable == nil, "\(SmallDisk.unavailable ?? "")"))
    func aFullDiskIsNamedByTheFolderAndWhatWasCopiedGoes() throws {
        let c = try Self.selected()
        let disk = try SmallDisk(megabytes: 1)
        let old = try disk.usersFolder("old")
        // Room for about one photo: the share fails part way.
        try disk.fill(leaving: 160 * 1024)
        for dir in [disk.mountPoint.appendingPathComponent("new"), old] {
            let r = try c.cli.run(["curate", "share", "--to", dir.path])
            #expect(r.status == 1 && r.stderrLines.count == 1, "\(r.stderr)")
            #expect(r.stderr.contains("no space left on device in \(dir.path)"), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: disk.mountPoint.appendingPathComponent("new").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: old.path) == ["notes.txt"])
    }

    @Test func sharingAgainFindsTheSameBytesUnderANumberedName() throws {
        let c = try Self.selected()
        let dir = try tempFolder("again")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // The user's own files under the names: the shared photo and the Live Photo's pair get " (2)".
        for name in ["IMG_0761.JPG", "IMG_0758.HEIC"] { try Data("theirs".utf8).write(to: dir.appendingPathComponent(name)) }
        for copy in [false, true] {
            let first = try c.cli.json(["curate", "share", "--to", dir.path] + (copy ? ["--copy"] : [])) as? [String: Any] ?? [:]
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            let again = try c.cli.json(["curate", "share", "--to", dir.path]) as? [String: Any] ?? [:]
            let files = again["files"] as? [[String: Any]] ?? []
            #expect(files.count == Self.picks.count + 1)
            #expect(files.allSatisfy { $0["method"] as? String == "already-there" }, "\(files)")
            #expect(Set(files.map { $0["name"] as! String }).isSuperset(of: ["IMG_0761 (2).JPG", "IMG_0758 (2).HEIC", "IMG_0758 (2).MOV"]))
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == names.sorted())
            #expect(!names.contains { $0.contains(" (3)") })
            if !copy { #expect((first["files"] as? [[String: Any]] ?? []).allSatisfy { $0["method"] as? String == "link" }) }
            // Emptied but for the user's files, for the second round.
            for name in names where !["IMG_0761.JPG", "IMG_0758.HEIC"].contains(name) { try FileManager.default.removeItem(at: dir.appendingPathComponent(name)) }
        }
    }
}
