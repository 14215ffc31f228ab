import Foundation
import PhotoLibrary

/// Times as the tracker stores and prints them: ISO 8601 in local time with the offset
/// (`2026-11-22T10:15:03+01:00`), from Shoebox's one clock (`$SHOEBOX_NOW` replaces it).
enum TrackerClock {
    static func now() -> String { ShoeboxClock.localISO8601(ShoeboxClock.now()) }

    /// The instant a stored time names: with or without an offset (a capture time the file gave
    /// without one is wall-clock time, read in the local zone), with or without fractions.
    static func parse(_ text: String) -> Date? {
        if let d = ShoeboxClock.parseISO8601(text) { return d }
        // "2023-05-14T12:34:56.120" (a capture time without offset, with milliseconds): the
        // fraction is dropped, which the local forms of `parseISO8601` do not accept.
        guard let dot = text.firstIndex(of: "."), text[..<dot].count == 19 else { return nil }
        return ShoeboxClock.parseISO8601(String(text[..<dot]))
    }
}
