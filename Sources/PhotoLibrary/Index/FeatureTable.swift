import Foundation
import GRDB

/// A feature module's own table in the index: Codable records under a string key, each
/// optionally tied to an asset (and forgotten with it when the asset is purged).
///
/// A feature declares its tables in its `LibraryFeature` (or an `IndexSchema` given to `Index`);
/// the index then creates each by a named migration (`feature:<name>:v<version>`), so a library
/// gains a feature's table the first time a Shoebox with that feature opens it, and a feature
/// never writes SQL: it reads through `Index.records(in:as:)` and writes through
/// `AssetWriter.put`/`remove`. The index is a cache: keep in these tables what the feature can
/// compute again (analysis results); the truth goes into sidecar fields (`AssetWriter.setFeature`)
/// or the feature's own files.
public struct FeatureTable: Hashable, Sendable {
    /// Lower-case letters, digits and `_`; the SQL table is `feature_<name>`.
    public let name: String
    /// Bump to drop and recreate the table (its records are a cache) when the record shape changes.
    public let version: Int

    public init(_ name: String, version: Int = 1) {
        precondition(FeatureFields.isValidName(name), "feature table names are lower-case letters, digits and _")
        self.name = name
        self.version = max(1, version)
    }

    var sqlName: String { "feature_" + name }

    func register(in migrator: inout DatabaseMigrator) {
        let table = sqlName
        migrator.registerMigration("feature:\(name):v\(version)") { db in
            try db.execute(sql: """
                DROP TABLE IF EXISTS \(table);
                CREATE TABLE \(table) (
                    key TEXT PRIMARY KEY NOT NULL,
                    asset_id TEXT,
                    body TEXT NOT NULL,
                    updated_at REAL NOT NULL
                );
                CREATE INDEX \(table)_asset ON \(table)(asset_id) WHERE asset_id IS NOT NULL;
                """)
        }
    }
}

/// One record of a feature table.
public struct FeatureRecord<Value: Codable & Sendable>: Sendable {
    public var key: String
    public var assetID: AssetID?
    public var value: Value

    public init(key: String, assetID: AssetID? = nil, value: Value) {
        self.key = key
        self.assetID = assetID
        self.value = value
    }
}

extension Index {
    /// Every record of `table`, by key; or only those tied to `assetID`.
    public func records<Value: Codable & Sendable>(in table: FeatureTable, as type: Value.Type,
                                                   assetID: AssetID? = nil) throws -> [FeatureRecord<Value>] {
        try checkRegistered(table)
        let decoder = ShoeboxJSON.makeDecoder()
        return try read { db in
            let rows: [Row]
            if let assetID {
                rows = try Row.fetchAll(db, sql: "SELECT key, asset_id, body FROM \(table.sqlName) WHERE asset_id = ? ORDER BY key",
                                        arguments: [assetID.rawValue])
            } else {
                rows = try Row.fetchAll(db, sql: "SELECT key, asset_id, body FROM \(table.sqlName) ORDER BY key")
            }
            return try rows.map { r in
                let body: String = r[2]
                return FeatureRecord(key: r[0], assetID: (r[1] as String?).map(AssetID.init(trusted:)),
                                     value: try decoder.decode(Value.self, from: Data(body.utf8)))
            }
        }
    }

    /// The record under `key`, or nil.
    public func record<Value: Codable & Sendable>(_ key: String, in table: FeatureTable, as type: Value.Type) throws -> Value? {
        try checkRegistered(table)
        guard let body = try read({ db in
            try String.fetchOne(db, sql: "SELECT body FROM \(table.sqlName) WHERE key = ?", arguments: [key])
        }) else { return nil }
        return try ShoeboxJSON.makeDecoder().decode(Value.self, from: Data(body.utf8))
    }

    func putRecords<Value: Codable & Sendable>(_ records: [FeatureRecord<Value>], in table: FeatureTable, now: Date) throws {
        try checkRegistered(table)
        let encoder = ShoeboxJSON.makeEncoder(pretty: false)
        let bodies = try records.map { String(decoding: try encoder.encode($0.value), as: UTF8.self) }
        try write { db in
            for (r, body) in zip(records, bodies) {
                try db.execute(sql: """
                    INSERT OR REPLACE INTO \(table.sqlName) (key, asset_id, body, updated_at) VALUES (?, ?, ?, ?)
                    """, arguments: [r.key, r.assetID?.rawValue, body, now.timeIntervalSince1970])
            }
        }
    }

    func removeRecords(_ keys: [String], in table: FeatureTable) throws {
        try checkRegistered(table)
        try write { db in
            for key in keys { try db.execute(sql: "DELETE FROM \(table.sqlName) WHERE key = ?", arguments: [key]) }
        }
    }

    /// Records of every table of this index's schema tied to these assets (they were purged).
    func removeRecords(ofAssets ids: [AssetID], _ db: Database) throws {
        for table in schema.tables {
            for id in ids {
                try db.execute(sql: "DELETE FROM \(table.sqlName) WHERE asset_id = ?", arguments: [id.rawValue])
            }
        }
    }

    private func checkRegistered(_ table: FeatureTable) throws {
        guard schema.tables.contains(table) else {
            throw ShoeboxError(.index, "feature table \(table.name) v\(table.version) is not in this index's schema; open the index with it (IndexSchema, LibraryFeature.tables)")
        }
    }
}
