import Foundation
import Testing
import TestSupport
@testable import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// Issue 13, album folders: one swapped for a link while a command runs — after the owned-paths
/// check that comes with the writer lock, before the album sync writes — is never written
/// through, and nothing is deleted or moved where it points. The sync is called here directly,
/// as a command calls it once its lock check has passed.
@Suite(.serialized)
struct AlbumConfinementTests {
    /// A scanned copy of the sample library with a user album "Trip", and beside it an outside
    /// folder that looks like album folders: links of Shoebox's shape, a file, a build folder.
    struct Scene {
        let base: URL
        let library: Library
        let index: Index
        var albums: String { library.root.path + "/Albums" }
        var outside: String { base.path + "/outside" }

        init() throws {
            let copy = try TestRoll.sampleCopy()
            base = copy.root.deletingLastPathComponent()
            library = try Library.initialize(at: copy.root)
            index = try Index(library: library)
            _ = try Scanner(library: library, index: index).scan()
            let ids = try index.allAssets().filter { $0.kind == .photo }.prefix(2).map(\.id)
            _ = try AlbumLinker(library: library, index: index).create(name: "Trip", ids: ids)
            let fm = FileManager.default
            for folder in ["", "/2017", "/.shoebox-build-2017"] {
                try fm.createDirectory(atPath: outside + folder, withIntermediateDirectories: true)
                try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: outside + folder + "/notes.txt"))
            }
            // Links a sync would take for its own stale ones (user album, year album, build folder).
            #expect(symlink("../../2017/gone.jpg", outside + "/001 gone.jpg") == 0)
            #expect(symlink("../../../2017/gone.jpg", outside + "/002 gone.jpg") == 0)
            #expect(symlink("../../../2017/gone.jpg", outside + "/2017/001 gone.jpg") == 0)
            #expect(symlink("../../../2017/gone.jpg", outside + "/.shoebox-build-2017/001 gone.jpg") == 0)
        }

        func remove() { try? FileManager.default.removeItem(at: base) }

        /// `mv Albums/<path> elsewhere; ln -s outside Albums/<path>`.
        func swapForLink(_ path: String) throws {
            try FileManager.default.moveItem(atPath: albums + "/" + path, toPath: base.path + "/moved-" + path.replacingOccurrences(of: "/", with: "-"))
            #expect(symlink(outside, albums + "/" + path) == 0)
        }

        /// Every entry under the outside folder: a file's bytes, a link's text, or "folder".
        func outsideTree() -> [String: String] {
            var out: [String: String] = [:]
            guard let walker = FileManager.default.enumerator(atPath: outside) else { return out }
            while let rel = walker.nextObject() as? String {
                let full = outside + "/" + rel
                if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: full) {
                    out[rel] = "link:" + target
                } else if let data = FileManager.default.contents(atPath: full) {
                    out[rel] = String(decoding: data, as: UTF8.self)
                } else {
                    out[rel] = "folder"
                }
            }
            return out
        }
    }

    /// `body` must fail with one line naming the link, and leave the outside folder as it was.
    func expectRefused(_ scene: Scene, naming name: String, _ body: () throws -> Void,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        let before = scene.outsideTree()
        #expect(before.count == 9, sourceLocation: sourceLocation)
        #expect(sourceLocation: sourceLocation) { try body() } throws: { error in
            let e = error as? ShoeboxError
            return e?.code == .unsafeLayout && e!.message.contains(name) && e!.message.contains("symbolic link") && !e!.message.contains("\n")
        }
        #expect(scene.outsideTree() == before, "something outside the library changed", sourceLocation: sourceLocation)
    }

    @Test(arguments: ["Albums/Years/2017", "Albums/Years", "Albums/Trip"])
    func aFolderSwappedForALinkBeforeTheSyncIsNeitherWrittenNorEmptiedThrough(_ path: String) throws {
        let s = try Scene()
        defer { s.remove() }
        try s.swapForLink(String(path.dropFirst("Albums/".count)))
        expectRefused(s, naming: path) { try AlbumLinker(library: s.library, index: s.index).sync() }
    }

    @Test(arguments: ["delete", "add", "remove", "order"])
    func aUserAlbumSwappedForALinkIsNeitherEmptiedNorFilledThroughByAlbumCommands(_ command: String) throws {
        let s = try Scene()
        defer { s.remove() }
        let linker = AlbumLinker(library: s.library, index: s.index)
        let members = try linker.userAlbum("Trip").members
        let more = try s.index.allAssets().filter { $0.kind == .photo }.suffix(3).map(\.id)
        try s.swapForLink("Trip")
        expectRefused(s, naming: "Albums/Trip") {
            switch command {
            case "delete": _ = try linker.delete("Trip")
            case "add": _ = try linker.add(to: "Trip", ids: more)
            case "remove": _ = try linker.remove(from: "Trip", ids: [members[0]])
            default: _ = try linker.order("Trip", first: members.reversed())
            }
        }
    }

    /// While syncs run, a second thread swaps `Albums/Years/2017` for a link to the outside folder
    /// and back, as fast as it can, deleting one of its links each time (so that every sync has
    /// something to write). Whatever a sync meets — the folder, the link, a folder swapped after
    /// it was opened — nothing under the outside folder changes.
    @Test func aSecondThreadSwappingAnAlbumFolderDuringSyncsNeverReachesOutside() throws {
        let s = try Scene()
        defer { s.remove() }
        let before = s.outsideTree()
        let real = s.albums + "/Years/2017", aside = s.base.path + "/aside-2017"
        let swapper = Swapper(real: real, aside: aside, outside: s.outside)
        let thread = Thread { swapper.run() }
        thread.start()
        let linker = AlbumLinker(library: s.library, index: s.index)
        var syncs = 0, refused = 0
        while syncs < 150 || swapper.swaps < 150 {
            do { try linker.sync() } catch { refused += 1 }
            syncs += 1
        }
        swapper.stop()
        while !thread.isFinished { usleep(1000) }
        swapper.putBack()
        #expect(s.outsideTree() == before, "something outside the library changed")
        // With the folder back for good, the next sync puts the album right (a link the race
        // left at a build folder's name is moved aside, never followed).
        #expect(throws: Never.self) { try linker.sync() }
        let want = try #require(try linker.generated().first { $0.path == "Years/2017" })
        #expect(try linker.links(of: "Years/2017") == Dictionary(uniqueKeysWithValues: want.entries.map { ($0.linkName, $0.target) }))
        #expect(s.outsideTree() == before)
        print("AlbumConfinementTests: \(syncs) syncs (\(refused) refused one line) against \(swapper.swaps) swaps")
    }

    /// The second thread of `aSecondThreadSwappingAnAlbumFolderDuringSyncsNeverReachesOutside`.
    final class Swapper: @unchecked Sendable {
        let real: String, aside: String, outside: String
        private let lock = NSLock()
        private var stopped = false
        private var count = 0
        init(real: String, aside: String, outside: String) { (self.real, self.aside, self.outside) = (real, aside, outside) }

        var swaps: Int { lock.withLock { count } }
        func stop() { lock.withLock { stopped = true } }

        func run() {
            while !lock.withLock({ stopped }) {
                // `mv 2017 aside; ln -s outside 2017`, then back; each step may lose a race with
                // the sync's own renames, which is the point.
                if rename(real, aside) == 0 {
                    if let link = (try? FileManager.default.contentsOfDirectory(atPath: aside))?.filter({ !$0.hasPrefix(".") }).first {
                        unlink(aside + "/" + link)
                    }
                    symlink(outside, real)
                    usleep(200)
                    putBack()
                }
                lock.withLock { count += 1 }
                usleep(100)
            }
        }

        /// The link at the folder's place goes, and the folder comes back when its place is free.
        func putBack() {
            var st = stat()
            if lstat(real, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK { unlink(real) }
            if lstat(aside, &st) == 0 && rename(aside, real) != 0 { try? FileManager.default.removeItem(atPath: aside) }
        }
    }
}

/// Which entries of an album folder are Shoebox's, and the names what is not gets when moved aside.
struct ForeignEntryRulesTests {
    @Test func onlyLinksOfShoeboxsShapeAreShoeboxs() {
        // Years/2024 (depth 3) and a user album (depth 2).
        #expect(AlbumLinker.isShoeboxLink("../../../2024/IMG 1.JPG", depth: 3))
        #expect(AlbumLinker.isShoeboxLink("../../a/...b/c.jpg", depth: 2))
        for other in ["/home/ana/x.jpg", "../../x.jpg", "../../../../x.jpg", "../../../a/../x.jpg", "../../../a//x.jpg",
                      "../../../", "../../../a/", "../../../.", "../../../a/./x", "../..", "x.jpg", ""] {
            #expect(!AlbumLinker.isShoeboxLink(other, depth: 3), "\(other)")
        }
    }

    @Test func aNameMovedAsideIsNumberedBeforeItsExtension() {
        #expect(AlbumLinker.numbered("003 IMG_0412.JPG", 2) == "003 IMG_0412 (2).JPG")
        #expect(AlbumLinker.numbered("notes", 3) == "notes (3)")
        #expect(AlbumLinker.numbered(".directory", 2) == ".directory (2)")
        #expect(AlbumLinker.numbered("a.tar.gz", 2) == "a.tar (2).gz")
    }
}
