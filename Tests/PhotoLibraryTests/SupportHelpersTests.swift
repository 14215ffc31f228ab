import Foundation
import Testing
import TestSupport
@testable import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// A fresh folder under the temporary directory, removed by `remove()`.
struct ScratchFolder {
    let path: String
    init() throws {
        path = Scratch.root.appendingPathComponent("shoebox-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// Creates an empty file whose name is the given bytes (which need not be UTF-8).
    func createFile(named bytes: [UInt8]) throws {
        let full = Array((path + "/").utf8) + bytes + [0]
        let fd = full.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buf.count) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        }
        guard fd >= 0 else { throw ShoeboxError(.io, "cannot create a test file: \(String(cString: strerror(errno)))") }
        close(fd)
    }
}

/// The low-level helpers in Support/: listing a folder, lstat, hex digits.
struct DirectoryTests {
    static let latin1Name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)  // "café.jpg" in Latin-1
    static let oddNames = ["caf\u{E9}.jpg", "cafe\u{301}.jpg", "line\nbreak.jpg", " leading space", ".hidden",
                           "emoji \u{1F4F7}.heic", "tab\there", "\u{1B}[31mred"]

    /// Odd names, a name that is not UTF-8, a dangling link and a subfolder.
    static func populate(_ dir: ScratchFolder) throws {
        for name in oddNames { try Data().write(to: URL(fileURLWithPath: dir.path + "/" + name)) }
        try dir.createFile(named: latin1Name)
        #expect(symlink("../nowhere/IMG_0001.JPG", dir.path + "/001 IMG_0001.JPG") == 0)
        try FileManager.default.createDirectory(atPath: dir.path + "/sub", withIntermediateDirectories: false)
    }

    @Test func namesAreSortedWithoutDotsOrNamesThatAreNotUTF8() throws {
        let dir = try ScratchFolder()
        defer { dir.remove() }
        try Self.populate(dir)
        let names = directoryNames(dir.path)
        // NFC and NFD "café" are two names on Linux, and both are listed; the Latin-1 one is not.
        #expect(names == (Self.oddNames + ["001 IMG_0001.JPG", "sub"]).sorted())
        #expect(!names.contains(".") && !names.contains(".."))
    }

    /// A folder open as a descriptor lists the same entries each time, and stays open.
    @Test func anOpenFolderListsAllItsEntriesEveryTime() throws {
        let dir = try ScratchFolder()
        defer { dir.remove() }
        try Self.populate(dir)
        let fd = open(dir.path, O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        var lists: [[[UInt8]]] = []
        for _ in 0..<2 {
            var names: [[UInt8]] = []
            #expect(forEachDirectoryEntry(fd: fd) { entry, _ in names.append(entry.nameBytes) })
            lists.append(names.sorted { $0.lexicographicallyPrecedes($1) })
        }
        #expect(lists[0].count == Self.oddNames.count + 3 && lists[0] == lists[1])
        #expect(fcntl(fd, F_GETFD) >= 0)
    }

    @Test func aFolderThatCannotBeOpenedHasNoNames() throws {
        let dir = try ScratchFolder()
        defer { dir.remove() }
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir.path + "/file"))
        #expect(directoryNames(dir.path + "/absent") == [])
        #expect(directoryNames(dir.path + "/file") == [])
        var called = false
        #expect(forEachDirectoryEntry(dir.path + "/absent") { _, _ in called = true } == false)
        #expect(!called)
    }

    @Test func entriesKeepTheBytesOfANameThatIsNotUTF8() throws {
        let dir = try ScratchFolder()
        defer { dir.remove() }
        try Self.populate(dir)
        var entries: [DirectoryEntry] = []
        #expect(forEachDirectoryEntry(dir.path) { entry, _ in entries.append(entry) })
        #expect(entries.count == Self.oddNames.count + 3)
        let latin1 = entries.filter { $0.name == nil }
        #expect(latin1.map(\.nameBytes) == [Self.latin1Name])
    }

    @Test func theFolderDescriptorReadsLinksRelativeToIt() throws {
        let dir = try ScratchFolder()
        defer { dir.remove() }
        try Self.populate(dir)
        var targets: [String: String] = [:]
        forEachDirectoryEntry(dir.path) { entry, fd in
            if let name = entry.name, let target = AlbumLinker.readLink(fd, name) { targets[name] = target }
        }
        #expect(targets == ["001 IMG_0001.JPG": "../nowhere/IMG_0001.JPG"])
    }
}

struct FileStatLstatTests {
    @Test func aLinkIsTheLinkNotWhatItLeadsTo() throws {
        let dir = try ScratchFolder()
        defer { dir.remove() }
        let file = dir.path + "/photo.jpg"
        try Data(repeating: 7, count: 1234).write(to: URL(fileURLWithPath: file))
        #expect(symlink("photo.jpg", dir.path + "/link") == 0)

        let regular = try #require(FileStat.lstat(file))
        #expect(regular.isRegular && !regular.isDirectory && !regular.isSymbolicLink)
        #expect(regular.size == 1234)
        var st = stat()
        #expect(stat(file, &st) == 0)
        #expect(regular.inode == UInt64(st.st_ino))
        #expect(regular.mtimeNS == st.st_mtim.nanoseconds)

        let link = try #require(FileStat.lstat(dir.path + "/link"))
        #expect(link.isSymbolicLink && !link.isRegular)
        #expect(link.inode != regular.inode)
        #expect(link.typeName == "symbolic link")

        let folder = try #require(FileStat.lstat(dir.path))
        #expect(folder.isDirectory && !folder.isRegular)
    }

    @Test func nothingThereIsNilWithErrnoSaying() throws {
        let dir = try ScratchFolder()
        defer { dir.remove() }
        #expect(FileStat.lstat(dir.path + "/absent") == nil)
        #expect(errno == ENOENT)
    }

    @Test func nanosecondsOfATimespec() {
        #expect(timespec(tv_sec: 1_700_000_000, tv_nsec: 123_456_789).nanoseconds == 1_700_000_000_123_456_789)
        #expect(timespec(tv_sec: 0, tv_nsec: 0).nanoseconds == 0)
    }
}

struct HexTests {
    @Test func knownBytes() {
        #expect(Hex.string([0x00, 0x01, 0x0F, 0x10, 0x7F, 0x80, 0xAB, 0xFF]) == "00010f107f80abff")
        #expect(Hex.string([0x00, 0x01, 0x0F, 0x10, 0x7F, 0x80, 0xAB, 0xFF], uppercase: true) == "00010F107F80ABFF")
        #expect(Hex.string([UInt8]()) == "")
    }

    @Test func everyByteReadsBackInEitherCase() {
        for byte in UInt8.min...UInt8.max {
            for text in [Hex.string([byte]), Hex.string([byte], uppercase: true)] {
                let digits = Array(text.utf8)
                #expect(digits.count == 2)
                let value = Hex.value(ofDigit: digits[0]).flatMap { h in Hex.value(ofDigit: digits[1]).map { h << 4 | $0 } }
                #expect(value == byte, "\(text)")
            }
        }
    }

    @Test(arguments: ["g", "G", "/", ":", "@", "`", " ", "%", "x"])
    func anythingElseIsNotADigit(_ c: String) {
        #expect(Hex.value(ofDigit: Array(c.utf8)[0]) == nil)
    }

    @Test func anAlbumDigestIsLowerCaseSHA256OfItsLinks() {
        let id = AssetID()
        let album = AlbumFolder(path: "Years/2024", kind: .year, title: "2024",
                                entries: [.init(position: 1, linkName: "001 a.jpg", target: "../../a.jpg", id: id, assetPath: "a.jpg")],
                                albumID: nil)
        // sha256 of "001 a.jpg\0../../a.jpg\0", as `printf '001 a.jpg\0../../a.jpg\0' | sha256sum` gives it.
        #expect(AlbumLinker.digest(album) == Self.sha256sum("001 a.jpg\0../../a.jpg\0"))
    }

    /// `sha256sum`'s answer for `text`: an outside computation, not this code's.
    static func sha256sum(_ text: String) -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try? p.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try? input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }
}

/// The generated albums' plan, from rows as the index gives them (capture order).
struct GeneratedAlbumPlanTests {
    @Test func albumsComeInTheOrderOfTheirFirstMemberEachMemberOnce() {
        func row(_ year: Int?, _ city: String?, _ persons: [String], _ kind: AssetKind = .photo) -> AlbumLinker.Row {
            AlbumLinker.Row(id: AssetID(), path: "p", year: year, kind: kind,
                            place: city.map { Place(city: $0, country: "Portugal") }, persons: persons)
        }
        let rows = [
            row(2023, "Lisbon", ["Ana", "Ana"]),
            row(2024, nil, ["Ana", "Zo\u{EB}/Bo"], .screenshot),
            row(2023, "Lisbon", [], .video),
            row(nil, "Porto", []),
        ]
        let groups = AlbumLinker.groupGenerated(rows)
        #expect(groups.map(\.path) == ["Years/2023", "Places/Lisbon, Portugal", "People/Ana", "Years/2024",
                                       "People/Zo\u{EB}-Bo", "Screenshots", "Videos", "Places/Porto, Portugal"])
        #expect(groups.map(\.rows) == [[0, 2], [0, 2], [0, 1], [1], [1], [1], [2], [3]] as [[Int32]])
        #expect(groups.map(\.title) == ["2023", "Lisbon, Portugal", "Ana", "2024", "Zo\u{EB}/Bo", "Screenshots", "Videos", "Porto, Portugal"])
        #expect(groups.map(\.kind) == [.year, .place, .person, .year, .person, .screenshots, .videos, .place])
    }
}
