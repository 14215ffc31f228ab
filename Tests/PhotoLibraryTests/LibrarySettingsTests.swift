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
    ])
    func mistakesAreOneLineNamingTheProblem(text: String, words: String) {
        #expect {
            try LibrarySettings.parse(text, source: "config.toml")
        } throws: { error in
            let message = String(describing: error)
            return message.contains("config.toml") && message.contains(words) && !message.contains("\n")
        }
    }
}
