import Foundation

/// The one door every front end (the `shoebox` command, `watch`, the web server) opens a library
/// through, in the manner of GRDB's `DatabaseWriter`:
/// - it opens the index with the schema of every feature it is given (explicitly, no registry);
/// - `read { … }` never takes the writer lock (SQLite's WAL lets readers read while a writer works);
/// - `write { locked in … }` holds the writer lock for the closure, and before the closure runs
///   repairs what a kill left: the asset journal replayed, `Recently Deleted/` reconciled with the
///   disk, then each feature's own recovery — so no caller can forget one, and each runs in that
///   order (a feature sees files where they really are).
/// Feature modules offer their entry points on a session; what they change, they change inside
/// `write`. A session is used from one thread at a time (the web server keeps one per request
/// task or serialises them).
public final class LibrarySession: @unchecked Sendable {
    public let library: Library
    public let index: Index
    public let features: [LibraryFeature]
    /// `.shoebox/config.toml`, read the first time something needs it (a reading command never
    /// does, so a mistyped setting stops the commands it matters to, not `list`).
    public var settings: LibrarySettings {
        get throws {
            if let loadedSettings { return loadedSettings }
            let settings = try LibrarySettings.load(library)
            loadedSettings = settings
            return settings
        }
    }
    private var loadedSettings: LibrarySettings?
    /// Where messages about files a change met on the way go (the CLI: stderr; the web: its log).
    public let log: @Sendable (String) -> Void
    /// The session's one asset writer: views that follow it (the watcher's) see every change made
    /// through any `write`.
    public let writer: AssetWriter
    /// The lock while a `write` runs: a `write` inside a `write` joins it instead of waiting for
    /// itself.
    private var current: LockedLibrary?

    /// Opens `library` with `features`' tables and indexes. `forReading`: for a command that
    /// reads, the index is connected at its first read and writes nothing; the first `write`
    /// (or an index that must be created or migrated first) connects it for writing.
    public init(_ library: Library, features: [LibraryFeature] = [], forReading: Bool = false,
                log: @escaping @Sendable (String) -> Void = { _ in }) throws {
        self.library = library
        self.features = features
        self.log = log
        let schema = features.reduce(IndexSchema.core) { $0.merged(with: $1.schema) }
        index = try Index(library: library, schema: schema, forReading: forReading)
        writer = AssetWriter(library: library, index: index)
    }

    /// The library `--library PATH` names, else `$SHOEBOX_LIBRARY`, else the outermost enclosing
    /// folder whose `.shoebox/` holds an index or sidecars, opened.
    public static func locate(explicit: String?, features: [LibraryFeature] = [], forReading: Bool = false,
                              log: @escaping @Sendable (String) -> Void = { _ in }) throws -> LibrarySession {
        try LibrarySession(Library.locate(explicit: explicit), features: features, forReading: forReading, log: log)
    }

    // MARK: Reading and writing

    /// Runs `body` on the index as it is, without the writer lock.
    public func read<T>(_ body: (Index) throws -> T) rethrows -> T {
        try body(index)
    }

    /// Runs `body` holding the writer lock (waiting up to `timeout` seconds for another Shoebox
    /// process to finish), after the repairs every change needs (see the type's comment). With
    /// `repairing: false` only the asset journal is replayed (every commit does that anyway): for
    /// a long job's later batches, whose first batch repaired. Throws the reason when the library
    /// cannot be written (read-only mount, full disk).
    public func write<T>(timeout: Double = 30, repairing: Bool = true, _ body: (LockedLibrary) throws -> T) throws -> T {
        if let current { return try body(current) }
        if let problem = index.readOnlyReason { throw problem }
        let lock = try LibraryLock(library: library, timeout: timeout)
        return try withExtendedLifetime(lock) {
            let locked = try LockedLibrary(session: self, writer: writer, now: ShoeboxClock.now())
            current = locked
            defer { current = nil }
            try writer.recoverUnfinishedBatch()
            if repairing {
                // A file a killed trash or `tidy empty` moved is a trashed asset now: the album
                // links follow it at once, not at the next scan.
                if try locked.trash.reconcileIfChanged() { try locked.trash.syncAlbums() }
                for feature in features { try feature.recover?(locked) }
            }
            return try body(locked)
        }
    }

    /// A long job's way of writing a batch at a time (the analysis runner's `LockedSection`):
    /// each call takes the lock, so another process writes between batches.
    public func lockedSection(timeout: Double = 600) -> (() throws -> Void) throws -> Void {
        { body in try self.write(timeout: timeout, repairing: false) { _ in try body() } }
    }

    // MARK: What works without an index

    /// `doctor`: the core's checks, then each feature's. Static: it must speak about a library
    /// whose index cannot be opened (damaged, deleted).
    public static func doctor(_ library: Library, features: [LibraryFeature]) throws -> DoctorReport {
        try library.doctor(featureChecks: features.flatMap(\.doctorChecks))
    }

    /// `rebuild`: the index recreated from the sidecars and the files (same ids), under the writer
    /// lock. Static: it is the way out when the index cannot be opened.
    public static func rebuild(_ library: Library, progress: (@Sendable (ScanProgress) -> Void)? = nil) throws -> RebuildReport {
        let lock = try LibraryLock(library: library)
        return try withExtendedLifetime(lock) {
            try library.rebuild(options: Scanner.Options(settings: try LibrarySettings.load(library)), progress: progress)
        }
    }
}

extension LibrarySession {
    /// `scan`: the index brought up to date with the folder, under the writer lock.
    public func scan(options: Scanner.Options? = nil, progress: (@Sendable (ScanProgress) -> Void)? = nil) throws -> ScanReport {
        try write { locked in
            try Scanner(library: library, index: index, options: options ?? Scanner.Options(settings: try settings), now: locked.now)
                .scan(progress: progress)
        }
    }
}
