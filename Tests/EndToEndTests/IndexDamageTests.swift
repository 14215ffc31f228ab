import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 13: a damaged index (a bad sector, a copy cut short) or its `-wal` deleted under a
/// running `watch`. Every command said "SQLite error 11" or "disk I/O error" with no way out;
/// each now says one line naming the file and `rebuild`, and following it gives back the same
/// library with the same ids.
@Suite(.serialized)
struct IndexDamageTests {
    static let advice = "the index is damaged"
    /// The command line's words for the remedy, at the end of the line.
    static let hint = "; run `shoebox rebuild` (ids are kept)"

    /// The sample library scanned, one photo trashed (its id must survive the rebuild too).
    static func scannedWithATrashedPhoto() throws -> (ShoeboxCLI, DoctorHint, [String: String]) {
        let cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        let hint = DoctorHint(cli: cli)
        let photo = try #require(try cli.assetsByPath().keys.sorted().first)
        #expect(try cli.run(["trash", photo]).status == 0)
        return (cli, hint, try hint.ids())
    }

    /// Garbage over every page but the first (a disk that lost them), or over the header.
    static func damage(_ index: URL, header: Bool) throws {
        let handle = try FileHandle(forUpdating: index)
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: header ? 0 : 4096)
        try handle.write(contentsOf: Data((0..<Int(header ? 100 : size - 4096)).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ 13) }))
    }

    @Test(arguments: [false, true])
    func aDamagedIndexNamesItselfAndRebuildGivesTheSameIds(header: Bool) throws {
        let (cli, hint, before) = try Self.scannedWithATrashedPhoto()
        defer { try? FileManager.default.removeItem(at: cli.library.deletingLastPathComponent()) }
        let index = cli.library.appendingPathComponent(".shoebox/index.sqlite")
        try Self.damage(index, header: header)

        let some = try #require(before.keys.sorted().last)
        for command in [["list"], ["show", some], ["scan"], ["trash", "list"], ["album", "list"], ["trash", some]] {
            let r = try cli.run(command)
            #expect(r.status == 1, "\(command): \(r.stdout)")
            #expect(r.stderrLines.count == 1, "\(command): \(r.stderr)")
            #expect(r.stderr.hasPrefix("shoebox: error: \(index.path): \(Self.advice) (SQLite: "), "\(command): \(r.stderr)")
            #expect(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix(Self.hint), "\(command): \(r.stderr)")
        }

        // doctor says the same as a finding, and its fix is the rebuild.
        let sick = try hint.doctor()
        #expect(sick.status == 1)
        #expect(sick.status("index") == "problem" && sick.detail("index").contains(Self.advice), "\(sick.all)")
        #expect(sick.fix("index")?.hasSuffix(" rebuild") == true)
        try hint.follow(sick.fix("index"))

        let healed = try hint.doctor()
        #expect(healed.findings.isEmpty, "\(healed.findings)")
        #expect(try hint.ids() == before)
    }

    /// A page damaged where no command happens to look is still found by `doctor`.
    @Test func doctorFindsDamageNoCommandReads() throws {
        let (cli, hint, before) = try Self.scannedWithATrashedPhoto()
        defer { try? FileManager.default.removeItem(at: cli.library.deletingLastPathComponent()) }
        let index = cli.library.appendingPathComponent(".shoebox/index.sqlite")
        // The last leaf page of an index b-tree (type byte 0x0A) made of an unknown type: a
        // listing by date does not read it.
        var bytes = try Data(contentsOf: index)
        let leaf = try #require(Array(stride(from: 4096, to: bytes.count, by: 4096)).last { bytes[$0] == 0x0A })
        bytes[leaf] = 0x07
        try bytes.write(to: index)
        #expect(try cli.run(["list"]).status == 0)

        let sick = try hint.doctor()
        #expect(sick.status("index") == "problem" && sick.detail("index").contains(Self.advice), "\(sick.all)")
        try hint.follow(sick.fix("index"))
        #expect(try hint.doctor().findings.isEmpty)
        #expect(try hint.ids() == before)
    }

    /// `rm .shoebox/index.sqlite-wal` while `watch` runs: the watch went on writing into the
    /// deleted file and every other command said "disk I/O error".
    @Test func aWALDeletedUnderWatchStopsItAndTheHintWorks() throws {
        let (cli, hint, before) = try Self.scannedWithATrashedPhoto()
        defer { try? FileManager.default.removeItem(at: cli.library.deletingLastPathComponent()) }
        let watch = try WatchProcess(cli)
        defer { watch.stop() }
        try watch.waitFor("reconciled by a scan (start-up)")
        let wal = cli.library.appendingPathComponent(".shoebox/index.sqlite-wal")
        #expect(unlink(wal.path) == 0)

        for command in [["list"], ["doctor"]] {
            let r = try cli.run(command)
            #expect(r.status == 1)
            let said = command == ["doctor"] ? r.stdout : r.stderr
            #expect(said.contains("\(wal.path) was deleted while a Shoebox process had the index open"), "\(command): \(said)")
            #expect(said.contains("pid \(watch.pid): watch") && said.contains("then run `shoebox rebuild` (ids are kept)"), "\(said)")
        }

        // The watch notices at its next change and stops, saying why, rather than write on unseen.
        let sample = try TestRoll.sampleLibrary()
        let jpeg = try #require(sample.entries.first { $0.format == "jpeg" && $0.kind == "photo" })
        try FileManager.default.copyItem(at: sample.root.appendingPathComponent(jpeg.path),
                                         to: cli.library.appendingPathComponent("arrived while broken.jpg"))
        let deadline = Date().addingTimeInterval(30)
        while watch.isRunning && Date() < deadline { usleep(100_000) }
        #expect(!watch.isRunning, "watch went on: \(watch.text)")
        #expect(watch.stop() == 1)
        #expect(watch.text.contains("shoebox: error: \(wal.path) was deleted while this process had the index open; stopping"), "\(watch.text)")

        // The hint, followed: the watch is stopped; rebuild.
        let rebuilt = try cli.run(["rebuild"])
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(try hint.doctor().findings.isEmpty)
        var after = try hint.ids()
        #expect(after.removeValue(forKey: "arrived while broken.jpg") != nil)
        #expect(after == before)
    }
}
