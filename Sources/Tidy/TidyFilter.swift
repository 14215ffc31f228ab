import Foundation
import PhotoLibrary

/// What a review session goes through (brief 004's filter sheet). Each filter but `maybe` offers
/// only assets not yet decided; `maybe` offers the maybe pile again.
public enum TidyFilter: Equatable, Sendable, CustomStringConvertible {
    /// Every photo and video, newest first.
    case all
    /// Screenshots only, newest first.
    case screenshots
    /// Captured in the 30 days before now (`$SHOEBOX_NOW` when set), newest first.
    case last30Days
    /// Captured in this year, newest first.
    case year(Int)
    /// Largest files first.
    case largest
    /// The maybe pile, newest first.
    case maybe

    /// `all`, `screenshots`, `last-30-days`, `year:2024`, `largest`, `maybe`.
    public var description: String {
        switch self {
        case .all: "all"
        case .screenshots: "screenshots"
        case .last30Days: "last-30-days"
        case .year(let y): "year:\(y)"
        case .largest: "largest"
        case .maybe: "maybe"
        }
    }

    /// Reads what `description` writes (and a bare year, `2024`); nil for anything else.
    public init?(_ text: String) {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        switch t {
        case "all": self = .all
        case "screenshots": self = .screenshots
        case "last-30-days": self = .last30Days
        case "largest": self = .largest
        case "maybe": self = .maybe
        default:
            let digits = t.hasPrefix("year:") ? String(t.dropFirst(5)) : t
            guard digits.count == 4, digits.allSatisfy(\.isASCII), let y = Int(digits), y >= 1800, y <= 9999 else { return nil }
            self = .year(y)
        }
    }

    /// The words a user may type, for messages.
    public static let spellings = "all, screenshots, last-30-days, year:YYYY, largest, maybe"

    /// The index query for the candidates, in review order (`now` for the relative filter).
    func query(now: Date) -> AssetQuery {
        var q = AssetQuery()
        q.sort = .date
        q.reverse = true
        switch self {
        case .all, .maybe: break
        case .screenshots: q.kind = .screenshot
        case .last30Days:
            q.takenFrom = now.addingTimeInterval(-30 * 86_400)
            q.takenBefore = now.addingTimeInterval(1)
        case .year(let y): q.year = y
        case .largest: q.sort = .size; q.reverse = false
        }
        q.features = [self == .maybe
            ? FeatureCondition(feature: TidyMark.feature, field: "decision", .equals(TidyDecision.maybe.rawValue))
            : FeatureCondition(feature: TidyMark.feature, field: "decision", .absent)]
        return q
    }
}
