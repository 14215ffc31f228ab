import Foundation

/// What a feature module (Tidy, Curation, Composer, Memories, Tracker, Analysis) adds to a
/// library session: its tables and indexes in the index, the repair of its own unfinished
/// change after a kill, and its checks in `doctor`. A front end opens its session with every
/// feature it offers (`LibrarySession.open(_:features:)`), so the index's schema and the
/// recoveries never depend on which module happened to run first in a process.
public struct LibraryFeature: Sendable {
    /// Lower-case, as in the feature's per-asset fields (`tidy`, `tracker`…).
    public var name: String
    /// The feature's tables and indexes, migrated when the session opens the index.
    public var schema: IndexSchema
    /// Finishes or undoes the feature's own change a kill interrupted. Runs inside every
    /// `LibrarySession.write`, after the core's recovery (the asset journal replayed, Recently
    /// Deleted reconciled), so it sees the files where they really are. Cheap when there is
    /// nothing to do (it runs before every write).
    public var recover: (@Sendable (LockedLibrary) throws -> Void)?
    /// The feature's findings for `doctor`, after the core's.
    public var doctorChecks: [any DoctorCheck]

    public init(name: String, schema: IndexSchema = .core, recover: (@Sendable (LockedLibrary) throws -> Void)? = nil,
                doctorChecks: [any DoctorCheck] = []) {
        self.name = name
        self.schema = schema
        self.recover = recover
        self.doctorChecks = doctorChecks
    }
}
