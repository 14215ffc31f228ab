import Foundation
import Testing
import TestSupport

/// Issue 14's dates as a user meets them in `list --json`: a photo dated only by its
/// modification time, in Tokyo; an edited photo; a camera clock set to the future.
@Suite(.serialized, .enabled(if: ExiftoolFiles.available))
struct CaptureDateEndToEndTests {
    @Test func dateSourcesInOrderWithTheirOffsetsInTokyo() throws {
        let root = try ExiftoolFiles.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        // New Year's Eve at 20:00 UTC is already New Year's Day in Tokyo.
        let plain = try ExiftoolFiles.jpeg(root.appendingPathComponent("plain.jpg"), tags: [])
        try TestRoll.run("/usr/bin/touch", ["-d", "2020-12-31T20:00:00Z", plain.path])
        try ExiftoolFiles.jpeg(root.appendingPathComponent("edited.jpg"), tags: [
            "-XMP-xmp:CreateDate=2018:03:02 10:11:12+01:00", "-IFD0:ModifyDate=2024:01:01 00:00:00"])
        try ExiftoolFiles.jpeg(root.appendingPathComponent("modified-only.jpg"), tags: ["-IFD0:ModifyDate=2022:02:02 02:02:02"])
        try ExiftoolFiles.jpeg(root.appendingPathComponent("future.jpg"), tags: [
            "-DateTimeOriginal=2099:01:01 00:00:00", "-IPTC:DateCreated=2017:05:05", "-IPTC:TimeCreated=05:05:05+00:00"])
        var cli = ShoeboxCLI(library: root)
        cli.environment = ["TZ": "Asia/Tokyo", "SHOEBOX_NOW": "2026-06-01T00:00:00Z"]
        for step in [["init"], ["scan"]] { #expect(try cli.run(step).status == 0) }
        let assets = try cli.assetsByPath()
        func date(_ path: String) -> [String?] {
            [assets[path]?["taken_at"] as? String, assets[path]?["taken_at_source"] as? String]
        }
        #expect(date("plain.jpg") == ["2021-01-01T05:00:00+09:00", "mtime"])
        #expect(assets["plain.jpg"]?["year"] as? Int == 2021)
        #expect(date("edited.jpg") == ["2018-03-02T10:11:12+01:00", "xmp"])
        #expect(date("modified-only.jpg") == ["2022-02-02T02:02:02", "exif_modified"])
        #expect(date("future.jpg") == ["2017-05-05T05:05:05+00:00", "iptc"])
    }
}
