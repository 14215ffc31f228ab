import Foundation

/// The library while this process holds its writer lock: what the body of
/// `LibrarySession.write { locked in … }` may change. Valid only inside that closure (the lock
/// goes with it). Reads through `index` see this process's writes at once.
public struct LockedLibrary {
    public let library: Library
    public let index: Index
    public let settings: LibrarySettings
    /// The one write path for asset records (journal → sidecars → index).
    public let writer: AssetWriter
    /// The clock of this change (`$SHOEBOX_NOW` when set).
    public let now: Date
    /// `Recently Deleted/`, changing assets through `writer`; messages about other files it meets
    /// (albums it had to tidy, items it could not settle) go to the session's log.
    public let trash: RecentlyDeleted

    init(session: LibrarySession, writer: AssetWriter, now: Date) throws {
        library = session.library
        index = session.index
        settings = try session.settings
        self.writer = writer
        self.now = now
        trash = RecentlyDeleted(library: session.library, index: session.index, retentionDays: settings.trashRetentionDays,
                                now: now, writer: writer, log: session.log)
    }

    /// Every reference (id, id prefix or library path) resolved, or one error naming the first
    /// that is not an asset.
    public func resolve(_ references: [String], preferring state: AssetState = .present) throws -> [Asset] {
        try references.map { try index.resolve($0, preferring: state) }
    }
}
