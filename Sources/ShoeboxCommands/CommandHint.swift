import PhotoLibrary

/// The command line's words for what a user can do about an error (`ShoeboxError.remedy`): the
/// library says what happened, the CLI adds the `shoebox …` command to run. The web app words
/// the same remedies as its own controls. Each module's remedy enum gets its words by conforming
/// to `CommandWorded` in a file of `Sources/ShoeboxCommands/Hints/` (or `Sources/shoebox-pixels/Hints/`).
package enum CommandHint {
    /// The error as the one line the CLI prints: its message, then the command that fixes it.
    package static func line(_ error: ShoeboxError) -> String {
        line(error.description, error.remedy)
    }

    /// A module's finding or note (not an error) said the same way: `message`, then the command.
    package static func line(_ message: String, _ remedy: (any Remedy)?) -> String {
        guard let worded = remedy as? any CommandWorded else { return message }
        return worded.line(message)
    }
}

extension DoctorReport {
    /// The report with each finding's typed remedy worded as its `fix` where the check gave no
    /// command of its own (a feature's checks name none).
    package func wordedForCommandLine() -> DoctorReport {
        var worded = self
        for i in worded.checks.indices where worded.checks[i].fix == nil {
            worded.checks[i].fix = (worded.checks[i].remedy as? any CommandWorded)?.commandHint
        }
        return worded
    }
}

/// A remedy the command line can word: "run `shoebox scan`" and the like.
package protocol CommandWorded {
    var commandHint: String { get }
    /// The line for an error whose message is `message`: "MESSAGE; HINT" unless the remedy puts
    /// its hint otherwise (in parentheses, as some sentences always did).
    func line(_ message: String) -> String
}

extension CommandWorded {
    package func line(_ message: String) -> String { message + "; " + commandHint }
}
