import Foundation
import Testing
import TestSupport
@testable import PhotoLibrary

/// The one rule for what a library indexes and which folders Shoebox owns, and its users (the
/// scan's walk, the watcher's folder listing) agreeing on real files.
@Suite(.serialized)
struct LibraryLayoutTests {
    @Test func reservedFoldersAreOwnedAndCollagesIsOwnedButIndexed() {
        #expect(LibraryLayout.ownedFolders == [".shoebox", "Albums", "Recently Deleted", "Tracker", "Collages"])
        for name in [".shoebox", "Albums", "Recently Deleted", "Tracker"] {
            #expect(LibraryLayout.isReserved(rootName: name), "\(name)")
            #expect(!LibraryLayout.descends(intoFolderNamed: name, atRoot: true), "\(name)")
            // Only at the root: a user's own "2024/Albums/" is just a folder.
            #expect(LibraryLayout.descends(intoFolderNamed: name == ".shoebox" ? "Shoebox" : name, atRoot: false), "\(name)")
        }
        #expect(!LibraryLayout.isReserved(rootName: "Collages"))
        #expect(LibraryLayout.isIndexable(file: "Collages/2026-11-22 Lisbon.jpg"))
        #expect(Library.reservedFolders == LibraryLayout.reservedFolders)
    }

    @Test func fileNamesAreIndexableUnlessHiddenTemporaryOrCompanions() {
        for name in ["IMG_0412.HEIC", "a.jpg", "no extension", "photo.tmp.jpg", "ünïcødé é.jpg", "x.verylongextension"] {
            #expect(LibraryLayout.isIndexable(fileName: name), "\(name)")
        }
        for name in [".IMG_1.JPG", "a.jpg.part", "a.JPG.CRDOWNLOAD", "a.jpg~", "~$report.jpg", ".syncthing.a.jpg.tmp",
                     "x.!qb", "a.jpg.opdownload", "IMG_1.xmp", "IMG_1.AAE", "notes.txt", "track.gpx", ""] {
            #expect(!LibraryLayout.isIndexable(fileName: name), "\(name)")
        }
        // The old entry points say the same.
        #expect(Library.isTemporaryName("a.jpg.part") && !Library.isTemporaryName("a.jpg"))
        #expect(!Library.isIndexable(relativePath: "2024/IMG_1.xmp"))
    }

    @Test func companionsAreTheOnesTheScanSkips() {
        for name in ["IMG_1.XMP", "a.tar.txt", "notes.md", "x.JSON", "photo.jpg", "noext", "ünï.txt", "a.Txt",
                     "report.docx", "a.", "IMG_0412.HEIC", "clip.lrv", "a.b.c.gpx", "weird.tXt~", "x.crdownload"] {
            #expect(LibraryLayout.isKnownOther(name) == FileProbe.isKnownOther(name), "\(name)")
            #expect(LibraryLayout.isKnownOther(name) == FileProbe.isKnownOther("2024/Trip/" + name), "\(name)")
        }
    }

    @Test func pathsAreIndexableWhenEveryFolderAndTheNameAre() {
        for path in ["2024/IMG_1.JPG", "a.jpg", "x/Albums/a.jpg", "folder.tmp/a.jpg", "notes.txt/a.jpg", "Collages/c.jpg"] {
            #expect(LibraryLayout.isIndexable(file: path), "\(path)")
        }
        for path in ["Albums/Years/2024/001 IMG_1.JPG", "Recently Deleted/files/a.jpg", "Tracker/photos/x.jpg",
                     ".shoebox/index.sqlite", "2024/.cache/a.jpg", "2024/IMG_1.JPG.part", "Albums", "Tracker", ""] {
            #expect(!LibraryLayout.isIndexable(file: path), "\(path)")
        }
        #expect(LibraryLayout.isIndexable(folder: "") && LibraryLayout.isIndexable(folder: "2024/Trip"))
        #expect(!LibraryLayout.isIndexable(folder: "Tracker/photos") && !LibraryLayout.isIndexable(folder: "a/.git"))
    }

    // MARK: On disk

    /// Files under `odd/` with names each user of the rule could get wrong; true for those indexed.
    static let oddTree: [(path: String, indexed: Bool)] = [
        ("odd/a.jpg", true), ("odd/no extension", true), ("odd/h.tmp.jpg", true), ("odd/ünïcødé é.jpg", true),
        ("odd/Albums/i.jpg", true), ("odd/Tracker/j.jpg", true), ("odd/folder.tmp/l.jpg", true),
        ("odd/notes.txt/m.jpg", true), ("odd/sub/deeper/n.jpeg", true),
        ("odd/.hidden.jpg", false), ("odd/b.jpg.part", false), ("odd/c.JPG.CRDOWNLOAD", false), ("odd/d.jpg~", false),
        ("odd/~$e.jpg", false), ("odd/f.xmp", false), ("odd/notes.TXT", false), ("odd/.cache/k.jpg", false),
    ]

    static func photo() throws -> Data {
        let sample = try TestRoll.sampleLibrary().root
        let files = FileManager.default.enumerator(at: sample, includingPropertiesForKeys: nil)!
        let jpeg = try #require(files.compactMap { $0 as? URL }.first { $0.pathExtension.lowercased() == "jpg" })
        return try Data(contentsOf: jpeg)
    }

    static func emptyLibrary() throws -> (Library, Index) {
        let dir = Scratch.root.appendingPathComponent("shoebox-layout-\(UUID().uuidString)")
        let library = try Library.initialize(at: dir)
        return (library, try Index(library: library))
    }

    static func write(_ data: Data, _ path: String, in library: Library) throws {
        let url = library.url(for: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    @Test func theWalkAndTheWatchersFolderListingFindTheSameFiles() throws {
        let (library, index) = try Self.emptyLibrary()
        let data = try Self.photo()
        for (path, _) in Self.oddTree { try Self.write(data, path, in: library) }
        for path in ["Collages/c.jpg", "Tracker/photos/t.jpg", "Albums/x.jpg", "Recently Deleted/files/y.jpg", "z.jpg"] {
            try Self.write(data, path, in: library)
        }
        try FileManager.default.createSymbolicLink(atPath: library.url(for: "odd/link.jpg").path, withDestinationPath: "a.jpg")
        let expected = Set(Self.oddTree.filter(\.indexed).map(\.path))

        let walked = try LibraryWalker(library: library).walk()
        #expect(Set(walked.files.map(\.path)) == expected.union(["Collages/c.jpg", "z.jpg"]))
        var problems: [FileProblem] = []
        let listed = LiveUpdater(library: library, index: index).filesUnder("odd", problems: &problems)
        #expect(Set(listed) == expected && problems.isEmpty)
        #expect(Set(walked.files.map(\.path).filter { $0.hasPrefix("odd/") }) == Set(listed))
        for (path, indexed) in Self.oddTree { #expect(LibraryLayout.isIndexable(file: path) == indexed, "\(path)") }
        // A reserved folder is listed by neither; Collages/ by both.
        #expect(LiveUpdater(library: library, index: index).filesUnder("Tracker", problems: &problems).isEmpty)
        #expect(LiveUpdater(library: library, index: index).filesUnder("Collages", problems: &problems) == ["Collages/c.jpg"])
    }

    @Test func aScanIndexesASavedCollageAndNothingInTracker() throws {
        let (library, index) = try Self.emptyLibrary()
        var data = try Self.photo()
        try Self.write(data, "2024/a.jpg", in: library)
        data.append(contentsOf: Array("collage".utf8))  // other bytes after the JPEG's end: other content
        try Self.write(data, "Collages/2026-11-22 Lisbon.jpg", in: library)
        data.append(contentsOf: Array("tracker".utf8))
        try Self.write(data, "Tracker/photos/mini.jpg", in: library)
        let report = try Scanner(library: library, index: index).scan()
        #expect(report.added == 2, "\(report.failed)")
        #expect(try index.asset(path: "Collages/2026-11-22 Lisbon.jpg")?.state == .present)
        #expect(try index.asset(path: "Tracker/photos/mini.jpg") == nil)
    }
}
