import CShoeboxSystem
import Foundation
import Testing
@testable import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// The confined file layer: paths validated, no link followed at any component, moves and
/// deletions only of the file the index knows.
struct ConfinedFilesTests {
    @Test(arguments: ["a.jpg", "2017/a.jpg", "Recently Deleted/files/a b.jpg", "caf\u{E9}/x", ".hidden/x"])
    func plainRelativePathsAreValid(path: String) {
        #expect(LibraryPath.isValid(path))
    }

    @Test(arguments: ["", "/etc/passwd", "../x.jpg", "a/../../x.jpg", "a/./b", "a//b", "a/", "..", ".", "a\u{0}b"])
    func pathsThatLeadOutOrAreNotNormalAreRefused(path: String) {
        #expect(!LibraryPath.isValid(path))
        #expect(throws: ShoeboxError.self) { try LibraryPath.validated(path, from: "a test") }
    }

    /// A scratch library with `inside/a.jpg` and an outside folder holding `a.jpg` too.
    func scene() throws -> (ScratchFolder, LibraryFiles, String) {
        let dir = try ScratchFolder()
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir.path + "/lib/inside", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir.path + "/outside", withIntermediateDirectories: true)
        try Data("photo".utf8).write(to: URL(fileURLWithPath: dir.path + "/lib/inside/a.jpg"))
        try Data("not yours".utf8).write(to: URL(fileURLWithPath: dir.path + "/outside/a.jpg"))
        return (dir, LibraryFiles(root: dir.path + "/lib"), dir.path + "/outside")
    }

    @Test func aFolderThatIsALinkIsNeverPassedThrough() throws {
        let (dir, files, outside) = try scene()
        defer { dir.remove() }
        #expect(symlink(outside, dir.path + "/lib/linked") == 0)
        #expect(throws: ShoeboxError.self) { _ = try files.lstat("linked/a.jpg") }
        #expect(throws: ShoeboxError.self) { try files.remove("linked/a.jpg") }
        #expect(throws: ShoeboxError.self) { try files.move("inside/a.jpg", to: "linked/b.jpg") }
        #expect(throws: ShoeboxError.self) { _ = try files.open("linked/new.txt", O_WRONLY | O_CREAT) }
        #expect(throws: ShoeboxError.self) { try files.withFolder("linked/deeper", creating: true) { _ in } }
        #expect(try String(contentsOfFile: outside + "/a.jpg", encoding: .utf8) == "not yours")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["a.jpg"])
        #expect(FileManager.default.fileExists(atPath: dir.path + "/lib/inside/a.jpg"))
    }

    /// A folder opened once is where later calls start: what is below it is reached (and made)
    /// from its descriptor, never through a link; a link at the end is described, not followed.
    @Test func anOpenFolderIsAStartingPointThatNoLinkLeadsOutOf() throws {
        let (dir, files, outside) = try scene()
        defer { dir.remove() }
        #expect(symlink(outside, dir.path + "/lib/inside/linked") == 0)
        try files.withFolder("inside") { inside in
            let deeper = try files.openFolder("a/b", beneath: inside, creating: true)
            close(deeper)
            #expect(throws: ShoeboxError.self) { try files.openFolder("linked", beneath: inside) }
            #expect(throws: ShoeboxError.self) { try files.openFolder("linked/c", beneath: inside, creating: true) }
            var st = stat()
            #expect(shoebox_lstat_beneath(inside, "linked", &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK)
            #expect(shoebox_lstat_beneath(inside, "linked/a.jpg", &st) != 0 && errno == ELOOP)
            #expect(shoebox_lstat_beneath(inside, "a/b", &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR)
        }
        #expect(FileManager.default.fileExists(atPath: dir.path + "/lib/inside/a/b"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["a.jpg"])
    }

    @Test func aFileThatIsALinkIsNeitherOpenedNorTruncated() throws {
        let (dir, files, outside) = try scene()
        defer { dir.remove() }
        #expect(symlink(outside + "/a.jpg", dir.path + "/lib/inside/lock") == 0)
        #expect(throws: ShoeboxError.self) { _ = try files.open("inside/lock", O_RDWR | O_CREAT | O_TRUNC) }
        #expect(try String(contentsOfFile: outside + "/a.jpg", encoding: .utf8) == "not yours")
    }

    @Test func aMoveGoesAheadOnlyForTheFileTheIndexKnows() throws {
        let (dir, files, _) = try scene()
        defer { dir.remove() }
        let st = try #require(try files.lstat("inside/a.jpg"))
        let stale = LibraryFiles.KnownFile(inode: st.inode, size: st.size + 1, mtimeNS: st.mtimeNS)
        #expect(throws: ShoeboxError.self) { try files.move("inside/a.jpg", to: "bin/a.jpg", expecting: stale) }
        #expect(FileManager.default.fileExists(atPath: dir.path + "/lib/inside/a.jpg"))
        let known = LibraryFiles.KnownFile(inode: st.inode, size: st.size, mtimeNS: st.mtimeNS)
        try files.move("inside/a.jpg", to: "bin/deep/a.jpg", expecting: known)
        #expect(FileManager.default.fileExists(atPath: dir.path + "/lib/bin/deep/a.jpg"))
        // Never over an existing file.
        try Data("other".utf8).write(to: URL(fileURLWithPath: dir.path + "/lib/inside/a.jpg"))
        #expect(throws: ShoeboxError.self) { try files.move("inside/a.jpg", to: "bin/deep/a.jpg") }
        #expect(try String(contentsOfFile: dir.path + "/lib/bin/deep/a.jpg", encoding: .utf8) == "photo")
    }

    @Test func pathsThatLeadOutAreRefusedBeforeAnyCall() throws {
        let (dir, files, outside) = try scene()
        defer { dir.remove() }
        #expect(throws: ShoeboxError.self) { try files.remove("../outside/a.jpg") }
        #expect(throws: ShoeboxError.self) { try files.move("inside/a.jpg", to: "../outside/b.jpg") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["a.jpg"])
    }
}
