import PhotoLibrary

/// Tidy's errors, each one line a user can act on (as `ShoeboxError`s, which the CLI prints).
public enum TidyError {
    static func damaged(_ path: String, _ why: String) -> ShoeboxError {
        ShoeboxError(.io, "\(path) is damaged (\(why)); `shoebox tidy filter all` starts a new session (decisions already made are kept)")
    }

    static func newerSchema(_ schema: Int) -> ShoeboxError {
        ShoeboxError(.newerVersion, "\(TidyStore.statePath) has schema \(schema), newer than this Shoebox; upgrade Shoebox (or `shoebox tidy filter all` to start a new session)")
    }

    static func unknownFilter(_ text: String) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "unknown filter \(String(reflecting: text)); filters: \(TidyFilter.spellings)")
    }

    static var nothingToReview: ShoeboxError {
        ShoeboxError(.invalidArgument, "nothing left to review in this session (`shoebox tidy status`; `shoebox tidy filter F` starts another)")
    }

    static var nothingToUndo: ShoeboxError {
        ShoeboxError(.invalidArgument, "nothing to undo: this session has made no decision yet")
    }

    static var undoPastKept: ShoeboxError {
        ShoeboxError(.invalidArgument, "nothing more to undo: a session keeps its last \(TidyState.undoDepth) changes")
    }

    static var undoPastEmpty: ShoeboxError {
        ShoeboxError(.invalidArgument, "nothing to undo since `tidy empty`: those files are in Recently Deleted (`shoebox restore ID` brings one back)")
    }

    static func othersNeedGroup(_ id: String) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "--others applies to a group of similar shots, and \(id) is not in the group under review (`shoebox tidy next`)")
    }

    static func notPresent(_ reference: String, _ state: AssetState) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "\(displayPath(reference)) is \(state.rawValue); only photos in the library can be decided")
    }

    static func notMarked(_ reference: String) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "\(displayPath(reference)) is not marked for deletion (`shoebox tidy trash` lists what is)")
    }
}
