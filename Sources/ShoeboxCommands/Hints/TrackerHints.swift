import PhotoLibrary
import Tracker

extension TrackerRemedy: CommandWorded {
    package var commandHint: String {
        switch self {
        case .listIDs(let kind): "`shoebox tracker \(kind.command) list` shows the ids"
        case .removeMini(let id): "`shoebox tracker mini rm \(id)` removes it"
        case .removePhoto(let id): "`shoebox tracker photo rm \(id)` removes it"
        case .removePhotoRecord(let id): "`shoebox tracker photo rm \(id)` removes the record"
        }
    }
}

extension TrackerRecordKind {
    /// The `tracker` subcommand of its records.
    var command: String { self == .miniature ? "mini" : rawValue }
}

extension TrackerFinding {
    /// The finding as the CLI prints it: what is wrong, then the command that removes it.
    var commandLine: String { CommandHint.line(message, remedy) }
}
