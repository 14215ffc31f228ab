import Foundation
import Testing
import TestSupport

/// `bench/faults.py`: the built binary is killed with SIGKILL while it writes, and the library
/// must come through whole.
@Suite(.serialized) struct FaultInjectionTests {
    typealias Outcome = (status: Int32, stdout: String, stderr: String)

    /// `--quick`: killed at random instants while it trashes, restores, purges, writes albums,
    /// scans, watches and runs every feature's writes; after each kill the next start must find
    /// every original exactly as many times as before, byte-identical, with its id, and nothing
    /// dangling, orphaned or reported by `doctor`.
    // Calibration runs every feature's writes once, twice over (curate, tidy, tracker, memories,
    // compose): ~1 min on a quiet machine, several under CI's load.
    @Test(.timeLimit(.minutes(8)))
    func aKillAtAnyInstantLosesNoPhoto() throws {
        let r = try Self.faults(["--quick"])
        let fields = Self.summary(r, prefix: "faults: runs=")
        #expect(r.status == 0, "faults.py failed (\(r.status)):\n\(r.stdout)\n\(r.stderr.suffix(6000))")
        #expect(fields["runs"] == 12, "summary: \(r.stdout)")
        #expect((fields["kills"] ?? 0) > 0, "summary: \(r.stdout)")
        for counter in ["files_lost", "duplicated", "dangling_links", "orphan_trashinfo", "doctor_failures", "id_changes"] {
            #expect(fields[counter] == 0, "\(counter) in: \(r.stdout)\n\(r.stderr.suffix(6000))")
        }
    }

    /// Issue 28's two cases (`--after-kill`): `scan` killed after the sidecars of three new photos
    /// and before the index, and `people name` killed the same way; then `trash` runs first (no
    /// scan before it). The killed batch's replay record must survive: its ids in the index (not
    /// a second set of ids for the same files), its names (not the old name), `doctor` clean, and
    /// `rebuild` giving the same ids.
    @Test(.timeLimit(.minutes(8)))
    func aCommandRunFirstAfterAKillKeepsTheKilledBatch() throws {
        let r = try Self.faults(["--after-kill", "--quick", "--killed", "scan,people name", "--first", "trash"])
        let fields = Self.summary(r, prefix: "faults: after-kill: pairs=")
        #expect(r.status == 0, "faults.py --after-kill failed (\(r.status)):\n\(r.stdout)\n\(r.stderr.suffix(6000))")
        #expect(fields["pairs"] == 2 && fields["kills"] == 2, "summary: \(r.stdout)")
        for counter in ["replay_lost", "second_ids", "doctor_failures", "rebuild_drift", "crashes", "harness_errors"] {
            #expect(fields[counter] == 0, "\(counter) in: \(r.stdout)\n\(r.stderr.suffix(6000))")
        }
    }

    /// Runs bench/faults.py with these flags on the debug binary, in a work folder of its own
    /// (deleted when it passed).
    static func faults(_ flags: [String]) throws -> Outcome {
        let work = Scratch.root.appendingPathComponent("shoebox-test-\(UUID().uuidString)/faults")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let script = TestRoll.repositoryRoot.appendingPathComponent("bench/faults.py").path
        var env = ProcessInfo.processInfo.environment
        env["SHOEBOX_LIBRARY"] = nil
        env["SHOEBOX_NOW"] = nil
        let r = try TestRoll.run("/usr/bin/env", ["python3", script] + flags + ["--quiet", "--shoebox", ShoeboxCLI.binary,
                                                                               "--work", work.path],
                                 environment: env, allowFailure: true)
        if r.status == 0 { try? FileManager.default.removeItem(at: work.deletingLastPathComponent()) }
        return r
    }

    /// The key=value fields of the summary line that starts with `prefix`.
    static func summary(_ r: Outcome, prefix: String) -> [String: Int] {
        let line = r.stdout.split(separator: "\n").last { $0.hasPrefix(prefix) }.map(String.init) ?? ""
        var fields: [String: Int] = [:]
        for pair in line.split(separator: " ") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            if kv.count == 2, let n = Int(kv[1]) { fields[String(kv[0])] = n }
        }
        return fields
    }
}
