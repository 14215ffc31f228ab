import Tidy

extension TidyRemedy: CommandWorded {
    package var commandHint: String {
        switch self {
        case .startSession: "`shoebox tidy filter all` starts a new session (decisions already made are kept)"
        case .upgradeOrStartSession: "upgrade Shoebox (or `shoebox tidy filter all` to start a new session)"
        case .statusOrNewSession: "`shoebox tidy status`; `shoebox tidy filter F` starts another"
        case .restoreEmptied: "`shoebox restore ID` brings one back"
        case .showItemUnderReview: "`shoebox tidy next`"
        case .listMarked: "`shoebox tidy trash` lists what is"
        }
    }

    /// The sentences `tidy` has always printed: these hints in parentheses; and for an undo that
    /// meets an `empty`, the sentence naming the command (the library says "the marked photos
    /// were emptied", which is all that error ever says).
    package func line(_ message: String) -> String {
        switch self {
        case .startSession, .upgradeOrStartSession: message + "; " + commandHint
        case .restoreEmptied: "nothing to undo since `tidy empty`: those files are in Recently Deleted (\(commandHint))"
        case .statusOrNewSession, .showItemUnderReview, .listMarked: message + " (\(commandHint))"
        }
    }
}
