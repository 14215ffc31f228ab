import Foundation
import GRDB

// What the albums should hold: generated albums from the index, user albums from their files,
// each as the `AlbumFolder` its links should make.

extension AlbumLinker {
    /// What the generated albums need to know of one asset.
    struct Row {
        var id: AssetID
        var path: String
        var year: Int?
        var kind: AssetKind
        var place: Place?
        var persons: [String]
    }

    /// Every album as it should be now (user albums first, then generated ones).
    public func desired() throws -> [AlbumFolder] {
        let paths = try presentPaths()
        return UserAlbums(library: library).all().map { folder(for: $0, presentPaths: paths) } + (try generated())
    }

    /// Generated albums, in capture order. Duplicates and the video halves of Live Photos are
    /// left out (the photo stands for its Live Photo).
    func generated() throws -> [AlbumFolder] {
        var out: [AlbumFolder] = []
        try forEachGenerated { out.append($0) }
        return out
    }

    /// The albums of `generated()`, in its order, one at a time: the links of only one album
    /// exist at once, however large the library.
    func forEachGenerated(_ body: (AlbumFolder) throws -> Void) throws {
        let rows = try generatedRows()
        for group in AlbumLinker.groupGenerated(rows) {
            try body(folder(path: group.path, kind: group.kind, title: group.title,
                            members: group.rows.map { (rows[$0].id, rows[$0].path) }, albumID: nil))
        }
    }

    /// The present assets that generated albums show, in capture order.
    func generatedRows() throws -> [Row] {
        let decoder = JSONDecoder()
        return try index.read { db in
            // A cursor, not fetchAll: one row object reused, not one copy per asset.
            let cursor = try GRDB.Row.fetchCursor(db, sql: """
                SELECT id, path, year, kind, city, country, persons FROM asset
                WHERE state = 'present' AND live_photo_of IS NULL AND duplicate_of IS NULL
                ORDER BY taken_at_epoch IS NULL, taken_at_epoch, path, id
                """)
            var rows: [Row] = []
            while let r = try cursor.next() {
                let city: String? = r[4], country: String? = r[5]
                let personsJSON: String = r[6]
                // Most photos name nobody: skip the decoder for "[]".
                let persons = personsJSON == "[]" ? [] : (try? decoder.decode([String].self, from: Data(personsJSON.utf8))) ?? []
                rows.append(Row(id: AssetID(trusted: r[0]), path: r[1], year: r[2], kind: AssetKind(rawValue: r[3]) ?? .photo,
                                place: (city == nil && country == nil) ? nil : Place(city: city, country: country), persons: persons))
            }
            return rows
        }
    }

    /// One generated album: its folder under `Albums/` and its members as positions in the rows.
    struct GeneratedGroup {
        var path: String
        var kind: AlbumFolder.Kind
        var title: String
        var rows: [Int]
    }

    /// The generated albums the rows make, in the order their first member comes.
    static func groupGenerated(_ rows: [Row]) -> [GeneratedGroup] {
        var groups: [GeneratedGroup] = []
        var positionOfPath: [String: Int] = [:]
        func add(_ path: String, _ kind: AlbumFolder.Kind, _ title: String, _ row: Int) {
            let g = positionOfPath[path] ?? groups.count
            if g == groups.count {
                groups.append(GeneratedGroup(path: path, kind: kind, title: title, rows: []))
                positionOfPath[path] = g
            }
            if groups[g].rows.last != row { groups[g].rows.append(row) }
        }
        // Folder names are cleaned once per name, not once per photo.
        var placeFolders: [String: String] = [:]
        var personFolders: [String: String] = [:]
        for (i, r) in rows.enumerated() {
            if let y = r.year { add("Years/\(y)", .year, String(y), i) }
            if let label = r.place?.label, !label.isEmpty {
                let folder = placeFolders[label] ?? "Places/" + SafeName.folder(label, fallback: "Unknown place")
                placeFolders[label] = folder
                add(folder, .place, label, i)
            }
            for p in r.persons {
                let folder = personFolders[p] ?? "People/" + SafeName.folder(p, fallback: "Unnamed")
                personFolders[p] = folder
                add(folder, .person, p, i)
            }
            if r.kind == .screenshot { add("Screenshots", .screenshots, "Screenshots", i) }
            if r.kind == .video { add("Videos", .videos, "Videos", i) }
        }
        return groups
    }

    /// A user album's folder: its present members in album order.
    func folder(for album: UserAlbum, presentPaths: [AssetID: String]) -> AlbumFolder {
        folder(path: album.folder, kind: .user, title: album.name,
               members: album.members.compactMap { id in presentPaths[id].map { (id, $0) } }, albumID: album.id)
    }

    /// An album's links: "001 NAME" onwards, each relative from the album folder to its original.
    func folder(path: String, kind: AlbumFolder.Kind, title: String, members: [(AssetID, String)], albumID: String?) -> AlbumFolder {
        let width = SafeName.positionWidth(for: members.count)
        let up = String(repeating: "../", count: path.split(separator: "/").count + 1)
        var names = Set<String>()
        var entries: [AlbumFolder.Entry] = []
        for (i, m) in members.enumerated() {
            let fileName = m.1.lastIndex(of: "/").map { String(m.1[m.1.index(after: $0)...]) } ?? m.1
            var name = SafeName.link(position: i + 1, width: width, fileName: fileName)
            // Positions make names unique; this only guards against a name cut short to 255 bytes.
            var n = 2
            while !names.insert(name).inserted {
                name = SafeName.link(position: i + 1, width: width, fileName: "\(n) " + fileName)
                n += 1
            }
            entries.append(.init(position: i + 1, linkName: name, target: up + m.1, id: m.0, assetPath: m.1))
        }
        return AlbumFolder(path: path, kind: kind, title: title, entries: entries, albumID: albumID)
    }

    /// The path of every present asset, by id.
    func presentPaths() throws -> [AssetID: String] {
        try index.read { db in
            var out: [AssetID: String] = [:]
            for r in try GRDB.Row.fetchAll(db, sql: "SELECT id, path FROM asset WHERE state = 'present'") {
                out[AssetID(trusted: r[0])] = r[1]
            }
            return out
        }
    }

    /// `presentPaths()` of these ids only (the members of user albums): no pass over the whole index.
    func presentPaths(of ids: Set<AssetID>) throws -> [AssetID: String] {
        guard !ids.isEmpty else { return [:] }
        let all = Array(ids)
        return try index.read { db in
            var out: [AssetID: String] = [:]
            // Chunked to stay under SQLite's parameter limit.
            for start in stride(from: 0, to: all.count, by: 500) {
                let chunk = all[start..<min(all.count, start + 500)]
                for r in try GRDB.Row.fetchAll(db, sql: """
                    SELECT id, path FROM asset WHERE id IN (\(chunk.map { _ in "?" }.joined(separator: ","))) AND state = 'present'
                    """, arguments: StatementArguments(chunk.map(\.rawValue))) {
                    out[AssetID(trusted: r[0])] = r[1]
                }
            }
            return out
        }
    }
}
