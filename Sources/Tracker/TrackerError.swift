import PhotoLibrary

/// The tracker's errors, each one line a user can act on (as `ShoeboxError`s, which the CLI
/// prints and turns into exit 1). What to do about one that a front end can offer is its
/// `TrackerRemedy`; the message itself names no command.
public enum TrackerError {
    static func damaged(_ why: String) -> ShoeboxError {
        ShoeboxError(.io, "\(TrackerStore.path) is damaged (\(why)); move it away to start an empty tracker, or restore it from a backup or an export")
    }

    static func newerSchema(_ version: Int) -> ShoeboxError {
        ShoeboxError(.newerVersion, "\(TrackerStore.path) has schema_version \(version), newer than this Shoebox reads (\(TrackerFile.currentVersion)); upgrade Shoebox")
    }

    static func required(_ field: TrackerField, of kind: String) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "a \(kind) needs a non-empty \(field.words)", remedy: TrackerFieldRemedy(field: field))
    }

    static func unknownGameSystem(_ text: String) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "\(String(reflecting: text)) is not a game system Shoebox knows; use one of: \(GameSystem.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))",
                     remedy: TrackerFieldRemedy(field: .gameSystem))
    }

    static func notFound(_ kind: TrackerRecordKind, _ id: String) -> ShoeboxError {
        ShoeboxError(.notFound, "no \(kind.rawValue) \(String(reflecting: id)) in the tracker", remedy: TrackerRemedy.listIDs(kind))
    }

    static func ambiguous(_ kind: TrackerRecordKind, _ prefix: String) -> ShoeboxError {
        ShoeboxError(.ambiguous, "\(String(reflecting: prefix)) matches several \(kind.rawValue)s; give more of the id")
    }

    static func tooLong(_ field: TrackerField, limit: Int) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "the \(field.words) is longer than \(limit) characters", remedy: TrackerFieldRemedy(field: field))
    }
}

/// A field of a tracker record, named as its JSON shape names it: what a refused value belongs to.
public enum TrackerField: String, Sendable, Equatable, CaseIterable {
    case gameSystem = "game_system", army, name, steps, paints, techniques

    /// As messages say it ("a project needs a non-empty army"; a list by one of its entries).
    var words: String {
        switch self {
        case .gameSystem: "game system"
        case .army: "army"
        case .name: "name"
        case .steps: "step"
        case .paints: "paint"
        case .techniques: "technique"
        }
    }
}

/// Correct the value given for `field` (an empty name, a game system the tracker does not know,
/// a text too long): a front end with a form marks that input and shows the message beside it
/// (the web app). The command line words none: its message names the option already.
public struct TrackerFieldRemedy: Remedy, Equatable {
    public var field: TrackerField
}
