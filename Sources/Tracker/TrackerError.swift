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

    static func required(_ field: String, of kind: String) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "a \(kind) needs a non-empty \(field)")
    }

    static func unknownGameSystem(_ text: String) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "\(String(reflecting: text)) is not a game system Shoebox knows; use one of: \(GameSystem.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
    }

    static func notFound(_ kind: TrackerRecordKind, _ id: String) -> ShoeboxError {
        ShoeboxError(.notFound, "no \(kind.rawValue) \(String(reflecting: id)) in the tracker", remedy: TrackerRemedy.listIDs(kind))
    }

    static func ambiguous(_ kind: TrackerRecordKind, _ prefix: String) -> ShoeboxError {
        ShoeboxError(.ambiguous, "\(String(reflecting: prefix)) matches several \(kind.rawValue)s; give more of the id")
    }

    static func tooLong(_ field: String, limit: Int) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "the \(field) is longer than \(limit) characters")
    }
}
