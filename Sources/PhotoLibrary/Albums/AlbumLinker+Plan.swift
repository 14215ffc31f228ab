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

        /// The columns `init(_:_:)` reads, in its order.
        static let columns = "id, path, year, kind, city, country, persons"
        /// The assets generated albums show: present, neither a duplicate nor a Live Photo's video.
        static let shownInGeneratedAlbums = "state = 'present' AND live_photo_of IS NULL AND duplicate_of IS NULL"
    }

    /// Every album as it should be now (user albums first, then generated ones), every link made:
    /// the tests' reference for `summaries()`, the doctor's album check and the streamed passes
    /// (nothing in Shoebox calls it — at 1,000,000 photos it held 1.6 GB). In the order `album
    /// list` and the web app show them (issue 32: years, places and people were interleaved in
    /// capture order): the user's albums, then years (oldest first), places, people, screenshots
    /// and videos, each kind by name.
    func desired() throws -> [AlbumFolder] {
        let paths = try presentPaths()
        let generated = sortedForListing(try generated())
        return UserAlbums(library: library).all().map { folder(for: $0, presentPaths: paths) } + generated
    }

    static func listingRank(_ kind: AlbumFolder.Kind) -> Int {
        switch kind {
        case .user: 0
        case .year: 1
        case .place: 2
        case .person: 3
        case .screenshots: 4
        case .videos: 5
        }
    }

    /// Generated albums, in capture order. Duplicates and the video halves of Live Photos are
    /// left out (the photo stands for its Live Photo).
    func generated() throws -> [AlbumFolder] {
        var out: [AlbumFolder] = []
        try forEachGenerated { out.append($0) }
        return out
    }

    /// The albums of `generated()`, in its order, one at a time: the links of only one album
    /// exist at once, however large the library. `only`: just these album paths (see
    /// `AlbumChanges`), and only the rows that can be in them are read.
    /// The rows are read once, through a cursor; what is kept of each is its id and path in one
    /// byte buffer (`GeneratedMembers`) and its place in each album: ~100 bytes an asset, where
    /// decoded rows cost ~4 times that (795 MiB at 1,000,000 assets, issue 33).
    func forEachGenerated(only: Set<String>? = nil, _ body: (AlbumFolder) throws -> Void) throws {
        try forEachGeneratedAlbum(only: only) { try body($0.folder()) }
    }

    /// `forEachGenerated` without the entries made: each album's members stay positions among
    /// the rows kept until its links are written, a batch at a time (`GeneratedAlbum`), so a
    /// first sync's memory does not grow with the largest album (a third of the library in one
    /// place, issue 33).
    func forEachGeneratedAlbum(only: Set<String>? = nil, _ body: (GeneratedAlbum) throws -> Void) throws {
        if let only, only.isEmpty { return }
        let (members, groups) = try generatedGroups(only: only)
        for group in groups {
            try body(GeneratedAlbum(path: group.path, kind: group.kind, title: group.title, rows: group.rows, members: members,
                                    batchSize: entriesPerBatch))
        }
    }

    /// The present assets that generated albums show, in capture order, grouped into their
    /// albums as they come; with `only`, just those that can be in one of these albums.
    func generatedGroups(only: Set<String>? = nil) throws -> (GeneratedMembers, [GeneratedGroup]) {
        let decoder = JSONDecoder()
        return try index.read { db in
            // A cursor, not fetchAll: one row object reused, not one copy per asset.
            let cursor = try GRDB.Row.fetchCursor(db, sql: """
                SELECT \(Row.columns) FROM asset
                WHERE \(Row.shownInGeneratedAlbums) \(only.map(AlbumLinker.rowsThatCanBeIn) ?? "")
                ORDER BY taken_at_epoch IS NULL, taken_at_epoch, path, id
                """)
            var members = GeneratedMembers()
            if only == nil {
                // Room for every asset at once: grown by doubling instead, the buffer's last copy
                // held the old and the new at once (~2× its bytes at a million assets); room never
                // written to costs no memory.
                members.reserve(try Int.fetchOne(db, sql: "SELECT count(*) FROM asset") ?? 0)
            }
            var grouping = GeneratedGrouping(only: only)
            while let r = try cursor.next() {
                let row = Row(r, decoder)
                if grouping.add(row, position: members.count) { members.append(row.id, row.path) }
            }
            return (members, grouping.groups)
        }
    }

    /// An SQL condition (`AND (…)`) that keeps the rows that can be in one of `albums`, so that
    /// a few changed albums do not cost a decoded row per asset.
    static func rowsThatCanBeIn(_ albums: Set<String>) -> String {
        var terms: [String] = []
        let years = albums.compactMap { $0.hasPrefix("Years/") ? Int($0.dropFirst(6)) : nil }
        if !years.isEmpty { terms.append("year IN (\(years.map(String.init).joined(separator: ",")))") }
        if albums.contains(where: { $0.hasPrefix("Places/") }) { terms.append("city IS NOT NULL OR country IS NOT NULL") }
        if albums.contains(where: { $0.hasPrefix("People/") }) { terms.append("persons != '[]'") }
        if albums.contains("Screenshots") { terms.append("kind = '\(AssetKind.screenshot.rawValue)'") }
        if albums.contains("Videos") { terms.append("kind = '\(AssetKind.video.rawValue)'") }
        return terms.isEmpty ? "AND 0" : "AND (" + terms.map { "(\($0))" }.joined(separator: " OR ") + ")"
    }

    /// One generated album: its folder under `Albums/` and its members as positions in the rows.
    struct GeneratedGroup {
        var path: String
        var kind: AlbumFolder.Kind
        var title: String
        var rows: [Int32]
    }

    /// The generated albums the rows make, in the order their first member comes; with `only`,
    /// just those albums.
    static func groupGenerated(_ rows: [Row], only: Set<String>? = nil) -> [GeneratedGroup] {
        var grouping = GeneratedGrouping(only: only)
        var position = 0
        for r in rows where grouping.add(r, position: position) { position += 1 }
        return grouping.groups
    }

    /// A user album's folder: its present members in album order.
    func folder(for album: UserAlbum, presentPaths: [AssetID: String]) -> AlbumFolder {
        folder(path: album.folder, kind: .user, title: album.name,
               members: album.members.compactMap { id in presentPaths[id].map { (id, $0) } }, albumID: album.id)
    }

    /// An album's links: "001 NAME" onwards, each relative from the album folder to its original.
    func folder(path: String, kind: AlbumFolder.Kind, title: String, members: [(AssetID, String)], albumID: String?) -> AlbumFolder {
        let shape = LinkShape(albumPath: path, count: members.count)
        let entries = members.enumerated().map { shape.entry(position: $0.offset + 1, id: $0.element.0, path: $0.element.1) }
        return AlbumFolder(path: path, kind: kind, title: title, entries: entries, albumID: albumID)
    }

    /// What every link of one album shares: the width of its positions and the climb out of it.
    struct LinkShape {
        let width: Int
        let up: String

        init(albumPath: String, count: Int) {
            width = SafeName.positionWidth(for: count)
            up = String(repeating: "../", count: albumPath.split(separator: "/").count + 1)
        }

        /// The link at `position` (from 1) to the asset `id` at `path`. Names are unique within an
        /// album without a table of them: each starts with its own position, which `SafeName.link`
        /// never cuts (only the file name is shortened to fit 255 bytes).
        func entry(position: Int, id: AssetID, path: String) -> AlbumFolder.Entry {
            let fileName = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
            let name = SafeName.link(position: position, width: width, fileName: fileName)
            return .init(position: position, linkName: name, target: up + path, id: id, assetPath: path)
        }
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

extension AlbumLinker.Row {
    /// A row of `SELECT \(columns)`.
    init(_ r: GRDB.Row, _ decoder: JSONDecoder) {
        let city: String? = r[4], country: String? = r[5]
        let personsJSON: String = r[6]
        // Most photos name nobody: skip the decoder for "[]".
        let persons = personsJSON == "[]" ? [] : (try? decoder.decode([String].self, from: Data(personsJSON.utf8))) ?? []
        self.init(id: AssetID(trusted: r[0]), path: r[1], year: r[2], kind: AssetKind(rawValue: r[3]) ?? .photo,
                  place: (city == nil && country == nil) ? nil : Place(city: city, country: country), persons: persons)
    }
}

/// The generated albums of rows given one at a time in capture order: each album in the order its
/// first member came, its members as positions among the rows kept.
struct GeneratedGrouping {
    private(set) var groups: [AlbumLinker.GeneratedGroup] = []
    private var positionOfPath: [String: Int] = [:]
    private var namer = GeneratedAlbumNamer()
    private let only: Set<String>?

    init(only: Set<String>?) { self.only = only }

    /// Puts the row at `position` into its albums; false when it is in none (then it need not be
    /// kept, and the next row takes this position).
    mutating func add(_ r: AlbumLinker.Row, position: Int) -> Bool {
        var kept = false
        for a in namer.albums(of: r) where only?.contains(a.path) ?? true {
            let g = positionOfPath[a.path] ?? groups.count
            if g == groups.count {
                groups.append(AlbumLinker.GeneratedGroup(path: a.path, kind: a.kind, title: a.title, rows: []))
                positionOfPath[a.path] = g
            }
            if groups[g].rows.last != Int32(position) { groups[g].rows.append(Int32(position)) }
            kept = true
        }
        return kept
    }
}

/// The id and path of each asset of the generated albums, as UTF-8 in one buffer: two strings of
/// ~40 bytes each, without a String's allocation per string (and per row).
struct GeneratedMembers {
    private var bytes: [UInt8] = []
    /// Where each id ends, then where its path ends, for each member in turn.
    private var ends: [Int] = []

    var count: Int { ends.count / 2 }

    /// Room for `count` members of typical length (an id of 36 bytes, a path of up to ~90).
    mutating func reserve(_ count: Int) {
        bytes.reserveCapacity(count * 128)
        ends.reserveCapacity(count * 2)
    }

    mutating func append(_ id: AssetID, _ path: String) {
        bytes += id.rawValue.utf8
        ends.append(bytes.count)
        bytes += path.utf8
        ends.append(bytes.count)
    }

    subscript(i: Int) -> (AssetID, String) {
        let start = i == 0 ? 0 : ends[2 * i - 1]
        let idEnd = ends[2 * i], pathEnd = ends[2 * i + 1]
        return bytes.withUnsafeBufferPointer { b in
            (AssetID(trusted: String(decoding: UnsafeBufferPointer(rebasing: b[start..<idEnd]), as: UTF8.self)),
             String(decoding: UnsafeBufferPointer(rebasing: b[idEnd..<pathEnd]), as: UTF8.self))
        }
    }
}
