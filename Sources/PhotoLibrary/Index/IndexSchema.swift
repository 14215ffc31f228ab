import Foundation
import GRDB

/// What the index holds beyond the core's tables: the feature modules' own tables and their
/// indexes on per-asset fields. Given explicitly to `Index.init` (a `LibrarySession` gathers it
/// from the features it is opened with), so what a process's index knows never depends on which
/// module happened to run first.
public struct IndexSchema: Sendable, Equatable {
    public var tables: [FeatureTable]
    public var indexes: [FeatureIndex]

    public init(tables: [FeatureTable] = [], indexes: [FeatureIndex] = []) {
        self.tables = tables
        self.indexes = indexes
    }

    /// The core's tables only: enough to read and write assets (a feature's index that an earlier
    /// run created stays; SQLite keeps it current).
    public static let core = IndexSchema()

    /// Both schemas' tables and indexes, each once.
    public func merged(with other: IndexSchema) -> IndexSchema {
        IndexSchema(tables: tables + other.tables.filter { !tables.contains($0) },
                    indexes: indexes + other.indexes.filter { !indexes.contains($0) })
    }

    /// The core's migrations in order, then each feature table's and index's. GRDB records which
    /// ran, so each runs once per index.
    var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        Index.registerCoreMigrations(&m)
        for table in tables { table.register(in: &m) }
        for index in indexes { index.register(in: &m) }
        return m
    }
}

extension Index {

    fileprivate static func registerCoreMigrations(_ m: inout DatabaseMigrator) {
        m.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE asset (
                    id TEXT PRIMARY KEY NOT NULL,
                    path TEXT NOT NULL,
                    state TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    mtime_ns INTEGER NOT NULL,
                    inode INTEGER NOT NULL,
                    sha256 TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    format TEXT NOT NULL,
                    width INTEGER NOT NULL,
                    height INTEGER NOT NULL,
                    taken_at TEXT,
                    taken_at_epoch REAL,
                    taken_at_source TEXT,
                    year INTEGER,
                    lat REAL,
                    lon REAL,
                    city TEXT,
                    country TEXT,
                    persons TEXT NOT NULL DEFAULT '[]',
                    duplicate_of TEXT,
                    live_photo_of TEXT,
                    first_seen REAL NOT NULL,
                    score REAL,
                    is_utility INTEGER NOT NULL DEFAULT 0,
                    similar_group TEXT,
                    metadata TEXT NOT NULL
                );
                -- Two present files cannot share a path; a missing asset keeps its last path,
                -- which a new, different file may take meanwhile.
                CREATE UNIQUE INDEX asset_present_path ON asset(path) WHERE state = 'present';
                CREATE INDEX asset_sha ON asset(sha256);
                CREATE INDEX asset_taken ON asset(state, taken_at_epoch);
                CREATE INDEX asset_score ON asset(state, score);
                CREATE INDEX asset_year ON asset(year);
                """)
        }
        m.registerMigration("v2") { db in
            // Recently Deleted: the name in `files/` and the deletion time of a trashed asset.
            try db.execute(sql: """
                ALTER TABLE asset ADD COLUMN trash_name TEXT;
                ALTER TABLE asset ADD COLUMN deleted_at REAL;
                CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                """)
            // An index made before this version holds places from XMP only: re-derive them once.
            let empty = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset") == 0
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('derivation', ?)",
                           arguments: [empty ? Derivation.version : "1"])
        }
        m.registerMigration("v3") { db in
            try db.execute(sql: """
                -- `list --sort score` (best first, unscored last) reads its first page from here
                -- instead of sorting every asset: the terms are those of AssetQuery's ORDER BY
                -- (keep them identical, or SQLite sorts again); ties, rare, are sorted as they
                -- come, so a page needs no id in here.
                CREATE INDEX asset_by_score ON asset(state, score IS NULL, score DESC, taken_at_epoch);
                -- The default order (capture time), in full: `list` of the whole library and the
                -- albums read every asset in it, and sorting them, even tie by tie, costs more.
                CREATE INDEX asset_by_date ON asset(state, taken_at_epoch IS NULL, taken_at_epoch, path, id);
                -- The video halves of Live Photos, for listings (few rows).
                CREATE INDEX asset_live ON asset(live_photo_of) WHERE live_photo_of IS NOT NULL;
                """)
        }
        m.registerMigration("v4") { db in
            // Fields of feature modules (JSON object per feature), NULL while none is set.
            try db.execute(sql: "ALTER TABLE asset ADD COLUMN features TEXT")
        }
        m.registerMigration("v5") { db in
            // The analysis pipeline's record (faces, perceptual hash, damage) as JSON, and what
            // finding the assets still to analyse needs without parsing it: the analyser's
            // version and the content it analysed.
            try db.execute(sql: """
                ALTER TABLE asset ADD COLUMN analysis TEXT;
                ALTER TABLE asset ADD COLUMN analysis_version INTEGER;
                ALTER TABLE asset ADD COLUMN analysis_sha TEXT;
                ALTER TABLE asset ADD COLUMN damaged INTEGER NOT NULL DEFAULT 0;
                """)
        }
        m.registerMigration("v6") { db in
            // The perceptual hash on its own (16 hex digits), so that finding similar shots over
            // a whole library (Tidy) reads one short column instead of parsing every analysis
            // record (faces and their descriptors included).
            try db.execute(sql: """
                ALTER TABLE asset ADD COLUMN phash TEXT;
                UPDATE asset SET phash = json_extract(analysis, '$.phash') WHERE analysis IS NOT NULL AND analysis_sha = sha256;
                """)
        }
    }
}
