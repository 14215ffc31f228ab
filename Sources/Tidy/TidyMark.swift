import Foundation
import PhotoLibrary

/// A review decision (brief 004's swipes).
public enum TidyDecision: String, Codable, Sendable, CaseIterable {
    /// Swipe right: the photo stays.
    case keep
    /// Swipe left: marked for deletion; nothing moves until `tidy empty`.
    case delete
    /// Swipe up: the "decide later" pile.
    case maybe
    /// Was marked and `tidy empty` moved it to Recently Deleted (restored later, it is not
    /// offered again: the user already decided about it).
    case emptied
}

/// The decision stored on an asset (`"features": {"tidy": …}` in its sidecar and the index):
/// per-asset truth the user made, so it survives `rebuild`, follows renames and is a query
/// field (the maybe pile, the marked photos). `session` names the session that made it, so a
/// session knows which of its items it has already decided.
public struct TidyMark: Codable, Equatable, Sendable {
    public static let feature = "tidy"

    public var decision: TidyDecision
    /// When it was decided (`$SHOEBOX_NOW` when set).
    public var at: Date
    public var session: String

    public init(decision: TidyDecision, at: Date, session: String) {
        self.decision = decision; self.at = at; self.session = session
    }

    /// The same mark, as far as files keep it (dates are stored to the millisecond).
    func isSame(as other: TidyMark?) -> Bool {
        guard let other else { return false }
        return decision == other.decision && session == other.session
            && abs(at.timeIntervalSince1970 - other.at.timeIntervalSince1970) < 0.002
    }
}

extension Optional where Wrapped == TidyMark {
    /// Both none, or the same mark.
    func isSame(as other: TidyMark?) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case (let a?, _): a.isSame(as: other)
        default: false
        }
    }
}

extension Asset {
    /// This asset's review decision, if any (an unreadable value counts as none).
    public var tidyMark: TidyMark? {
        try? features.value(TidyMark.feature, as: TidyMark.self)
    }
}
