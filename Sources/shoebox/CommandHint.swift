import PhotoLibrary

/// The command line's words for what a user can do about an error (`ShoeboxError.remedy`): the
/// library says what happened, the CLI adds the `shoebox …` command to run. The web app words
/// the same remedies as its own controls.
enum CommandHint {
    /// The error as the one line the CLI prints: its message, then the command that fixes it.
    static func line(_ error: ShoeboxError) -> String {
        guard let remedy = error.remedy, let hint = hint(remedy) else { return error.description }
        return error.description + "; " + hint
    }

    /// "run `shoebox scan`" and the like; nil for a remedy this executable has no words for.
    static func hint(_ remedy: any Remedy) -> String? {
        switch remedy {
        case let r as LibraryRemedy: return hint(r)
        default: return nil
        }
    }

    static func hint(_ r: LibraryRemedy) -> String {
        switch r {
        case .scan: "run `shoebox scan`"
        case .scanAllowingMassRemoval: "if they are really gone, run `shoebox scan --allow-mass-removal`"
        case .rebuild: "run `shoebox rebuild` (ids are kept)"
        case .analyze: "run `shoebox analyze`"
        case .initLibrary(let path): "run `shoebox init \(path.map(shellQuote) ?? "PATH")`"
        case .restore(let id): "`shoebox restore \(id)` brings it back"
        case .listAlbums: "`shoebox album list` shows them"
        case .listPeople: "`shoebox people list` shows them"
        }
    }
}
