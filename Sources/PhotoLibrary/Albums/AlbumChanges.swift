import Foundation
import GRDB

/// The generated album folders that index writes touched since the last album pass: what lets
/// a sync after a few changes recompute those folders only, not every album of the library.
///
/// Kept in the index (`meta`), beside the stamps, and extended by the same transaction as each
/// write of the `asset` table (`Index.save`, `Index.delete`): the folders an asset was in before
/// the write and those it is in after. The record holds only while it is unbroken: `through`
/// is the generation after the last write it saw, so a write that did not record (another
/// version of Shoebox, a hand-made change) leaves it behind the index, and the next sync makes a
/// full pass, which starts a new record.
struct AlbumChanges: Codable, Equatable {
    /// The generation the last album pass left the albums at…
    var since: String
    /// …and the generation after the last write recorded here.
    var through: String
    /// Paths under `Albums/` to look at again: albums whose members may have changed, and
    /// folders the last pass could not stamp yet (see `AlbumLinker.Stamps`).
    var folders: Set<String>
    /// Every generated album the last pass left (its paths under `Albums/`).
    var albums: Set<String>

    static let key = "album_changes"

    /// Whether every write since the pass that `stamps` describe is recorded here.
    func continues(_ stamps: AlbumLinker.Stamps, at generation: String) -> Bool {
        since == stamps.generation && through == generation
    }
}

/// The folder names of generated albums, cleaned once per place or person, not once per photo.
struct GeneratedAlbumNamer {
    private var placeFolders: [String: String] = [:]
    private var personFolders: [String: String] = [:]

    /// The generated albums a present asset that is neither a duplicate nor a Live Photo's video
    /// belongs to: its year, its place, each person, Screenshots or Videos.
    mutating func albums(of r: AlbumLinker.Row) -> [(path: String, kind: AlbumFolder.Kind, title: String)] {
        var out: [(path: String, kind: AlbumFolder.Kind, title: String)] = []
        if let y = r.year { out.append(("Years/\(y)", .year, String(y))) }
        if let label = r.place?.label, !label.isEmpty {
            let folder = placeFolders[label] ?? "Places/" + SafeName.folder(label, fallback: "Unknown place")
            placeFolders[label] = folder
            out.append((folder, .place, label))
        }
        for p in r.persons {
            let folder = personFolders[p] ?? "People/" + SafeName.folder(p, fallback: "Unnamed")
            personFolders[p] = folder
            out.append((folder, .person, p))
        }
        if r.kind == .screenshot { out.append(("Screenshots", .screenshots, "Screenshots")) }
        if r.kind == .video { out.append(("Videos", .videos, "Videos")) }
        return out
    }
}

/// Records, inside a write transaction, the album folders the written assets leave and join.
/// Nil when no unbroken record is kept (before the first album pass, or after a write that did
/// not record): then nothing is read per asset.
struct AlbumChangeRecorder {
    private var changes: AlbumChanges
    private let generation: String
    private var namer = GeneratedAlbumNamer()
    private let decoder = JSONDecoder()

    /// Call after the transaction's `bumpGeneration`.
    init?(_ db: Database) throws {
        guard let text = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [AlbumChanges.key]),
              let changes = try? JSONDecoder().decode(AlbumChanges.self, from: Data(text.utf8)),
              let now = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'generation'"),
              let through = Int(changes.through), Int(now) == through + 1 else { return nil }
        self.changes = changes
        self.generation = now
    }

    /// Before `asset` is written: the albums its old row was in, and those of a present asset
    /// its path displaces; after: the albums it will be in.
    mutating func willSave(_ asset: Asset, _ db: Database) throws {
        try recordRows(db, "id = ?", [asset.id.rawValue])
        guard asset.state == .present else { return }
        try recordRows(db, "path = ? AND id != ?", [asset.path, asset.id.rawValue])
        guard asset.duplicateOf == nil, asset.livePhotoOf == nil else { return }
        let row = AlbumLinker.Row(id: asset.id, path: asset.path, year: asset.takenAt?.year, kind: asset.kind,
                                  place: asset.place, persons: asset.persons)
        for a in namer.albums(of: row) { changes.folders.insert(a.path) }
    }

    /// Before the asset `id` is deleted: the albums it was in.
    mutating func willDelete(_ id: AssetID, _ db: Database) throws {
        try recordRows(db, "id = ?", [id.rawValue])
    }

    /// Stores the record, now current with this transaction's generation.
    mutating func save(_ db: Database) throws {
        changes.through = generation
        let text = String(decoding: try JSONEncoder().encode(changes), as: UTF8.self)
        try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [AlbumChanges.key, text])
    }

    /// The albums of the rows that match `condition` and that generated albums show.
    private mutating func recordRows(_ db: Database, _ condition: String, _ arguments: StatementArguments) throws {
        let statement = try db.cachedStatement(sql: """
            SELECT \(AlbumLinker.Row.columns) FROM asset WHERE \(AlbumLinker.Row.shownInGeneratedAlbums) AND \(condition)
            """)
        let cursor = try GRDB.Row.fetchCursor(statement, arguments: arguments)
        while let r = try cursor.next() {
            for a in namer.albums(of: AlbumLinker.Row(r, decoder)) { changes.folders.insert(a.path) }
        }
    }
}
