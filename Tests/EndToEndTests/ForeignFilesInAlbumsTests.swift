import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Files Shoebox did not make, in album folders: a photo an editor saved through an album link
/// (it replaces the link with a real file), a file dropped in, a build folder a crash left. None
/// is ever deleted, and none blocks a later command: generated album folders move them to
/// `Albums/Not Shoebox's/<album>/`, user album folders keep them.
@Suite(.serialized)
struct ForeignFilesInAlbumsTests {
    static let aside = "Albums/Not Shoebox's"

    /// A scanned copy of the sample library.
    static func scanned() throws -> (TestRoll.Made, ShoeboxCLI) {
        let copy = try TestRoll.sampleCopy()
        return (copy, try ShoeboxCLI.scanned(copy))
    }

    /// What an editor saving "in place" through a link does: a new file beside it, renamed over it.
    static func saveThroughLink(_ link: URL, _ bytes: Data) throws {
        let temp = link.deletingLastPathComponent().appendingPathComponent(".\(link.lastPathComponent).swp")
        try bytes.write(to: temp)
        #expect(rename(temp.path, link.path) == 0)
    }

    static func expectOK(_ r: ShoeboxCLI.Result, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == 0, "\(what): \(r.stderr)", sourceLocation: sourceLocation)
    }

    /// Every entry under `Albums/` whose name starts with `.shoebox-build-`.
    static func buildFolders(_ root: URL) throws -> [String] {
        try TestRoll.run("/usr/bin/find", [root.appendingPathComponent("Albums").path, "-name", ".shoebox-build-*"])
            .stdout.split(separator: "\n").map(String.init)
    }

    @Test func aPhotoSavedThroughAYearAlbumLinkIsMovedAsideAndBlocksNothing() throws {
        let (made, cli) = try Self.scanned()
        let root = made.root
        let year = root.appendingPathComponent("Albums/Years/2021")
        let links = try Links.read(year).sorted { $0.name < $1.name }
        let before = try Links.snapshot(year)
        let edited = links[2]
        let originalSHA = try Links.sha256(root.appendingPathComponent(edited.resolvedPath))
        let bytes = Data("edited pixels of \(edited.name)\n".utf8)
        try Self.saveThroughLink(year.appendingPathComponent(edited.name), bytes)

        let scan = try cli.run(["scan"])
        Self.expectOK(scan, "scan")
        let kept = root.appendingPathComponent("\(Self.aside)/Years/2021/\(edited.name)")
        #expect(try Data(contentsOf: kept) == bytes, "the edit is kept at \(kept.path)")
        #expect(scan.stderrLines.filter { $0.contains(edited.name) }.count == 1, "one line names it: \(scan.stderr)")
        #expect(scan.stderr.contains("Not Shoebox's/Years/2021/\(edited.name)"))
        #expect(try Links.snapshot(year) == before, "the album is whole again, links only")
        #expect(try Links.sha256(root.appendingPathComponent(edited.resolvedPath)) == originalSHA)
        let again = try cli.run(["scan"])
        Self.expectOK(again, "second scan")
        #expect(!again.stderr.contains(edited.name), "reported once: \(again.stderr)")

        // The same edit again, then a trash that renumbers the album (a rebuilt folder swapped
        // in): the second copy is kept beside the first, never over it.
        try Self.saveThroughLink(year.appendingPathComponent(edited.name), bytes + bytes)
        Self.expectOK(try cli.run(["trash", links[0].resolvedPath]), "trash")
        let second = root.appendingPathComponent("\(Self.aside)/Years/2021/" + Self.numbered(edited.name, 2))
        #expect(try Data(contentsOf: second) == bytes + bytes)
        #expect(try Data(contentsOf: kept) == bytes)
        Self.expectOK(try cli.run(["restore", links[0].resolvedPath]), "restore")
        Self.expectOK(try cli.run(["album", "create", "Keep", links[1].resolvedPath]), "album create")
        Self.expectOK(try cli.run(["album", "add", "Keep", links[3].resolvedPath]), "album add")
        Self.expectOK(try cli.run(["scan"]), "third scan")
        #expect(try Links.snapshot(year) == before)
        #expect(try Self.buildFolders(root).isEmpty)
        #expect(try Links.dangling(in: root).isEmpty)
        let doctor = try cli.run(["doctor"])
        #expect(doctor.status == 0 && doctor.stdout.contains("Not Shoebox's"), "doctor warns: \(doctor.stdout)")
    }

    @Test func filesFoldersAndForeignLinksInGeneratedAlbumsAreMovedAsideNotDeleted() throws {
        let (made, cli) = try Self.scanned()
        let root = made.root
        let fm = FileManager.default
        let year = root.appendingPathComponent("Albums/Years/2021")
        let links = try Links.snapshot(year)
        try Data("notes\n".utf8).write(to: year.appendingPathComponent("notes.txt"))
        try fm.createDirectory(at: year.appendingPathComponent("extra"), withIntermediateDirectories: true)
        try Data("inside\n".utf8).write(to: year.appendingPathComponent("extra/inside.txt"))
        try fm.createSymbolicLink(atPath: year.appendingPathComponent("elsewhere.jpg").path, withDestinationPath: "/nonexistent/elsewhere.jpg")
        try Data("[Dolphin]\n".utf8).write(to: year.appendingPathComponent(".directory"))
        // The photos of 2024: their album goes when they are trashed, and so must its hidden file.
        let lone = try Links.read(root.appendingPathComponent("Albums/Years/2024")).map(\.resolvedPath).sorted()
        try Data("[Dolphin]\n".utf8).write(to: root.appendingPathComponent("Albums/Years/2024/.directory"))

        let r = try cli.run(["trash"] + lone)
        Self.expectOK(r, "trash")
        let aside = root.appendingPathComponent("\(Self.aside)/Years/2021")
        #expect(try String(contentsOf: aside.appendingPathComponent("notes.txt"), encoding: .utf8) == "notes\n")
        #expect(try String(contentsOf: aside.appendingPathComponent("extra/inside.txt"), encoding: .utf8) == "inside\n")
        #expect(try fm.destinationOfSymbolicLink(atPath: aside.appendingPathComponent("elsewhere.jpg").path) == "/nonexistent/elsewhere.jpg")
        #expect(r.stderrLines.filter { $0.contains("Not Shoebox's") }.count == 4, "one line each: \(r.stderr)")
        // A file manager's hidden file stays with its album while the album is there.
        #expect(fm.fileExists(atPath: year.appendingPathComponent(".directory").path))
        #expect(!fm.fileExists(atPath: root.appendingPathComponent("Albums/Years/2024").path))
        #expect(fm.fileExists(atPath: root.appendingPathComponent("\(Self.aside)/Years/2024/.directory").path))
        #expect(try Links.snapshot(year) == links)
        Self.expectOK(try cli.run(["scan"]), "scan")
        Self.expectOK(try cli.run(["restore"] + lone), "restore")
        #expect(try Links.read(root.appendingPathComponent("Albums/Years/2024")).map(\.resolvedPath).sorted() == lone)
    }

    @Test func buildFoldersACrashLeftAreCleanedByTheNextCommand() throws {
        let (made, cli) = try Self.scanned()
        let root = made.root
        let fm = FileManager.default
        let year = root.appendingPathComponent("Albums/Years/2021")
        let links = try Links.read(year).sorted { $0.name < $1.name }
        Self.expectOK(try cli.run(["album", "create", "Trip", links[0].resolvedPath, links[1].resolvedPath]), "album create")
        // Killed while rebuilding 2021 (a file of the same name as a link in it), Trip, and 2019
        // where the old folder stepped aside (a file system without RENAME_EXCHANGE).
        let builds = ["Albums/Years/.shoebox-build-2021", "Albums/.shoebox-build-Trip", "Albums/Years/.shoebox-build-2019.old"]
        for b in builds {
            try fm.createDirectory(at: root.appendingPathComponent(b), withIntermediateDirectories: true)
            let up = String(repeating: "../", count: b.split(separator: "/").count)
            try fm.createSymbolicLink(atPath: root.appendingPathComponent(b + "/001 x.jpg").path, withDestinationPath: up + links[0].resolvedPath)
        }
        try Data("edited\n".utf8).write(to: root.appendingPathComponent(builds[0] + "/" + links[1].name))
        try Data("mine\n".utf8).write(to: root.appendingPathComponent(builds[1] + "/notes.txt"))

        Self.expectOK(try cli.run(["trash", links[2].resolvedPath]), "trash")
        let leftovers = try Self.buildFolders(root)
        #expect(leftovers.isEmpty, "\(leftovers)")
        #expect(try String(contentsOf: root.appendingPathComponent("\(Self.aside)/Years/2021/\(links[1].name)"), encoding: .utf8) == "edited\n")
        #expect(try String(contentsOf: root.appendingPathComponent("Albums/Trip/notes.txt"), encoding: .utf8) == "mine\n")
        // Every later command works, and rebuilding 2021 again finds nothing in its way.
        Self.expectOK(try cli.run(["restore", links[2].resolvedPath]), "restore")
        Self.expectOK(try cli.run(["album", "order", "Trip", links[1].resolvedPath]), "album order")
        Self.expectOK(try cli.run(["scan"]), "scan")
        #expect(try Self.buildFolders(root).isEmpty)
        #expect(try Links.read(year).count == links.count)
    }

    @Test func userAlbumsKeepRealFilesThroughRemoveOrderAndDelete() throws {
        let (made, cli) = try Self.scanned()
        let root = made.root
        let photos = try Links.read(root.appendingPathComponent("Albums/Years/2021")).sorted { $0.name < $1.name }.map(\.resolvedPath)
        Self.expectOK(try cli.run(["album", "create", "Trip", photos[0], photos[1], photos[2]]), "album create")
        let notes = root.appendingPathComponent("Albums/Trip/notes.txt")
        try Data("mine\n".utf8).write(to: notes)
        Self.expectOK(try cli.run(["album", "remove", "Trip", photos[1]]), "album remove")
        Self.expectOK(try cli.run(["album", "order", "Trip", photos[2]]), "album order")
        #expect(try Data(contentsOf: notes) == Data("mine\n".utf8))
        let trip = try Links.snapshot(root.appendingPathComponent("Albums/Trip")).sorted { $0.key < $1.key }
        #expect(trip.map { String($0.value.dropFirst("../../".count)) } == [photos[2], photos[0]])
        let deleted = try cli.run(["album", "delete", "Trip"])
        Self.expectOK(deleted, "album delete")
        #expect(deleted.stderr.contains("notes.txt"), "it says what it left: \(deleted.stderr)")
        #expect(try Data(contentsOf: notes) == Data("mine\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: notes.deletingLastPathComponent().path) == ["notes.txt"])
        Self.expectOK(try cli.run(["scan"]), "scan")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent(Self.aside).path))
    }

    static func numbered(_ name: String, _ n: Int) -> String {
        let ext = (name as NSString).pathExtension
        return ext.isEmpty ? "\(name) (\(n))" : "\((name as NSString).deletingPathExtension) (\(n)).\(ext)"
    }
}
