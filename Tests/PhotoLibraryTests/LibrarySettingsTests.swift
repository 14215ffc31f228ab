import Foundation
import Testing
@testable import PhotoLibrary

/// `.shoebox/config.toml` as a user edits it: defaults, changed values, and clear errors.
struct LibrarySettingsTests {
    @Test func theFileInitWritesGivesTheDefaults() throws {
        #expect(try LibrarySettings.parse(LibraryConfig.defaultText) == LibrarySettings())
    }

    @Test func uncommentedValuesAreRead() throws {
        let text = LibraryConfig.defaultText
            .replacingOccurrences(of: "# retention_days = 30", with: "retention_days = 45  # a month and a half")
            .replacingOccurrences(of: "# safety_scan_minutes = 60", with: "safety_scan_minutes = 0")
            .replacingOccurrences(of: "# mass_disappearance_share = 0.5", with: "mass_disappearance_share = 0.25")
        let s = try LibrarySettings.parse(text)
        #expect(s.trashRetentionDays == 45 && s.safetyScanMinutes == 0 && s.massDisappearanceShare == 0.25)
    }

    @Test(arguments: [
        ("[watch]\nsafety_scan_minutes = \"often\"\n", "line 2"),
        ("[watch]\nmass_disappearance_share = 5\n", "mass_disappearance_share"),
        ("[trash]\nretention_days = 2.5\n", "whole number"),
        ("[watch\n", "line 1"),
        ("[watch]\nsafety_scan_minutes 5\n", "key = value"),
        ("[watch]\nsafety_scan_minutes = 5\nsafety_scan_minutes = 6\n", "set twice"),
        // Issue 13: a misspelt key or table is an error with its line and the closest key.
        ("[trash]\nretention_day = 365\n", "line 2: unknown setting trash.retention_day; did you mean trash.retention_days?"),
        ("[trsh]\nretention_days = 365\n", "did you mean trash.retention_days?"),
        ("colour = \"blue\"\n", "line 1: unknown setting colour"),
        // Bounds: no rescan loop, no purge on the day of deletion, a share that can trip.
        ("[watch]\nsafety_scan_minutes = 1e-9\n", "line 2: watch.safety_scan_minutes must be 0 (off) or from 1"),
        ("[watch]\nsafety_scan_minutes = 0.5\n", "from 1 to 525600"),
        ("[trash]\nretention_days = 0\n", "from 1 to 36500"),
        ("[watch]\nmass_disappearance_share = 0.001\n", "from 0.01 to 1"),
    ])
    func mistakesAreOneLineNamingTheProblem(text: String, words: String) {
        #expect {
            try LibrarySettings.parse(text, source: "config.toml")
        } throws: { error in
            let message = String(describing: error)
            return message.contains("config.toml") && message.contains(words) && !message.contains("\n")
        }
    }

    /// A config saved by a Windows editor (CRLF line ends) reads the same.
    @Test func crlfLineEndsAreAccepted() throws {
        let text = "[trash]\r\nretention_days = 90\r\n\r\n[watch]\r\nsafety_scan_minutes = 15 # comment\r\n"
        let s = try LibrarySettings.parse(text)
        #expect(s.trashRetentionDays == 90 && s.safetyScanMinutes == 15)
    }
}
