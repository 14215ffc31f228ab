import Foundation
import Metadata
import Testing
import TestSupport
@testable import PhotoLibrary

/// A batch of whole-file writes (a scan's sidecars) is on disk as a whole when it returns,
/// replaces old versions whole, and leaves no temporary behind, also when it fails half-way.
struct DurableBatchTests {
    static func makeFolder() throws -> URL {
        let dir = Scratch.root.appendingPathComponent("shoebox-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func asset(_ name: String) -> Asset {
        Asset(id: AssetID(), path: "2026/\(name)", state: .present, size: 1234, mtimeNS: 1_795_262_400_000_000_000,
              inode: 42, sha256: String(repeating: "ab", count: 32), kind: .photo,
              metadata: MediaMetadata(format: .jpeg, pixelWidth: 4032, pixelHeight: 3024), place: nil,
              duplicateOf: nil, livePhotoOf: nil, firstSeen: Date(timeIntervalSince1970: 1_795_000_000), score: nil,
              isUtility: false, similarGroup: nil)
    }

    /// More files than the batch keeps open at once, half of them replacing an older version;
    /// with each file flushed on its own (any file system) and with ext4's one commit per batch.
    @Test(arguments: [true, false])
    func aBatchReplacesEveryFileWholeAndLeavesNoTemporary(flushingEachFile: Bool) throws {
        let dir = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = (0..<300).map { "file\($0).json" }
        for name in names.prefix(150) { try Data("old \(name)".utf8).write(to: dir.appendingPathComponent(name)) }
        let files = names.map { (data: Data("new \($0), longer than the old".utf8), name: $0) }
        try AtomicFile.withFolder(dir.path) { folder in
            try AtomicFile.writeDurably(files, inFolder: folder, shownAs: dir.path, flushingEachFile: flushingEachFile)
        }
        for name in names {
            #expect(try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8) == "new \(name), longer than the old")
        }
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) == Set(names))
    }

    /// A target that cannot be replaced (a folder is in its place): the error says which file,
    /// the files before it hold their new version, the ones after their old one, no temporary stays.
    @Test func aBatchThatFailsHalfWayLeavesEachFileOldOrNewAndNoTemporary() throws {
        let dir = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = ["a.json", "b.json", "c.json"]
        for name in names { try Data("old".utf8).write(to: dir.appendingPathComponent(name)) }
        try FileManager.default.removeItem(at: dir.appendingPathComponent("b.json"))
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("b.json/inside"), withIntermediateDirectories: true)
        #expect {
            try AtomicFile.writeDurably(names.map { (data: Data("new".utf8), url: dir.appendingPathComponent($0)) })
        } throws: { String(describing: $0).contains("b.json") }
        #expect(try String(contentsOf: dir.appendingPathComponent("a.json"), encoding: .utf8) == "new")
        #expect(try String(contentsOf: dir.appendingPathComponent("c.json"), encoding: .utf8) == "old")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) == Set(names))
    }

    /// The one-commit-per-batch way is taken only where the journal orders metadata: not on
    /// tmpfs or procfs, and on the temporary folder exactly when /proc/mounts says it is ext3/4
    /// and the kernel names a journal thread for its disk (ext4 without a journal commits nothing).
    @Test func onlyJournaledExtFileSystemsTakeTheOneCommitWay() throws {
        let mounts: [[Substring]] = try String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: " ") }.filter { $0.count > 2 }
        if mounts.contains(where: { $0[1] == "/dev/shm" && $0[2] == "tmpfs" }) {
            #expect(!AtomicFile.journalsMetadataInOrder("/dev/shm"))
        }
        #expect(!AtomicFile.journalsMetadataInOrder("/proc/self"))
        let tmp = Scratch.root.path
        var longest: [Substring]? = nil
        for m in mounts where tmp.hasPrefix(String(m[1])) && m[1].count >= (longest?[1].count ?? 0) { longest = m }
        let type = longest.map { String($0[2]) } ?? ""
        guard type == "ext4" || type == "ext3", let disk = longest.map({ (String($0[0]) as NSString).lastPathComponent }) else {
            #expect(!AtomicFile.journalsMetadataInOrder(tmp))
            return
        }
        if let task = try? String(contentsOfFile: "/sys/fs/ext4/\(disk)/journal_task", encoding: .utf8) {
            #expect(AtomicFile.journalsMetadataInOrder(tmp) == !task.hasPrefix("<none>"))
        }
    }

    /// What a scan commits reads back as the same assets, and a second batch replaces the first.
    @Test func sidecarsWrittenAsABatchReadBack() throws {
        let dir = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = try Library.initialize(at: dir)
        let store = SidecarStore(library: library)
        var assets = (0..<20).map { Self.asset("IMG_\($0).JPG") }
        try store.writeBatch(assets)
        for a in assets { #expect(try store.read(a.id).asset == a) }
        assets[3].state = .missing
        assets[7].path = "2026/moved/IMG_7.JPG"
        try store.writeBatch([assets[3], assets[7]])
        #expect(try store.read(assets[3].id).asset.state == .missing)
        #expect(try store.read(assets[7].id).asset.path == "2026/moved/IMG_7.JPG")
        let names = try FileManager.default.contentsOfDirectory(atPath: library.sidecarFolder.path)
        #expect(names.count == 20 && names.allSatisfy { !$0.hasPrefix(".") })
    }
}
