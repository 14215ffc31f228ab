import Foundation
import Testing
import TestSupport
@testable import WebServer

/// The zip a "Share" of several photos downloads: every entry stored, byte for byte the
/// original, readable by another implementation (Python's zipfile, which checks each CRC).
@Suite struct StoredZipTests {
    @Test func entriesComeOutByteForByteUnderUniqueNames() throws {
        let made = try TestRoll.sampleCopy()
        let files = try FileManager.default.subpathsOfDirectory(atPath: made.root.path)
            .filter { $0.lowercased().hasSuffix(".jpg") && !$0.hasPrefix(".") }.sorted().prefix(3)
        #expect(files.count == 3)
        var zip = StoredZip()
        var archive: [UInt8] = []
        var originals: [[UInt8]] = []
        for path in files {
            let bytes = [UInt8](try Data(contentsOf: made.root.appendingPathComponent(path)))
            originals.append(bytes)
            archive += zip.add(name: "photo.jpg", bytes: bytes, modified: Date(timeIntervalSince1970: 1_700_000_000))
        }
        archive += zip.finish()
        let folder = Scratch.root.appendingPathComponent("zip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let zipFile = folder.appendingPathComponent("share.zip")
        try Data(archive).write(to: zipFile)
        let script = """
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            for i in z.infolist():
                assert i.compress_type == zipfile.ZIP_STORED, i
                open(sys.argv[2] + "/" + i.filename, "wb").write(z.read(i))
                print(i.filename, i.date_time[0])
            """
        let run = try TestRoll.run("/usr/bin/python3", ["-c", script, zipFile.path, folder.path])
        #expect(run.stdout.split(separator: "\n") == ["photo.jpg 2023", "photo (2).jpg 2023", "photo (3).jpg 2023"])
        for (n, name) in ["photo.jpg", "photo (2).jpg", "photo (3).jpg"].enumerated() {
            #expect([UInt8](try Data(contentsOf: folder.appendingPathComponent(name))) == originals[n], "\(name)")
        }
    }

    @Test func anEmptyArchiveIsStillAZip() throws {
        var zip = StoredZip()
        let bytes = zip.finish()
        #expect(bytes.count == 22 && Array(bytes.prefix(4)) == [0x50, 0x4b, 0x05, 0x06])
    }
}
