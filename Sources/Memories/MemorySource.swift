import Foundation
import PhotoLibrary

/// What a memory collage is of (brief 003): a year, a place or a person.
public enum MemorySource: Sendable, Equatable {
    case year(Int)
    /// A city ("Lisbon"), a country, or "City, Country"; case and accents ignored.
    case place(String)
    /// A person's name or id (`p3`, as `people list` shows it).
    case person(String)

    /// How messages and saved file names say it.
    public var label: String {
        switch self {
        case .year(let y): return String(y)
        case .place(let p), .person(let p): return p
        }
    }
}

/// The brief's date-range presets, counted back from now (`$SHOEBOX_NOW` when set).
public enum MemoryRange: String, CaseIterable, Sendable {
    case all
    case lastYear = "last-year"
    case lastFiveYears = "last-5-years"

    /// The earliest capture time the range takes (nil: every photo); the photos after `now`
    /// (a camera clock set wrong) are kept.
    public func start(now: Date) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        switch self {
        case .all: return nil
        case .lastYear: return calendar.date(byAdding: .year, value: -1, to: now)
        case .lastFiveYears: return calendar.date(byAdding: .year, value: -5, to: now)
        }
    }

    /// "in the last year", for messages ("" for all).
    public var phrase: String {
        switch self {
        case .all: return ""
        case .lastYear: return " in the last year"
        case .lastFiveYears: return " in the last 5 years"
        }
    }
}

/// Names compared the way people type them: case, accents and spaces around commas ignored
/// ("reykjavik" finds "Reykjavík"; "lisbon,portugal" finds "Lisbon, Portugal").
enum NameKey {
    static func of(_ s: String) -> String {
        s.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
            .joined(separator: ",")
    }
}
