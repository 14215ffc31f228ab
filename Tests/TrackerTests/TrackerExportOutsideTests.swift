import Foundation
import Testing
import TestSupport

/// `tracker export -o DIR` writes outside the library only, and a failed export leaves the
/// folder as it found it (issue 28): DIR is made relative to its opened and checked parent, and
/// what a failed run made goes — DIR too when the run made it.
@Suite struct TrackerExportOutsideTests {
    func tracker() throws -> TrackerLibrary {
        let t = try TrackerLibrary()
        _ = try t.mini(try t.project(), "Captain")
        return t
    }

    @Test func aParentSwappedForALinkIntoTheLibraryNeverGetsTheFolder() throws {
        let t = try tracker()
        let before = FolderSwap.names(under: t.root)
        let swap = try FolderSwap(t.outside.appendingPathComponent("parent"), linkTo: t.root)
        let results = try swap.during(25) { i in
            try t.fails(["export", "--format", "json", "-o", swap.folder.appendingPathComponent("out\(i)").path])
        }
        #expect(FolderSwap.names(under: t.root) == before, "folders were made in the library")
        for (i, r) in results.enumerated() {
            if r.status == 0 {
                let made = try FileManager.default.contentsOfDirectory(atPath: swap.folder.appendingPathComponent("out\(i)").path)
                #expect(made == ["tracker.json"], "run \(i)")
            } else {
                #expect(r.status == 1 && r.stderrLines.count == 1, "run \(i): \(r.stderr)")
            }
        }
    }

    @Test(.enabled(if: SmallDisk.unavailable == nil, "\(SmallDisk.unavailable ?? "")"))
    func aFailedExportLeavesTheFolderAsItWas() throws {
        let t = try tracker()
        let disk = try SmallDisk(megabytes: 1)
        let old = try disk.usersFolder("old")
        // Room for three of the seven CSV files (a page each): the export fails part way.
        try disk.fill(leaving: 3 * 4096)
        for dir in [disk.mountPoint.appendingPathComponent("new"), old] {
            let r = try t.fails(["export", "--format", "csv", "-o", dir.path])
            #expect(r.status == 1 && r.stderrLines.count == 1 && r.stderr.contains("full"), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: disk.mountPoint.appendingPathComponent("new").path), "the failed export left the folder it made")
        #expect(try FileManager.default.contentsOfDirectory(atPath: old.path) == ["notes.txt"])
    }
}
