import Foundation
import TestSupport
import XCTest

/// The hole "a killed `tidy empty` is finished wrongly", through the built binary: `tidy empty`
/// killed (SIGKILL on entry to a system call, by strace, as bench/faults.py does) when it moves
/// its second file into Recently Deleted — the first file moved, the index not told yet — then
/// the commands a user runs next. The files moved must count as moved, their marks must not
/// outlive the move (a photo restored afterwards is not moved out again), and the album links
/// must follow at the next write.
final class TidyKilledEmptyTests: XCTestCase {
    struct Killed {
        let t: Tidying
        let ids: [String: String]
        let sizes: [String: Int64]
        /// Marked for deletion before the kill; those whose files the kill left moved.
        let marked: [String]
        let moved: [String]
        var notMoved: [String] { marked.filter { !moved.contains($0) } }
    }

    /// strace, when it may kill a process on a system call here (containers often forbid ptrace).
    static let strace: String? = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"),
              let r = try? TestRoll.run("/usr/bin/strace", ["-f", "-qq", "-o", "/dev/null", "-e", "trace=write",
                                                           "-e", "inject=write:signal=SIGKILL:when=1", "/bin/echo", "x"],
                                        allowFailure: true),
              r.status != 0, r.stdout.isEmpty else { return nil }
        return "/usr/bin/strace"
    }()

    /// Three photos marked, then `tidy empty` killed on its n-th `renameat2` (the moves into
    /// `Recently Deleted/files/`), n the first that leaves some moved and some not.
    func killedEmpty() throws -> Killed {
        guard let strace = Self.strace else { throw XCTSkip("strace cannot kill on a system call here") }
        for n in 1...4 {
            let t = try Tidying.roll()
            let ids = try t.ids()
            let marked = t.items.filter { $0.kind == "photo" && $0.live_video == nil && $0.duplicate_of == nil }.prefix(3).map(\.path)
            var sizes: [String: Int64] = [:]
            for p in marked {
                try t.ok(["tidy", "delete", ids[p]!])
                sizes[p] = (try FileManager.default.attributesOfItem(atPath: t.root.appendingPathComponent(p).path)[.size] as! NSNumber).int64Value
            }
            var env = ProcessInfo.processInfo.environment
            env["SHOEBOX_LIBRARY"] = nil
            for (k, v) in t.cli.environment { env[k] = v }
            let r = try TestRoll.run(strace, ["-f", "-qq", "-o", "/dev/null", "-e", "trace=renameat2",
                                              "-e", "inject=renameat2:signal=SIGKILL:when=\(n)",
                                              ShoeboxCLI.binary, "tidy", "--library", t.root.path, "empty"],
                                     environment: env, allowFailure: true)
            let moved = marked.filter { !FileManager.default.fileExists(atPath: t.root.appendingPathComponent($0).path) }
            if r.status != 0, !moved.isEmpty, moved.count < marked.count {
                return Killed(t: t, ids: ids, sizes: sizes, marked: marked, moved: moved)
            }
        }
        throw TidyFailure("no kill of `tidy empty` left some files moved and some not")
    }

    /// Links under `Albums/` whose target is not there.
    static func danglingLinks(_ root: URL) -> [String] {
        let albums = root.appendingPathComponent("Albums").path
        let fm = FileManager.default
        return (fm.enumerator(atPath: albums)?.allObjects as? [String] ?? []).filter { rel in
            let path = albums + "/" + rel
            return (try? fm.destinationOfSymbolicLink(atPath: path)) != nil && !fm.fileExists(atPath: path)
        }.sorted()
    }

    func exists(_ k: Killed, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: k.t.root.appendingPathComponent(path).path)
    }

    func testAKilledEmptyCountsTheFilesItMovedAndItsAlbumLinksFollowAtTheNextWrite() throws {
        let k = try killedEmpty()
        XCTAssertFalse(Self.danglingLinks(k.t.root).isEmpty, "the kill left an album link to a moved photo")
        // A command that reads the session, then one that writes without moving files.
        _ = try k.t.cli.run(["tidy", "status"])
        let kept = k.notMoved[0]
        try k.t.ok(["tidy", "unmark", k.ids[kept]!])
        XCTAssertEqual(Self.danglingLinks(k.t.root), [], "album links follow the moved files at the next write")

        try k.t.ok(["tidy", "empty"])
        let status = try k.t.status()
        let emptied = k.marked.filter { $0 != kept }
        XCTAssertEqual(status["removed"] as? Int, emptied.count, "the file moved before the kill counts as moved")
        XCTAssertEqual((status["freed_bytes"] as? NSNumber)?.int64Value, emptied.reduce(Int64(0)) { $0 + k.sizes[$1]! })
        XCTAssertEqual(status["marked"] as? Int, 0)
        XCTAssertTrue(exists(k, kept))

        // The photo the killed empty moved comes back, and stays.
        try k.t.ok(["restore", k.ids[k.moved[0]]!])
        XCTAssertEqual(try k.t.array(["tidy", "trash"]).map { $0["path"] as! String }, [], "a restored photo is not marked again")
        try k.t.ok(["tidy", "empty"])
        XCTAssertTrue(exists(k, k.moved[0]), "the next empty leaves the restored photo in the library")
    }

    func testANewSessionAfterAKilledEmptyFinishesItFirst() throws {
        let k = try killedEmpty()
        try k.t.ok(["tidy", "filter", "all"])
        XCTAssertEqual(Set(try k.t.array(["tidy", "trash"]).map { $0["path"] as! String }), Set(k.notMoved),
                       "what moved is no longer marked; what did not is")
        XCTAssertEqual(Set(try k.t.array(["trash", "list"]).map { $0["original_path"] as! String }), Set(k.moved))

        try k.t.ok(["restore", k.ids[k.moved[0]]!])
        try k.t.ok(["tidy", "empty"])
        XCTAssertTrue(exists(k, k.moved[0]), "the next empty leaves the restored photo in the library")
        for p in k.notMoved { XCTAssertFalse(exists(k, p), "\(p) was still marked: the next empty moves it") }
    }
}
