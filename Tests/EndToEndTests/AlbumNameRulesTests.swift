import Foundation
import Testing
import TestSupport

/// Issue 13's low findings on names: album names that display as something else, album names
/// that are one folder on a case-insensitive disk, and a `.trashinfo` with two paths.
@Suite(.serialized)
struct AlbumNameRulesTests {
    @Test func aNameWithADirectionControlIsRefused() throws {
        let s = try SymlinkAttackTests.Scene()
        defer { s.remove() }
        let r = try s.cli.run(["album", "create", "Trip \u{202E}gpj.exe"])
        #expect(r.status != 0 && r.stderr.contains("U+202E"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.library.appendingPathComponent("Albums/Trip \u{202E}gpj.exe").path))
    }

    @Test func namesThatAreOneFolderOnACaseInsensitiveDiskClash() throws {
        let s = try SymlinkAttackTests.Scene()
        defer { s.remove() }
        #expect(try s.cli.run(["album", "create", "caf\u{E9}"]).status == 0)
        for other in ["CAF\u{C9}", "cafe\u{301}"] {
            let r = try s.cli.run(["album", "create", other])
            #expect(r.status != 0 && r.stderr.contains("already exists"), "\(other): \(r.stderr)")
        }
    }

    @Test func aTrashInfoWithTwoPathsIsNotTrusted() throws {
        let s = try SymlinkAttackTests.Scene()
        defer { s.remove() }
        #expect(try s.cli.run(["trash", "2017/p0.jpg"]).status == 0)
        let info = s.library.appendingPathComponent("Recently Deleted/info/p0.jpg.trashinfo")
        try "[Trash Info]\nPath=2017/p0.jpg\nPath=elsewhere/p0.jpg\nDeletionDate=2020-01-01T00:00:00\n"
            .write(to: info, atomically: true, encoding: .utf8)
        let list = try s.cli.run(["trash", "list"])
        #expect(list.stderr.contains("Path= twice"), "\(list.stderr)")
    }
}
