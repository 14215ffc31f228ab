import Foundation
import Testing
import TestSupport

/// Issue 32: a real TIFF is indexed and analysed; files Shoebox leaves alone are counted by kind in
/// `scan`'s summary and named by `doctor`, never passed over as "0 failed".
@Suite struct TIFFAndSkippedTests {
    static func photo(_ name: String) -> String { TestRoll.repositoryRoot.appendingPathComponent("test-data/photos/\(name)").path }

    @Test func aRealTIFFIsIndexedAndAnalysedUpright() throws {
        let f = try CameraFiles()
        try FileManager.default.copyItem(atPath: Self.photo("coffee.tif"), toPath: f.url("Scans/coffee.tif").path(creating: true))
        let scan = try f.scan()
        #expect(scan.stdout.contains("1 added"), "\(scan.stdout)")
        let a = try #require(try f.cli.assetsByPath()["Scans/coffee.tif"])
        #expect(a["format"] as? String == "tiff" && a["kind"] as? String == "photo")
        #expect(a["width"] as? Int == 400 && a["height"] as? Int == 600)
        #expect((a["taken_at"] as? String) == "2019-07-14T10:20:30+02:00")
        let analyze = try f.cli.run(["analyze"])
        #expect(analyze.status == 0, "\(analyze.stderr)")
        let analysed = try #require(try f.cli.assetsByPath()["Scans/coffee.tif"])
        #expect(analysed["analyzed"] as? Bool == true && analysed["damaged"] as? Bool == false)
        #expect(analysed["phash"] is String)
    }

    @Test func filesLeftAloneAreCountedByKindAndNamedByDoctor() throws {
        let f = try CameraFiles()
        try f.jpeg("a.jpg")
        for (name, format) in [("b.gif", "gif"), ("c.gif", "gif"), ("d.webp", "webp"), ("e.bmp", "bmp")] {
            try TestRoll.run("/usr/bin/convert", [Self.photo("kite.jpg"), "-resize", "64x", "\(format):" + f.url(name).path])
        }
        try Data("notes\n".utf8).write(to: f.url("notes.txt"))
        let scan = try f.scan()
        #expect(scan.stdout.contains("0 failed; 5 skipped: 2 GIF, 1 .txt, 1 BMP, 1 WebP (--verbose lists them)")
                || scan.stdout.contains("0 failed; 5 skipped: 2 GIF, 1 .txt, 1 BMP, 1 WebP"), "\(scan.stdout)")
        let json = try #require(try f.cli.json(["scan"]) as? [String: Any])
        let notIndexed = try #require(json["not_indexed"] as? [[String: Any]])
        #expect(Set(notIndexed.compactMap { $0["path"] as? String }) == ["b.gif", "c.gif", "d.webp", "e.bmp", "notes.txt"])
        #expect(notIndexed.first { $0["path"] as? String == "d.webp" }?["kind"] as? String == "WebP")
        let doctor = try f.cli.run(["doctor"])
        let line = try #require(doctor.stdout.split(separator: "\n").first { $0.contains("not indexed") }, "\(doctor.stdout)")
        #expect(line.hasPrefix("warning") && line.contains("4 files") && line.contains("2 GIF") && line.contains("b.gif"), "\(line)")
        #expect(doctor.status == 0)
    }
}

private extension URL {
    /// The path, its folder made first.
    func path(creating: Bool) throws -> String {
        try FileManager.default.createDirectory(at: deletingLastPathComponent(), withIntermediateDirectories: true)
        return path
    }
}
