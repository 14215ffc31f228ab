import Foundation
import Testing
import TestSupport

/// `memories collage -o FILE` writes outside the library only (issue 28): the folder that holds
/// FILE is opened, checked, and FILE created relative to it, so swapping the folder for a link
/// into the library meanwhile never puts a collage there.
@Suite struct CollageOutsideTests {
    @Test func aFolderSwappedForALinkIntoTheLibraryNeverGetsTheCollage() throws {
        let roll = try MemoryRoll.get().writableCopy()
        let before = FolderSwap.names(under: roll.root)
        let swap = try FolderSwap(try scratchFolder().appendingPathComponent("out"), linkTo: roll.root)
        let results = try swap.during(25) { i in
            try roll.cli.run(["memories", "collage", "--year", "2019", "-o", swap.folder.appendingPathComponent("c\(i).jpg").path])
        }
        #expect(FolderSwap.names(under: roll.root) == before, "collages were written into the library")
        for (i, r) in results.enumerated() {
            if r.status == 0 {
                #expect(FileManager.default.fileExists(atPath: swap.folder.appendingPathComponent("c\(i).jpg").path), "run \(i): \(r.stderr)")
            } else {
                #expect(r.status == 1 && r.stderrLines.count == 1, "run \(i): \(r.stderr)")
            }
        }
    }
}
