import Foundation
import GRDB
import Testing
import TestSupport
@testable import PhotoLibrary

/// The generated albums are worked out from rows read once and kept compactly (issue 33: a first
/// scan of 1,000,000 assets held every decoded row, 795 MiB). The albums and the links a first
/// sync makes must be exactly those of the former way: every decoded row held, grouped by position.
@Suite(.serialized)
struct GeneratedAlbumsStreamTests {
    /// A library of `count` index rows and no files (the albums are worked out from the index):
    /// years over 16 years and undated ones, places (two whose folder names collide), people,
    /// screenshots, videos, and rows no generated album shows or that are in none.
    static func library(_ count: Int) throws -> (Library, Index) {
        let root = Scratch.root.appendingPathComponent("shoebox-albums-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let library = try Library.initialize(at: root)
        let index = try Index(library: library)
        let places: [(String?, String?)] = [("Lisbon", "Portugal"), ("Porto", "Portugal"), (nil, "Iceland"),
                                            ("Old/Town", "Malta"), ("Old-Town", "Malta"), (nil, nil)]
        let people = ["Ana", "Tom", "Zoë", "A/B", "A-B"]
        var seed: UInt64 = 7
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        try index.pool.write { db in
            for i in 0..<count {
                let dated = next(10) > 0
                let epoch = 1_262_304_000 + Double(i) * 90_000 + Double(next(4000))
                let year = dated ? 2010 + Int(epoch - 1_262_304_000) / 31_557_600 : nil
                let place = places[next(places.count)]
                let persons = (0..<next(3)).map { _ in people[next(people.count)] }
                let kind = ["photo", "photo", "photo", "photo", "screenshot", "video"][next(6)]
                let state = next(50) == 0 ? "missing" : "present"
                let id = UUID().uuidString.lowercased()
                let folder = year.map(String.init) ?? "Undated"
                try db.execute(sql: """
                    INSERT INTO asset (id, path, state, size, mtime_ns, inode, sha256, kind, format, width, height,
                        taken_at_epoch, year, city, country, persons, duplicate_of, live_photo_of, first_seen, metadata)
                    VALUES (?, ?, ?, 1000, 0, ?, ?, ?, 'jpeg', 10, 10, ?, ?, ?, ?, ?, ?, ?, 1.7e9, '{}')
                    """, arguments: [id, "\(folder)/Trip \(i / 100)/IMG_\(i).JPG", state, i + 1, String(format: "%064x", i), kind,
                                     dated ? epoch : nil, year, place.0, place.1,
                                     String(decoding: try JSONEncoder().encode(persons), as: UTF8.self),
                                     next(40) == 0 ? "someone" : nil, next(40) == 0 ? "a photo" : nil])
            }
        }
        return (library, index)
    }

    /// The former way, as it was: every row decoded and held, then grouped by its position among all.
    static func formerGenerated(_ linker: AlbumLinker, _ index: Index) throws -> [AlbumFolder] {
        let decoder = JSONDecoder()
        let rows: [AlbumLinker.Row] = try index.read { db in
            let cursor = try GRDB.Row.fetchCursor(db, sql: """
                SELECT \(AlbumLinker.Row.columns) FROM asset WHERE \(AlbumLinker.Row.shownInGeneratedAlbums)
                ORDER BY taken_at_epoch IS NULL, taken_at_epoch, path, id
                """)
            var rows: [AlbumLinker.Row] = []
            while let r = try cursor.next() { rows.append(AlbumLinker.Row(r, decoder)) }
            return rows
        }
        var groups: [(path: String, kind: AlbumFolder.Kind, title: String, rows: [Int])] = []
        var positionOfPath: [String: Int] = [:]
        var namer = GeneratedAlbumNamer()
        for (i, r) in rows.enumerated() {
            for a in namer.albums(of: r) {
                let g = positionOfPath[a.path] ?? groups.count
                if g == groups.count {
                    groups.append((a.path, a.kind, a.title, []))
                    positionOfPath[a.path] = g
                }
                if groups[g].rows.last != i { groups[g].rows.append(i) }
            }
        }
        return groups.map { g in
            linker.folder(path: g.path, kind: g.kind, title: g.title, members: g.rows.map { (rows[$0].id, rows[$0].path) }, albumID: nil)
        }
    }

    static func same(_ a: [AlbumFolder], _ b: [AlbumFolder]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in
            x.path == y.path && x.kind == y.kind && x.title == y.title && x.entries.count == y.entries.count
                && zip(x.entries, y.entries).allSatisfy {
                    $0.position == $1.position && $0.linkName == $1.linkName && $0.target == $1.target
                        && $0.id == $1.id && $0.assetPath == $1.assetPath
                }
        }
    }

    @Test func theAlbumsAndTheirLinksAreThoseTheFormerWayMade() throws {
        let (library, index) = try Self.library(6000)
        let linker = AlbumLinker(library: library, index: index)
        let former = try Self.formerGenerated(linker, index)
        let now = try linker.generated()
        #expect(former.count > 20, "years, places, people, screenshots, videos: \(former.map(\.path))")
        #expect(former.contains { $0.path == "Places/Old-Town, Malta" } && former.contains { $0.path == "People/A-B" })
        #expect(Self.same(now, former), "the albums differ: \(now.map(\.path)) \(former.map(\.path))")

        // A first sync (as a first scan's) makes exactly these links.
        let report = try linker.sync()
        #expect(report.problems.isEmpty, "\(report.problems)")
        for album in former {
            let want = Dictionary(uniqueKeysWithValues: album.entries.map { ($0.linkName, $0.target) })
            #expect(try linker.links(of: album.path) == want, "\(album.path)")
        }
    }

    /// A new album folder is written a batch of entries at a time, its digest hashed as they go
    /// (issue 33: a first scan held its largest album whole, a third of the library). In batches
    /// of 7, every album's links, and the digest its stamp keeps, are those of the album made
    /// whole; a second sync finds every folder as it should be and writes none.
    @Test func newFoldersWrittenInBatchesHoldTheWholeAlbumsLinks() throws {
        let (library, index) = try Self.library(2000)
        var linker = AlbumLinker(library: library, index: index)
        linker.entriesPerBatch = 7
        let former = Dictionary(uniqueKeysWithValues: try Self.formerGenerated(linker, index).map { ($0.path, $0) })
        #expect(former.values.contains { $0.entries.count > 100 }, "albums of many batches")
        var report = AlbumSyncReport()
        var written = 0
        try linker.withAlbumsOpen(creating: true) { linker in
            try linker.forEachGeneratedAlbum { album in
                let whole = try #require(former[album.path])
                #expect(Self.same([album.folder()], [whole]), "\(album.path)")
                #expect(album.digest() == AlbumLinker.digest(whole), "\(album.path)")
                let verified = try linker.verifyOrWrite(album, stamp: nil, &report)
                #expect(verified?.digest == AlbumLinker.digest(whole), "\(album.path): the digest hashed while writing")
                written += 1
            }
        }
        #expect(written == former.count && report.problems.isEmpty, "\(report.problems)")
        for album in former.values {
            let want = Dictionary(uniqueKeysWithValues: album.entries.map { ($0.linkName, $0.target) })
            #expect(try linker.links(of: album.path) == want, "\(album.path)")
        }
        let again = try linker.sync()
        #expect(again.foldersWritten == 0 && again.problems.isEmpty, "\(again.foldersWritten) folders written again")
    }

    /// A first scan's new folders are written on several threads at once (issue 33: the album
    /// pass was the scan's one-threaded tail). On 4 threads every album's links and digest are
    /// those of the album made whole, the report counts each folder once, in the albums' order, and
    /// an album whose folder appeared meanwhile is left to the ordinary check, which sets it right.
    @Test func newFoldersWrittenOnSeveralThreadsAreTheWholeAlbums() throws {
        let (library, index) = try Self.library(2000)
        var linker = AlbumLinker(library: library, index: index)
        linker.entriesPerBatch = 7
        let former = Dictionary(uniqueKeysWithValues: try Self.formerGenerated(linker, index).map { ($0.path, $0) })
        #expect(former.count > 8, "albums enough to share out: \(former.count)")
        var report = AlbumSyncReport()
        var verified: [String: AlbumLinker.Verification] = [:]
        var albums: [GeneratedAlbum] = []
        try linker.withAlbumsOpen(creating: true) { linker in
            try linker.forEachGeneratedAlbum { albums.append($0) }
            // One folder made by somebody else in the meantime, holding a file: not written over.
            let taken = try #require(albums.first { $0.path.hasPrefix("Years/") })
            let folder = library.root.appendingPathComponent("Albums/" + taken.path)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))
            try linker.writeNewFolders(albums, verified: &verified, &report, threads: 4)
        }
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.albumsComputed == former.count && report.foldersWritten == former.count, "\(report.foldersWritten)")
        #expect(report.movedAside.count == 1, "the file in the folder made meanwhile: \(report.movedAside)")
        for album in former.values {
            let want = Dictionary(uniqueKeysWithValues: album.entries.map { ($0.linkName, $0.target) })
            #expect(try linker.links(of: album.path) == want, "\(album.path)")
            #expect(verified[album.path]?.digest == AlbumLinker.digest(album), "\(album.path)")
        }
        let again = try linker.sync()
        #expect(again.foldersWritten == 0 && again.problems.isEmpty, "\(again.foldersWritten) folders written again")
    }

    /// An existing folder that no stamp vouches for (every generated folder at the first rescan
    /// after a first scan) is checked a batch at a time (issue 33: read whole into a table beside
    /// the album's entries, it held ~0.5 GB at 1,000,000 photos). Exactly right, it is left as it
    /// is, no link made again; a link pointing at another photo (as many entries as before), a
    /// link gone, or a file added is set right as a folder read whole was, the file moved aside.
    @Test func anExistingFolderIsCheckedInBatchesAndSetRightWhenItDiffers() throws {
        let (library, index) = try Self.library(2000)
        var linker = AlbumLinker(library: library, index: index)
        linker.entriesPerBatch = 7
        #expect(try linker.sync().problems.isEmpty)
        let albums = try linker.generated().filter { $0.entries.count > 30 }
        #expect(albums.count >= 4, "\(albums.map(\.path))")
        let fm = FileManager.default
        func url(_ album: AlbumFolder, _ name: String) -> URL {
            library.root.appendingPathComponent("Albums").appendingPathComponent(album.path).appendingPathComponent(name)
        }
        func inode(_ u: URL) throws -> Int { try fm.attributesOfItem(atPath: u.path)[.systemFileNumber] as? Int ?? -1 }
        let (retargeted, shortened, added, untouched) = (albums[0], albums[1], albums[2], albums[3])
        try fm.removeItem(at: url(retargeted, retargeted.entries[0].linkName))
        try fm.createSymbolicLink(atPath: url(retargeted, retargeted.entries[0].linkName).path,
                                  withDestinationPath: retargeted.entries[1].target)
        try fm.removeItem(at: url(shortened, shortened.entries[5].linkName))
        try Data("notes".utf8).write(to: url(added, "notes.txt"))
        let kept = try untouched.entries.map { try inode(url(untouched, $0.linkName)) }

        var report = AlbumSyncReport()
        try linker.withAlbumsOpen(creating: false) { linker in
            try linker.forEachGeneratedAlbum { album in
                let verified = try linker.verifyOrWrite(album, stamp: nil, &report)
                #expect(verified?.digest == album.digest(), "\(album.path)")
            }
        }
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.foldersWritten == 3, "only the three folders changed by hand are written: \(report.foldersWritten)")
        #expect(report.movedAside.map(\.0) == ["Albums/\(added.path)/notes.txt"], "\(report.movedAside)")
        for album in albums {
            let want = Dictionary(uniqueKeysWithValues: album.entries.map { ($0.linkName, $0.target) })
            #expect(try linker.links(of: album.path) == want, "\(album.path)")
        }
        #expect(try untouched.entries.map { try inode(url(untouched, $0.linkName)) } == kept, "a right folder's links are not made again")
    }

    /// `album list` orders generated albums by a table the album pass keeps (issue 33: sorting
    /// names through ICU at every listing cost ~3 MB of its start-up): kinds in their order, each
    /// by name as a file manager orders names; the same order with the table, without it, with a
    /// name the table does not know yet, and under another locale.
    @Test func theKeptListingOrderIsTheNameOrder() throws {
        let (library, index) = try Self.library(1500)
        let linker = AlbumLinker(library: library, index: index)
        let generated = try linker.generated()
        let ranks = [AlbumFolder.Kind.year, .place, .person, .screenshots, .videos]
        let byName = generated.sorted { a, b in
            let (ra, rb) = (ranks.firstIndex(of: a.kind)!, ranks.firstIndex(of: b.kind)!)
            return ra != rb ? ra < rb : a.path.localizedStandardCompare(b.path) == .orderedAscending
        }.map(\.path)
        #expect(try index.meta(AlbumLinker.listingOrderKey) == nil)
        #expect(linker.sortedForListing(generated).map(\.path) == byName, "no table yet: sorted by name")

        #expect(try linker.sync().problems.isEmpty)
        let kept = try #require(try index.metaJSON(AlbumLinker.listingOrderKey, as: AlbumLinker.ListingOrder.self))
        #expect(Set(generated.map(\.path)).isSubset(of: Set(kept.paths)), "every album's name is in the table")
        #expect(linker.sortedForListing(generated.reversed()).map(\.path) == byName)

        // The table is what orders a listing: a planted one (names reversed) is followed…
        try index.setMetaJSON(AlbumLinker.listingOrderKey, AlbumLinker.ListingOrder(locale: kept.locale, paths: kept.paths.reversed()))
        let planted = linker.sortedForListing(generated).map(\.path)
        #expect(planted != byName && planted.filter { $0.hasPrefix("People/") } == byName.filter { $0.hasPrefix("People/") }.reversed())
        // …but not for a name it lacks, nor under another locale: then names are compared.
        let lacking = kept.paths.filter { $0 != "People/Zoë" }
        try index.setMetaJSON(AlbumLinker.listingOrderKey, AlbumLinker.ListingOrder(locale: kept.locale, paths: lacking.reversed()))
        #expect(linker.sortedForListing(generated).map(\.path) == byName)
        try index.setMetaJSON(AlbumLinker.listingOrderKey, AlbumLinker.ListingOrder(locale: "elsewhere", paths: kept.paths.reversed()))
        #expect(linker.sortedForListing(generated).map(\.path) == byName)
        // The next pass puts the right table back.
        try index.setMeta(AlbumLinker.stampsKey, "")
        #expect(try linker.sync().problems.isEmpty)
        #expect(try index.metaJSON(AlbumLinker.listingOrderKey, as: AlbumLinker.ListingOrder.self) == kept)
    }

    /// `album list` and the web app's album list count albums without making their links (issue
    /// 33: 1.6 GB and 16 s at 1,000,000 photos): the same albums, in the same order, with the
    /// same counts, first photos, titles and ids as the albums made whole.
    @Test func summariesAreTheAlbumsMadeWholeCounted() throws {
        let (library, index) = try Self.library(1500)
        let linker = AlbumLinker(library: library, index: index)
        let ids = try index.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM asset WHERE state = 'present' ORDER BY path DESC LIMIT 5")
        }.map { AssetID(trusted: $0) }
        let gone = try #require(try index.read { db in try String.fetchOne(db, sql: "SELECT id FROM asset WHERE state = 'missing'") })
        #expect(try linker.sync().problems.isEmpty)
        _ = try linker.create(name: "Zebra trip", ids: ids)
        var album = try #require(UserAlbums(library: library).all().first)
        album.members.insert(AssetID(trusted: gone), at: 0)  // a member that is no longer present
        try UserAlbums(library: library).save(album)

        let whole = try linker.desired()
        let summaries = try linker.summaries()
        #expect(whole.count > 10 && whole.first?.kind == .user, "\(whole.count) albums")
        #expect(summaries.map(\.path) == whole.map(\.path))
        #expect(summaries.map(\.kind) == whole.map(\.kind) && summaries.map(\.title) == whole.map(\.title))
        #expect(summaries.map(\.count) == whole.map(\.entries.count))
        #expect(summaries.map(\.cover) == whole.map { $0.entries.first?.id })
        #expect(summaries.map(\.albumID) == whole.map(\.albumID))
        #expect(summaries.first?.count == 5 && summaries.first?.cover == ids.first, "the member not present is not counted")
    }

    /// A sync that recomputes only some albums (after recorded changes) reads only their rows:
    /// the albums it makes are the same as the whole pass's.
    @Test func theAlbumsOfSomePathsAreThoseOfTheWholePass() throws {
        let (library, index) = try Self.library(1500)
        let linker = AlbumLinker(library: library, index: index)
        let all = try linker.generated()
        let asked: Set<String> = ["Years/2012", "Places/Old-Town, Malta", "People/Zoë", "Videos"]
        var some: [AlbumFolder] = []
        try linker.forEachGenerated(only: asked) { some.append($0) }
        #expect(Set(some.map(\.path)) == asked)
        #expect(Self.same(some, all.filter { asked.contains($0.path) }))
    }
}

/// Live Photo pairing reads only the rows that can pair (issue 33: a first scan held every photo
/// row with its metadata decoded): exactly the former rows whose stem a video or RAW shares, in
/// the same order, so every pair it makes is the one the former way made.
struct LivePhotoPairingRowsTests {
    @Test func theRowsThatCanPairAreTheFormerRowsThatShareAStemWithAVideoOrRaw() throws {
        let (_, index, _, _) = try LibraryTests.scannedSample()
        let (former, now) = try index.read { db in
            let all = try GRDB.Row.fetchAll(db, sql: PairRow.query).map { r -> (String, String, String) in (r[0], r[1], r[2]) }
            return (all, try PairRow.fetch(db))
        }
        let stems = Set(former.filter { $0.2 == "mov" || $0.2 == "raw" }.map { PairRow.stemKey(of: $0.1) })
        let expected = former.filter { stems.contains(PairRow.stemKey(of: $0.1)) }
        #expect(!stems.isEmpty && expected.count < former.count, "the sample has Live Photos and photos of their own")
        #expect(now.map(\.id.rawValue) == expected.map(\.0))
        #expect(now.map(\.path) == expected.map(\.1))
        // And the pairs are there: every video half of the sample points to its photo.
        let paired = try index.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset WHERE live_photo_of IS NOT NULL") ?? 0 }
        #expect(paired > 0)
    }
}
