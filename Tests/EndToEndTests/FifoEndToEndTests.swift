import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 28: a fifo at a file Shoebox owns hung every command that read it, for ever — `open`
/// waited for a writer that never came (`scan` waited holding the writer lock). Now each
/// command finishes at once: one that needs the file fails in one line naming it (`doctor` in a
/// finding), one that can do without it goes on.
@Suite(.serialized)
struct FifoEndToEndTests {
    /// Far more than any of these commands takes on the sample library; a hang is killed then.
    static let patience = 20.0

    static func scanned() throws -> ShoeboxCLI { try ShoeboxCLI.scanned(try TestRoll.sampleCopy()) }

    /// Puts a fifo at `relative`, runs each of `commands` (its own patience each), takes the
    /// fifo away. Each must finish; one that fails names the file — in one line on stderr, or
    /// `doctor` in a finding (a command that can do without the file goes on).
    static func expectNoHang(_ cli: ShoeboxCLI, fifoAt relative: String, _ commands: [[String]],
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = cli.library.appendingPathComponent(relative)
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try #require(mkfifo(url.path, 0o644) == 0, "mkfifo \(url.path)", sourceLocation: sourceLocation)
        defer { try? FileManager.default.removeItem(at: url) }
        for args in commands {
            let r = try cli.run(args, timeout: patience)
            let shown = "shoebox \(args.joined(separator: " ")) with a fifo at \(relative)"
            #expect(!r.timedOut, "\(shown) hung", sourceLocation: sourceLocation)
            guard r.status != 0, !r.timedOut else { continue }
            let said = args == ["doctor"] ? r.stdout : r.stderr
            #expect(said.contains(url.lastPathComponent) && (args == ["doctor"] || r.stderrLines.count == 1),
                    "\(shown) failed without naming it in one line: \(r.status)\n\(r.stdout)\n\(r.stderr)", sourceLocation: sourceLocation)
        }
    }

    @Test func aFifoAtAnAlbumsFile() throws {
        let cli = try Self.scanned()
        defer { try? FileManager.default.removeItem(at: cli.library.deletingLastPathComponent()) }
        let id = try #require(try cli.assetsByPath().values.first?["id"] as? String)
        #expect(try cli.run(["album", "create", "Trip", id]).status == 0)
        let albums = cli.library.appendingPathComponent(".shoebox/albums")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: albums.path).first { $0.hasSuffix(".json") })
        try Self.expectNoHang(cli, fifoAt: ".shoebox/albums/" + name, [["scan"], ["album", "list"], ["doctor"]])
    }

    @Test func aFifoAtASidecar() throws {
        let cli = try Self.scanned()
        defer { try? FileManager.default.removeItem(at: cli.library.deletingLastPathComponent()) }
        let id = try #require(try cli.assetsByPath().values.first?["id"] as? String)
        try Self.expectNoHang(cli, fifoAt: ".shoebox/sidecars/\(id).json", [["doctor"], ["rebuild"]])
    }

    @Test func aFifoAtATrashinfo() throws {
        let cli = try Self.scanned()
        defer { try? FileManager.default.removeItem(at: cli.library.deletingLastPathComponent()) }
        let path = try #require(try cli.assetsByPath().first { $0.value["live_video"] is NSNull }?.key)
        #expect(try cli.run(["trash", path]).status == 0)
        let name = (path as NSString).lastPathComponent
        try Self.expectNoHang(cli, fifoAt: "Recently Deleted/info/\(name).trashinfo",
                              [["trash", "list"], ["trash", "purge"], ["doctor"], ["restore", name]])
    }

    @Test func aFifoAtAFeaturesFile() throws {
        let cli = try Self.scanned()
        defer { try? FileManager.default.removeItem(at: cli.library.deletingLastPathComponent()) }
        try Self.expectNoHang(cli, fifoAt: ".shoebox/curation.json", [["curate", "list"]])
        try Self.expectNoHang(cli, fifoAt: ".shoebox/composer.json", [["compose", "list"]])
        try Self.expectNoHang(cli, fifoAt: ".shoebox/tidy.json", [["tidy", "status"]])
        try Self.expectNoHang(cli, fifoAt: "Tracker/tracker.json", [["tracker", "project", "list"]])
        try Self.expectNoHang(cli, fifoAt: ".shoebox/config.toml", [["scan"], ["trash", "list"], ["doctor"]])
    }
}
