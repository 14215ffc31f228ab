import PhotoLibrary

/// The kinds of record the tracker keeps, as messages and remedies name them.
public enum TrackerRecordKind: String, Sendable, Equatable {
    case project, miniature, recipe, photo
}

/// What a user can do about a tracker error or finding, as a value: each front end words it
/// (the CLI as the `shoebox tracker …` command to run, in Sources/ShoeboxCommands/Hints/TrackerHints.swift;
/// the web app as a control). The tracker's messages never name a command.
public enum TrackerRemedy: Remedy, Equatable {
    /// See the ids of the records of this kind (a reference matched none).
    case listIDs(TrackerRecordKind)
    /// Remove the miniature (a record whose project is gone), with its photos.
    case removeMini(id: String)
    /// Remove the photo (a record whose miniature is gone), record and file.
    case removePhoto(id: String)
    /// Remove a photo's record whose file is missing or not one the tracker may open.
    case removePhotoRecord(id: String)
}

/// One integrity finding about the tracker's file (`TrackerIntegrity`, a missing photo file):
/// what is wrong, in words that name no command, and what removes it.
public struct TrackerFinding: Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var remedy: TrackerRemedy?

    public init(_ message: String, remedy: TrackerRemedy? = nil) {
        self.message = message
        self.remedy = remedy
    }

    public var description: String { message }
}

/// What a removal took with it, computed inside the change that removed it: the record, the
/// miniatures it removed (a project's, the miniature itself) or changed (those a recipe was
/// linked to, the one a photo belonged to), and the photo records whose files were deleted.
public struct TrackerRemoval: Sendable, Equatable {
    public var kind: TrackerRecordKind
    public var id: String
    public var miniatureIDs: [String]
    public var photos: [TrackerPhoto]

    /// The photo files deleted, relative to the library (a record naming a path outside
    /// `Tracker/photos/` has none: that path is never opened).
    public var filesRemoved: [String] { photos.map(\.file).filter(TrackerIntegrity.isPhotoFile) }
}
