import Foundation
import Testing
import TestSupport

/// The commands that only read open the index for reading: they leave it byte for byte as they
/// found it (no WAL frame appended, no checkpoint, no -wal or -shm left behind), and a change
/// made afterwards is still seen by them.
@Suite struct ReadCommandsWriteNothingTests {
    static let readers: [[String]] = [
        ["list"], ["list", "--limit", "5", "--json"], ["album", "list"], ["album", "list", "--json"], ["trash", "list"],
        ["curate", "list"], ["tracker", "project", "list"], ["tidy", "next"], ["tidy", "status", "--json"], ["tidy", "list"],
        ["tidy", "similar"], ["tidy", "trash"],
    ]

    /// The index's bytes, modification time and the -wal and -shm files beside it.
    static func indexState(_ library: URL) throws -> (Data, Date, [String]) {
        let index = library.appendingPathComponent(".shoebox/index.sqlite")
        let mtime = try FileManager.default.attributesOfItem(atPath: index.path)[.modificationDate] as? Date
        return (try Data(contentsOf: index), try #require(mtime),
                ["-wal", "-shm"].filter { FileManager.default.fileExists(atPath: index.path + $0) })
    }

    @Test func theReadCommandsLeaveTheIndexAsTheyFoundIt() throws {
        let cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        #expect(try cli.run(["tidy", "filter", "all"]).status == 0)  // a session to read
        let someone = try #require((try cli.json(["list", "--limit", "1"]) as? [[String: Any]])?.first?["id"] as? String)
        let before = try Self.indexState(cli.library)
        #expect(before.2.isEmpty, "after a writing command: \(before.2)")
        Thread.sleep(forTimeInterval: 0.02)  // a write now would show in the modification time
        for command in Self.readers + [["show", someone], ["show", someone, "--json"]] {
            let r = try cli.run(command)
            #expect(r.status == 0, "\(command): \(r.stderr)")
            let after = try Self.indexState(cli.library)
            #expect(after.0 == before.0, "\(command) changed the index's bytes")
            #expect(after.1 == before.1, "\(command) wrote the index")
            #expect(after.2.isEmpty, "\(command) left \(after.2)")
        }
        // What a writing command changes next, they read.
        #expect(try cli.run(["trash", someone]).status == 0)
        let trashed = try cli.json(["trash", "list"]) as? [[String: Any]] ?? []
        #expect(trashed.contains { $0["id"] as? String == someone }, "\(trashed)")
        #expect(try cli.json(["show", someone]) is [String: Any])
    }
}
