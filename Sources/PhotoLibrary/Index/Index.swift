import Foundation
import GRDB
import MetadataCore

/// The SQLite index (`.shoebox/index.sqlite`, WAL): a cache of the sidecars and the files,
/// shaped for queries. `shoebox rebuild` can always recreate it.
public final class Index: @unchecked Sendable {
    /// The connection reads and writes go through, connected as needed (`connection(forWriting:)`):
    /// a `DatabasePool` once opened for writing; a `DatabaseQueue` while opened for reading or
    /// when the library cannot be written.
    package var pool: any DatabaseWriter {
        get throws { try connection(forWriting: false) }
    }
    private var opened: (any DatabaseWriter)?
    /// Whether `opened` is the read-write pool (created, migrated, `synchronous = FULL`).
    private var openedForWriting = false
    /// Guards `opened` and `openedForWriting`: the web server uses an index from several threads.
    private let connecting = NSLock()
    let library: Library
    /// Set when the index was opened read-only because the library cannot be written (read-only
    /// mount, full disk): reads work, and the first write fails with `readOnlyReason`.
    public let readOnlyReason: ShoeboxError?
    /// The index file, relative to the library.
    let relativePath: String
    /// The index file (messages, existence).
    let url: URL
    /// The connections' settings (`Index.configuration()`).
    let configuration: Configuration
    /// SQLite's file calls on the library confined for the index's whole life (the pool opens
    /// reader connections as they are needed). Declared after `opened`, so released after it.
    private let confinement: ConfinedSQLite
    /// The path SQLite was given for the index (below the library folder's real path).
    var sqlitePath: String { confinement.path(relativePath) }

    /// The path to give SQLite for another file of `.shoebox` (confined like the index's).
    func confinementPath(of file: URL) -> String { confinement.path(LibraryLayout.statePath(file.lastPathComponent)) }

    /// The feature tables and indexes this index was opened with (migrated on open).
    package let schema: IndexSchema

    /// Opens the index for writing: created and migrated as needed. `forReading` (a command that
    /// reads): nothing is opened until the first read, which connects without writing a byte;
    /// the first write connects for writing (`Index+Opening.swift`).
    package init(library: Library, path: URL? = nil, schema: IndexSchema = .core, forReading: Bool = false) throws {
        self.library = library
        self.schema = schema
        url = path ?? library.indexURL
        relativePath = LibraryLayout.statePath(url.lastPathComponent)
        // SQLite opens by path: the folder and files on the way must be Shoebox's own, not links
        // to somewhere else, or its -wal and -shm files would be written there.
        try OwnedPaths.checkIndexFiles(library, named: url.lastPathComponent)
        confinement = try ConfinedSQLite(library)
        configuration = Index.configuration()
        // A library that cannot be written (read-only mount, full disk) is read through a
        // read-only connection from the start: SQLite may open a WAL database "for writing" on
        // a read-only mount and fail only at the first write.
        if let problem = library.writeProblem, library.files.exists(relativePath) {
            opened = try Index.openReadOnly(URL(fileURLWithPath: confinement.path(relativePath)), config: configuration, because: problem)
            readOnlyReason = problem
            return
        }
        if forReading {
            readOnlyReason = nil
            return
        }
        do {
            opened = try Index.openForWriting(confinement.path(relativePath), configuration, schema: schema)
            openedForWriting = true
            readOnlyReason = nil
        } catch {
            if let damage = IndexDamage.diagnose(error, index: url, library: library) { throw damage }
            // Opening a WAL database for writing writes (the -wal and -shm files, a migration
            // check). When that fails because the disk just filled, reading is still worth having.
            guard let problem = library.writeProblem, library.files.exists(relativePath) else {
                throw ShoeboxError(.index, "cannot open the index \(url.path)", underlying: error)
            }
            opened = try Index.openReadOnly(URL(fileURLWithPath: confinement.path(relativePath)), config: configuration, because: problem)
            readOnlyReason = problem
        }
    }

    /// The connection to read (`forWriting: false`) or write through: an index opened for
    /// reading connects for reading at its first read and for writing at its first write (reads
    /// then go through the writer's pool, which sees the writes).
    private func connection(forWriting: Bool) throws -> any DatabaseWriter {
        connecting.lock()
        defer { connecting.unlock() }
        if let opened, openedForWriting || !forWriting || readOnlyReason != nil { return opened }
        do {
            if !forWriting, let reader = try openForReading() {
                opened = reader
                return reader
            }
            // The reader closes first: SQLite removes the -wal and -shm files of a checkpointed
            // index when its last connection closes, not while a reader keeps them.
            opened = nil
            if let problem = library.writeProblem { throw problem }
            let writer = try Index.openForWriting(sqlitePath, configuration, schema: schema)
            (opened, openedForWriting) = (writer, true)
            return writer
        } catch let e as ShoeboxError {
            throw e
        } catch {
            if let damage = IndexDamage.diagnose(error, index: url, library: library) { throw damage }
            throw ShoeboxError(.index, "cannot open the index \(url.path)", underlying: error)
        }
    }

    /// Checkpoints the WAL into the main file and closes every connection.
    func close() throws {
        connecting.lock()
        defer { connecting.unlock() }
        guard let opened else { return }
        do {
            if openedForWriting { try opened.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) } }
            try opened.close()
        } catch {
            throw ShoeboxError(.index, "cannot close the index", underlying: error)
        }
    }

    /// `shoebox_fold(text)`: case- and diacritic-insensitive key for place names.
    static let fold = DatabaseFunction("shoebox_fold", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(Index.folded)
    }

    static func folded(_ s: String) -> String {
        s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// A number that changes with every write to the `asset` table (`save`, `delete`): what was
    /// derived from an index of the same generation still holds (the albums' stamps).
    public func generation() throws -> String {
        try meta("generation") ?? "0"
    }

    /// A value of the `meta` table (versions of derived data, and the like).
    func meta(_ key: String) throws -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]) }
    }

    func setMeta(_ key: String, _ value: String) throws {
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [key, value])
        }
    }

    /// A value kept as JSON in `meta`; nil when absent or unreadable (derived data, then recomputed).
    func metaJSON<T: Decodable>(_ key: String, as type: T.Type) throws -> T? {
        guard let text = try meta(key), !text.isEmpty else { return nil }
        return try? JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    /// Stores a value as JSON in `meta`, writing only when it changed.
    func setMetaJSON<T: Encodable>(_ key: String, _ value: T) throws {
        let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        if try meta(key) != text { try setMeta(key, text) }
    }

    // MARK: Reading

    static let columns = "id, path, state, size, mtime_ns, inode, sha256, kind, taken_at, taken_at_epoch, taken_at_source, city, country, duplicate_of, live_photo_of, first_seen, score, is_utility, similar_group, metadata, trash_name, deleted_at, features, analysis"

    /// Position of each of `columns` in the rows `asset(from:)` reads (by position: a lookup by
    /// name searches the row's columns each time, which a listing of every asset feels).
    private enum C {
        static let names = Index.columns.components(separatedBy: ", ")
        static func at(_ name: String) -> Int { names.firstIndex(of: name)! }
        static let id = at("id"), path = at("path"), state = at("state"), size = at("size"), mtimeNS = at("mtime_ns")
        static let inode = at("inode"), sha256 = at("sha256"), kind = at("kind"), city = at("city"), country = at("country")
        static let duplicateOf = at("duplicate_of"), livePhotoOf = at("live_photo_of"), firstSeen = at("first_seen")
        static let score = at("score"), isUtility = at("is_utility"), similarGroup = at("similar_group")
        static let metadata = at("metadata"), trashName = at("trash_name"), deletedAt = at("deleted_at")
        static let features = at("features"), analysis = at("analysis")
    }

    /// An asset from a row of `SELECT \(Index.columns) …`.
    static func asset(from row: Row) throws -> Asset {
        let metadataJSON: String = row[C.metadata]
        // JSONDecoder only for what the fast reader does not vouch for (it then decides, or throws).
        let metadata = try MetadataJSON.decode(metadataJSON)
            ?? ShoeboxJSON.makeDecoder().decode(MediaMetadata.self, from: Data(metadataJSON.utf8))
        let city: String? = row[C.city], country: String? = row[C.country]
        return Asset(
            id: AssetID(trusted: row[C.id]), path: row[C.path],
            state: AssetState(rawValue: row[C.state]) ?? .missing,
            size: row[C.size], mtimeNS: row[C.mtimeNS], inode: UInt64(bitPattern: row[C.inode] as Int64),
            sha256: row[C.sha256], kind: AssetKind(rawValue: row[C.kind]) ?? .photo, metadata: metadata,
            place: (city == nil && country == nil) ? nil : Place(city: city, country: country),
            duplicateOf: (row[C.duplicateOf] as String?).map(AssetID.init(trusted:)),
            livePhotoOf: (row[C.livePhotoOf] as String?).map(AssetID.init(trusted:)),
            firstSeen: Date(timeIntervalSince1970: row[C.firstSeen]), score: row[C.score],
            isUtility: row[C.isUtility], similarGroup: row[C.similarGroup],
            trash: (row[C.trashName] as String?).map { TrashRecord(name: $0, deletedAt: Date(timeIntervalSince1970: row[C.deletedAt] ?? 0)) },
            featureFields: try (row[C.features] as String?).map {
                try ShoeboxJSON.makeDecoder().decode(FeatureFields.self, from: Data($0.utf8))
            },
            analysis: try (row[C.analysis] as String?).map {
                try ShoeboxJSON.makeDecoder().decode(AssetAnalysis.self, from: Data($0.utf8))
            })
    }

    public func asset(id: AssetID) throws -> Asset? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT \(Index.columns) FROM asset WHERE id = ?", arguments: [id.rawValue])
                .map(Index.asset(from:))
        }
    }

    /// Assets whose id starts with `prefix` (at most a few, for "ambiguous" messages).
    public func assets(idPrefix prefix: String) throws -> [Asset] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Index.columns) FROM asset WHERE id >= ? AND id < ? ORDER BY id LIMIT 5",
                             arguments: [prefix.lowercased(), prefix.lowercased() + "\u{7f}"]).map(Index.asset(from:))
        }
    }

    /// The asset at `path`: the present one if any, else the last that lived there.
    public func asset(path: String) throws -> Asset? {
        try read { db in
            try Row.fetchOne(db, sql: """
                SELECT \(Index.columns) FROM asset WHERE path = ?
                ORDER BY CASE state WHEN 'present' THEN 0 WHEN 'trashed' THEN 1 ELSE 2 END, first_seen DESC LIMIT 1
                """, arguments: [path]).map(Index.asset(from:))
        }
    }

    public func allAssets() throws -> [Asset] {
        try read { db in try Row.fetchAll(db, sql: "SELECT \(Index.columns) FROM asset ORDER BY path, id").map(Index.asset(from:)) }
    }

    /// The id of every asset.
    func allIDs() throws -> [AssetID] {
        try read { db in try String.fetchAll(db, sql: "SELECT id FROM asset").map(AssetID.init(trusted:)) }
    }

    public func count(state: AssetState? = nil) throws -> Int {
        try read { db in
            if let state {
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset WHERE state = ?", arguments: [state.rawValue]) ?? 0
            }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset") ?? 0
        }
    }

    // MARK: Writing

    package func save(_ assets: [Asset]) throws {
        guard !assets.isEmpty else { return }
        try write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO asset (id, path, state, size, mtime_ns, inode, sha256, kind, format, width, height,
                    taken_at, taken_at_epoch, taken_at_source, year, lat, lon, city, country, persons, duplicate_of,
                    live_photo_of, first_seen, score, is_utility, similar_group, metadata, trash_name, deleted_at, features,
                    analysis, analysis_version, analysis_sha, damaged, phash)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            try Index.bumpGeneration(db)
            var albumChanges = try AlbumChangeRecorder(db)
            // JSONEncoder's compact bytes, written without it (`JSONDocuments`).
            let json = JSONDocuments(pretty: false)
            for a in assets {
                try albumChanges?.willSave(a, db)
                // A present asset takes its path from any stale present row (the file was replaced meanwhile).
                if a.state == .present {
                    // Prepared once a connection (a statement compiled per asset was ~1 % of a cold scan).
                    try db.cachedStatement(sql: "UPDATE asset SET state = 'missing' WHERE path = ? AND state = 'present' AND id != ?")
                        .execute(arguments: [a.path, a.id.rawValue])
                }
                let persons = try json.string(a.persons)
                let takenAt = a.takenAt
                let metadata = try json.string(a.metadata)
                let features = try a.featureFields.map { try json.string($0) }
                let analysis = try a.analysis.map { try json.string($0) }
                try statement.execute(arguments: [
                    a.id.rawValue, a.path, a.state.rawValue, a.size, a.mtimeNS, Int64(bitPattern: a.inode), a.sha256,
                    a.kind.rawValue, a.format.rawValue, a.width, a.height,
                    takenAt?.iso8601, takenAt?.date.timeIntervalSince1970, takenAt?.source.rawValue, takenAt?.year,
                    a.metadata.gps?.lat, a.metadata.gps?.lon, a.place?.city, a.place?.country, persons,
                    a.duplicateOf?.rawValue, a.livePhotoOf?.rawValue, a.firstSeen.timeIntervalSince1970, a.score,
                    a.isUtility, a.similarGroup, metadata, a.trash?.name, a.trash?.deletedAt.timeIntervalSince1970, features,
                    analysis, a.analysis?.version, a.analysis?.sha256, a.analysis?.damaged ?? false,
                    // Only a hash of the present content: an edited file's old hash would group it wrongly.
                    a.analysis.flatMap { $0.sha256 == a.sha256 ? $0.perceptualHash : nil },
                ])
            }
            try albumChanges?.save(db)
        }
    }

    /// Forgets assets entirely (a purged trash item): their rows go; the caller removes the sidecars.
    func delete(_ ids: [AssetID]) throws {
        guard !ids.isEmpty else { return }
        try write { db in
            try Index.bumpGeneration(db)
            var albumChanges = try AlbumChangeRecorder(db)
            for id in ids {
                try albumChanges?.willDelete(id, db)
                try db.execute(sql: "DELETE FROM asset WHERE id = ?", arguments: [id.rawValue])
            }
            try albumChanges?.save(db)
            try removeRecords(ofAssets: ids, db)
        }
    }

    /// Every transaction that writes `asset` calls this (see `generation()`).
    static func bumpGeneration(_ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO meta (key, value) VALUES ('generation', '1')
            ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1
            """)
    }

    // MARK: Plumbing

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let connection = try self.connection(forWriting: false)
        do { return try connection.read(body) } catch let e as ShoeboxError { throw e } catch let e as DecodingError {
            // The index is a cache: one written in another format is rebuilt from the sidecars.
            throw ShoeboxError(.index, "the index \(library.indexURL.path) is unreadable (\(SidecarStore.describe(e))); recreate it with `shoebox --library \(shellQuote(library.root.path)) rebuild`")
        } catch {
            if let damage = IndexDamage.diagnose(error, index: library.indexURL, library: library) { throw damage }
            throw ShoeboxError(.index, "cannot read the index \(library.indexURL.path)", underlying: error)
        }
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        if let readOnlyReason { throw readOnlyReason }
        let connection = try self.connection(forWriting: true)
        do { return try connection.write(body) } catch let e as ShoeboxError { throw e } catch {
            if let damage = IndexDamage.diagnose(error, index: library.indexURL, library: library) { throw damage }
            throw ShoeboxError(.index, "cannot update the index \(library.indexURL.path)", underlying: error)
        }
    }
}
