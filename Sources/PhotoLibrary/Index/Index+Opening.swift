import Foundation
import GRDB

/// How the index is connected. Writing: a `DatabasePool` in WAL mode, migrated, `synchronous =
/// FULL`. Reading (`Index(…, forReading: true)`, the commands that only read): one connection
/// at the first read that writes nothing, so that `list` neither appends a WAL frame nor flushes
/// (GRDB's WAL set-up writes a frame into an empty -wal, and SQLite checkpoints and syncs when
/// the last writer closes). Read-only (the library cannot be written): `openReadOnly`.
extension Index {
    /// The settings of every connection to the index.
    static func configuration() -> Configuration {
        var config = Configuration()
        // A CLI command run while `watch` writes must wait its turn, not fail with "database is locked".
        config.busyMode = .timeout(15)
        config.label = "shoebox-index"
        // `list --place reykjavik` finds "Reykjavík": SQLite's NOCASE folds ASCII case only.
        config.prepareDatabase { db in
            db.add(function: Index.fold)
            // 16 MB of pages per connection rather than SQLite's 2 MB: a listing of 100,000 assets
            // read the same index pages again and again through `pread` (~1 s of system time in
            // `tidy similar`). Pages are only held as they are read: a small library uses little.
            try db.execute(sql: "PRAGMA cache_size = -16384")
        }
        return config
    }

    /// The read-write pool on the index at `path`: created if missing, migrated to `schema`.
    static func openForWriting(_ path: String, _ configuration: Configuration, schema: IndexSchema) throws -> DatabasePool {
        let writable = try DatabasePool(path: path, configuration: configuration)
        // GRDB sets `synchronous = NORMAL` on a WAL database: a commit not flushed, which a
        // power cut can take back after the batch's replay record is gone (docs/RELIABILITY.md,
        // "A scan's batch", step 4). FULL flushes the WAL at each commit: one flush a batch.
        try writable.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
        try schema.migrator.migrate(writable)
        return writable
    }

    /// One connection to read the index as it is, or nil when it must be opened for writing
    /// first: no index yet, or one whose tables are behind `schema` (an older Shoebox's; a
    /// feature's table never made). Each read is a transaction of its own (GRDB's `read`, with
    /// `query_only`): it sees whole commits only, as the pool's readers do. SQLite's read-write
    /// flags, not `SQLITE_OPEN_READONLY`: on a checkpointed index both make an empty -wal and a
    /// -shm, and only a read-write connection removes them again when it closes last (a
    /// read-only one leaves them for the next writer). With a WAL a killed writer left, that
    /// close checkpoints it, as any connection's would.
    func openForReading() throws -> DatabaseQueue? {
        // Through the confined layer, as every file of the library (no link followed on the way).
        guard library.files.exists(relativePath) else { return nil }
        let queue = try DatabaseQueue(path: sqlitePath, configuration: configuration)
        guard try queue.read({ db in try schema.migrator.hasCompletedMigrations(db) }) else { return nil }
        return queue
    }

    /// `mode=ro` reads the WAL through an existing -shm (a crash may have left committed pages
    /// there); when those files are gone the WAL was checkpointed, and `immutable=1` needs neither.
    /// Both are SQLite URIs: Debian's SQLite is built with SQLITE_USE_URI.
    static func openReadOnly(_ url: URL, config base: Configuration, because problem: ShoeboxError) throws -> DatabaseQueue {
        var config = base
        config.readonly = true
        let encoded = url.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#%"))) ?? url.path
        var lastError: (any Error)?
        for mode in ["mode=ro", "immutable=1"] {
            do {
                let queue = try DatabaseQueue(path: "file:\(encoded)?\(mode)", configuration: config)
                // The core's tables must be current; a feature's index that was never made (a
                // library never tidied, read from a read-only mount) only makes its queries slower.
                guard try queue.read({ db in try IndexSchema.core.migrator.hasCompletedMigrations(db) }) else {
                    throw ShoeboxError(problem.code, problem.message + "; the index needs an upgrade that cannot be written now")
                }
                return queue
            } catch let e as ShoeboxError {
                throw e
            } catch {
                lastError = error
            }
        }
        throw ShoeboxError(problem.code, problem.message + "; the index cannot be read either", underlying: lastError)
    }
}
