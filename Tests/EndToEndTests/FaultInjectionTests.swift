import Foundation
import Testing
import TestSupport

/// `bench/faults.py --quick`: the built binary is killed with SIGKILL at random instants while it
/// trashes, restores, purges, writes albums, scans and watches; after each kill the next start
/// must find every original exactly as many times as before, byte-identical, with its id, and
/// nothing dangling, orphaned or reported by `doctor`.
@Suite struct FaultInjectionTests {
    // Calibration runs every feature's writes once, twice over (curate, tidy, tracker, memories,
    // compose): ~1 min on a quiet machine, several under CI's load.
    @Test(.timeLimit(.minutes(8)))
    func aKillAtAnyInstantLosesNoPhoto() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-test-\(UUID().uuidString)/faults")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let script = TestRoll.repositoryRoot.appendingPathComponent("bench/faults.py").path
        var env = ProcessInfo.processInfo.environment
        env["SHOEBOX_LIBRARY"] = nil
        env["SHOEBOX_NOW"] = nil
        let r = try TestRoll.run("/usr/bin/env", ["python3", script, "--quick", "--quiet",
                                                  "--shoebox", ShoeboxCLI.binary, "--work", work.path],
                                 environment: env, allowFailure: true)
        let summary = r.stdout.split(separator: "\n").last { $0.hasPrefix("faults: runs=") }.map(String.init) ?? ""
        #expect(r.status == 0, "faults.py failed (\(r.status)):\n\(r.stdout)\n\(r.stderr.suffix(6000))")
        var fields: [String: Int] = [:]
        for pair in summary.split(separator: " ").dropFirst() {
            let kv = pair.split(separator: "=", maxSplits: 1)
            if kv.count == 2, let n = Int(kv[1]) { fields[String(kv[0])] = n }
        }
        #expect(fields["runs"] == 12, "summary: \(summary)")
        #expect((fields["kills"] ?? 0) > 0, "summary: \(summary)")
        for counter in ["files_lost", "duplicated", "dangling_links", "orphan_trashinfo", "doctor_failures", "id_changes"] {
            #expect(fields[counter] == 0, "\(counter) in: \(summary)\n\(r.stderr.suffix(6000))")
        }
        if r.status == 0 { try? FileManager.default.removeItem(at: work.deletingLastPathComponent()) }
    }
}
