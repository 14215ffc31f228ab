import Foundation
import Testing
import TestSupport

/// Issue 13's configuration findings, as a user meets them: a misspelt setting, a config saved
/// with CRLF line ends, a rescan interval of 1e-9 minutes, an unparsable `$SHOEBOX_NOW`.
@Suite(.serialized)
struct ConfigAndClockEndToEndTests {
    @Test func aMisspeltSettingStopsTheCommandAndDoctorSaysWhichLine() throws {
        let s = try SymlinkAttackTests.Scene()
        defer { s.remove() }
        let config = s.library.appendingPathComponent(".shoebox/config.toml")
        try "[trash]\nretention_day = 365\n".write(to: config, atomically: true, encoding: .utf8)
        let scan = try s.cli.run(["scan"])
        #expect(scan.status != 0)
        #expect(scan.stderr.contains("line 2") && scan.stderr.contains("did you mean trash.retention_days?"), "\(scan.stderr)")
        let doctor = try s.cli.run(["doctor"])
        #expect(doctor.status != 0 && doctor.stdout.contains("config") && doctor.stdout.contains("retention_day"), "\(doctor.stdout)")
        // Reading needs no setting: the photos can still be listed meanwhile.
        let list = try s.cli.run(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        // Fixed with CRLF line ends (as a Windows editor saves it): accepted.
        try "[trash]\r\nretention_days = 365\r\n".write(to: config, atomically: true, encoding: .utf8)
        #expect(try s.cli.run(["scan"]).status == 0)
        #expect(try s.cli.run(["doctor"]).status == 0)
    }

    @Test func aRescanIntervalOfAnInstantIsRefused() throws {
        let s = try SymlinkAttackTests.Scene()
        defer { s.remove() }
        try "[watch]\nsafety_scan_minutes = 1e-9\n".write(to: s.library.appendingPathComponent(".shoebox/config.toml"),
                                                       atomically: true, encoding: .utf8)
        let watch = try s.cli.run(["watch"])
        #expect(watch.status != 0 && watch.stderr.contains("safety_scan_minutes must be 0 (off) or from 1"), "\(watch.stderr)")
    }

    @Test func anUnparsableClockOverrideIsAnErrorNotTheRealClock() throws {
        let s = try SymlinkAttackTests.Scene()
        defer { s.remove() }
        let r = try s.cli.run(["list"], extraEnvironment: ["SHOEBOX_NOW": "next tuesday"])
        #expect(r.status == 2)
        #expect(r.stderrLines.count == 1 && r.stderr.contains("$SHOEBOX_NOW") && r.stderr.contains("next tuesday"), "\(r.stderr)")
        #expect(try s.cli.run(["list"], extraEnvironment: ["SHOEBOX_NOW": "2026-11-22"]).status == 0)
    }
}
