import Foundation
import Testing
import TestSupport
@testable import PhotoLibrary

/// An upload killed mid-way (`kill -9` of `serve`) leaves its hidden temporary in Imports/DAY/:
/// no scan ever indexes it, so the next upload into that folder must remove it, or the bytes of
/// every killed upload (up to 2 GiB each) would stay on disk for good.
struct IncomingFileTests {
    @Test func aKilledUploadsTemporaryGoesWhenTheNextUploadStarts() throws {
        let root = Scratch.root.appendingPathComponent("shoebox-incoming-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let library = try Library.initialize(at: root)
        let folder = root.appendingPathComponent("Imports/2026-11-27")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let dead = try AtomicFileTests.deadPID()
        let killed = ".IMG_0001.jpg.\(dead).2718281828.tmp"
        let live = ".IMG_0002.jpg.\(getpid()).1.tmp"   // another upload of this server, still writing
        for name in [killed, live, "IMG_0003.jpg"] { try Data(repeating: 0xFF, count: 4096).write(to: folder.appendingPathComponent(name)) }

        let file = try IncomingFile(library: library, folder: "Imports/2026-11-27", name: "IMG_0004.jpg")
        try file.append(Data([0xFF, 0xD8, 0xFF, 0xD9]))
        #expect(try file.finish() == "Imports/2026-11-27/IMG_0004.jpg")

        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(left == [live, "IMG_0003.jpg", "IMG_0004.jpg"])
    }
}
