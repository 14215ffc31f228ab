import Foundation
import GRDB
import Testing
import TestSupport
@testable import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// The scan merges its walk with the index's present records like two sorted lists: that only
/// holds if the walk visits files in exactly the order SQLite's `ORDER BY path` gives.
@Suite(.serialized)
struct WalkMergeTests {
    /// Names whose byte order is easy to get wrong: ' ' < '-' < '.' < '/' < '0' < 'A' < 'a' < 0xC3,
    /// a folder and a file sharing a prefix, a folder named like a file, non-ASCII (precomposed
    /// and decomposed), and names Swift's `String <` orders otherwise than bytes do.
    static let paths = [
        "a b.jpg", "a-b.jpg", "a.jpg", "a/x.jpg", "a/ x.jpg", "a0.jpg", "a b/c.jpg", "ab/c.jpg", "ab.jpg",
        "B.jpg", "b.jpg", "folder.jpg", "folder/inner.jpg", "folder.d/inner.jpg", "folder-1/inner.jpg",
        "z 1/2.jpg", "z-1.jpg", "z.y/1.jpg", "z/1.jpg", "z/1/deeper.jpg", "x.jpg.jpg",
        "\u{E9}t\u{E9}.jpg", "e\u{301}x.jpg", "\u{65E5}\u{672C}/\u{5199}\u{771F}.jpg", "\u{1F600}.jpg", "~.jpg",
    ]

    static func byteOrder(_ paths: [String]) -> [String] {
        paths.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// A library holding a distinct small JPEG at each of `paths` (bytes written as given: no
    /// normalisation on the way).
    static func library(_ paths: [String]) throws -> (Library, Index) {
        let sample = try TestRoll.sampleLibrary().root.appendingPathComponent("2025/2025-05 Reykjavik/IMG_0464.JPG")
        let photo = try Data(contentsOf: sample)
        let root = Scratch.root.appendingPathComponent("shoebox-test-\(UUID().uuidString)/library")
        for (i, path) in paths.enumerated() {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            #expect(fd >= 0, "\(path)")
            let bytes = photo + Data("distinct-\(i)".utf8)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        let library = try Library.initialize(at: root)
        return (library, try Index(library: library))
    }

    static func walkOrder(_ library: Library) throws -> [String] {
        var visited: [String] = []
        _ = try LibraryWalker(library: library).walk { visited.append($0.path) }
        return visited
    }

    static func indexOrder(_ index: Index) throws -> [String] {
        try index.withPresentFileRecordsByPath { next in
            var out: [String] = []
            while let r = try next() { out.append(r.path) }
            return out
        }
    }

    @Test func theWalkVisitsFilesInTheIndexsPathOrder() throws {
        let (library, index) = try Self.library(Self.paths)
        let first = try Scanner(library: library, index: index).scan()
        #expect(first.added == Self.paths.count, "\(first.failed)")
        let walked = try Self.walkOrder(library)
        #expect(walked == Self.byteOrder(Self.paths))
        #expect(walked == (try Self.indexOrder(index)))
        // The case this guards against: Swift's own order is not the index's.
        #expect(Self.paths.sorted() != Self.byteOrder(Self.paths))
        for (a, b) in zip(walked, walked.dropFirst()) { #expect(WalkOrder.compare(a, b) < 0, "\(a) before \(b)") }

        // So the merge pairs every file with its record: nothing opened, nothing vanished.
        let again = try Scanner(library: library, index: index).scan()
        #expect(again.unchanged == Self.paths.count && again.bytesRead == 0)
        #expect(again.added == 0 && again.moved == 0 && again.removed == 0)
    }

    @Test func theMergeKeepsOnlyWhatDiffers() throws {
        let (library, index) = try Self.library(Self.paths)
        _ = try Scanner(library: library, index: index).scan()
        let fm = FileManager.default
        try fm.moveItem(at: library.url(for: "a/x.jpg"), to: library.url(for: "a b/moved.jpg"))
        try fm.removeItem(at: library.url(for: "folder/inner.jpg"))
        try fm.copyItem(at: library.url(for: "ab.jpg"), to: library.url(for: "a.jpg.new.jpg"))
        try fm.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: library.url(for: "z-1.jpg").path)

        let merged = try WalkMerge(library: library, index: index).run()
        #expect(merged.changed.map(\.path) == ["a b/moved.jpg", "a.jpg.new.jpg", "z-1.jpg"])
        #expect(merged.vanished.keys.sorted() == ["a/x.jpg", "folder/inner.jpg"])
        #expect(merged.unchanged == Self.paths.count - 3)
        #expect(merged.walk.fileCount == Self.paths.count)

        let report = try Scanner(library: library, index: index).scan()
        #expect(report.moved == 1 && report.removed == 1 && report.added == 1)
        #expect(try index.asset(path: "a b/moved.jpg")?.state == .present)
        #expect(try index.asset(path: "folder/inner.jpg")?.state == .missing)
    }

    @Test func thePresentRecordsComeFromThePartialIndexWithoutASort() throws {
        let (_, index) = try Self.library(["a.jpg"])
        let plan = try index.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + Index.presentFileRecordsByPath).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("asset_present_path") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }
}
