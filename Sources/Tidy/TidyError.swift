import PhotoLibrary

/// What a user can do about a Tidy error; each front end words it (the CLI:
/// `Sources/ShoeboxCommands/Hints/TidyHints.swift`).
public enum TidyRemedy: Remedy, Equatable {
    /// Start a new review session over every photo (decisions already made are kept).
    case startSession
    /// Upgrade Shoebox, or start a new session.
    case upgradeOrStartSession
    /// See where the session stands, or start another over a filter.
    case statusOrNewSession
    /// The photos emptied are in Recently Deleted: restore any of them one by one.
    case restoreEmptied
    /// See the item (the group) under review.
    case showItemUnderReview
    /// See the photos marked for deletion.
    case listMarked
}

/// Tidy's errors, each one line a user can act on (as `ShoeboxError`s): the message says what
/// happened, the remedy what to do.
public enum TidyError {
    static func damaged(_ path: String, _ why: String) -> ShoeboxError {
        ShoeboxError(.io, "\(path) is damaged (\(why))", remedy: TidyRemedy.startSession)
    }

    static func newerSchema(_ schema: Int) -> ShoeboxError {
        ShoeboxError(.newerVersion, "\(TidyStore.statePath) has schema \(schema), newer than this Shoebox",
                     remedy: TidyRemedy.upgradeOrStartSession)
    }

    static func unknownFilter(_ text: String) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "unknown filter \(String(reflecting: text)); filters: \(TidyFilter.spellings)")
    }

    static var nothingToReview: ShoeboxError {
        ShoeboxError(.invalidArgument, "nothing left to review in this session", remedy: TidyRemedy.statusOrNewSession)
    }

    static var nothingToUndo: ShoeboxError {
        ShoeboxError(.invalidArgument, "nothing to undo: this session has made no decision yet")
    }

    static var undoPastKept: ShoeboxError {
        ShoeboxError(.invalidArgument, "nothing more to undo: a session keeps its last \(TidyState.undoDepth) changes")
    }

    /// A filter change starts a new list: the decisions made over the old one stay.
    static var undoPastFilter: ShoeboxError {
        ShoeboxError(.invalidArgument, "nothing to undo since the filter changed: the decisions made before it stay on their photos",
                     remedy: TidyRemedy.listMarked)
    }

    static var undoPastEmpty: ShoeboxError {
        ShoeboxError(.invalidArgument, "nothing to undo since the marked photos were emptied: those files are in Recently Deleted",
                     remedy: TidyRemedy.restoreEmptied)
    }

    static func othersNeedGroup(_ id: String) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "the others can be decided only in a group of similar shots, and \(id) is not in the group under review",
                     remedy: TidyRemedy.showItemUnderReview)
    }

    static func notPresent(_ reference: String, _ state: AssetState) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "\(displayPath(reference)) is \(state.rawValue); only photos in the library can be decided")
    }

    static func notMarked(_ reference: String) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "\(displayPath(reference)) is not marked for deletion", remedy: TidyRemedy.listMarked)
    }
}
