import Foundation
import GRDB
import Metadata
import Testing
import TestSupport
@testable import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// What makes large libraries fast must not change a byte or a behaviour: the hand-written
/// reader of the index's metadata, the hand-written `list --json` writer, and the album stamps
/// that let a sync skip folders nothing touched.
@Suite(.serialized)
struct ScaleTests {
    // MARK: MetadataJSON = JSONDecoder

    static let metadataDocuments: [String] = [
        #"{"faces":[],"format":"jpeg","orientation":1,"persons":[],"pixelHeight":10,"pixelWidth":20}"#,
        #"{"faces":[{"h":0.3961,"name":"Ana","w":0.3961,"x":0.5965499999999999,"y":0.034649999999999986}],"format":"heic","gps":{"lat":64.13688,"lon":-21.891009999999998},"make":"Apple","model":"iPhone 15 Pro","orientation":6,"persons":["Ana"],"pixelHeight":290,"pixelWidth":264,"takenAt":{"date":"2019-08-29T12:22:21.326Z","source":"exif","utcOffsetSeconds":0}}"#,
        #"{"duration":2,"faces":[],"format":"mov","orientation":1,"persons":[],"pixelHeight":360,"pixelWidth":640,"software":"Lavf59.27.100","takenAt":{"date":"2019-08-29T12:22:21.000Z","source":"container","utcOffsetSeconds":-34200}}"#,
        // Escapes, non-ASCII, a face without a name, nulls, unknown keys, white space, exponents.
        #"{ "faces" : [ {"h":1e-3,"w":2.5E2,"x":-0,"y":0.0} ], "format":"png", "city":"Reykjav\u00edk \"old\"\\town\/\n", "country":"🇮🇸 Ísland", "make":null, "orientation":3, "persons":["Zo\u00eb","Ana\tB"], "pixelHeight":1, "pixelWidth":1, "takenAt":{"date":"2024-05-01T10:11:12.000Z","source":"filename","utcOffsetSeconds":null}, "future":{"a":[1,true,false,null,"x"]}, "duration":null }"#,
        // A date in another ISO 8601 spelling (parsed by the fallback parser).
        #"{"faces":[],"format":"jpeg","orientation":1,"persons":[],"pixelHeight":10,"pixelWidth":20,"takenAt":{"date":"2024-05-01T10:11:12Z","source":"xmp"}}"#,
        // Things the fast reader leaves to JSONDecoder: a duplicate key, an integer written as 1.0,
        // a surrogate pair, an escaped key.
        #"{"faces":[],"format":"jpeg","format":"png","orientation":1,"persons":[],"pixelHeight":10,"pixelWidth":20}"#,
        #"{"faces":[],"format":"jpeg","orientation":1.0,"persons":[],"pixelHeight":10,"pixelWidth":20}"#,
        #"{"faces":[],"format":"jpeg","orientation":1,"persons":["\ud83d\ude00"],"pixelHeight":10,"pixelWidth":20}"#,
        #"{"faces":[],"form\u0061t":"jpeg","orientation":1,"persons":[],"pixelHeight":10,"pixelWidth":20}"#,
        // The file's own keywords (Derivation 5), and null as an older writer's nil.
        #"{"faces":[],"format":"jpeg","keywords":["tram","Lisbon"],"orientation":1,"persons":[],"pixelHeight":10,"pixelWidth":20}"#,
        #"{"faces":[],"format":"jpeg","keywords":null,"orientation":1,"persons":[],"pixelHeight":10,"pixelWidth":20}"#,
    ]

    static func reference(_ text: String) -> MediaMetadata? {
        try? ShoeboxJSON.makeDecoder().decode(MediaMetadata.self, from: Data(text.utf8))
    }

    /// A listing reads the index through the fast reader: keywords must not be skipped as unknown.
    @Test func theFastReaderKeepsTheFilesOwnKeywords() {
        let m = MetadataJSON.decode(Self.metadataDocuments[Self.metadataDocuments.count - 2])
        #expect(m?.keywords == ["tram", "Lisbon"])
    }

    @Test(arguments: metadataDocuments)
    func theFastReaderAgreesWithJSONDecoder(document: String) {
        let expected = Self.reference(document)
        #expect(expected != nil, "the reference decodes every document here")
        if let fast = MetadataJSON.decode(document) { #expect(fast == expected) }
    }

    @Test(arguments: [
        #"{"faces":[],"orientation":1,"persons":[],"pixelHeight":10,"pixelWidth":20}"#,  // no format
        #"{"faces":[],"format":"gif","orientation":1,"persons":[],"pixelHeight":10,"pixelWidth":20}"#,
        #"{"faces":[],"format":"jpeg","orientation":"1","persons":[],"pixelHeight":10,"pixelWidth":20}"#,
        #"{"faces":[],"format":"jpeg","orientation":1,"persons":[],"pixelHeight":10,"pixelWidth":20"#,
        #"{"faces":[],"format":"jpeg","orientation":1,"persons":[],"pixelHeight":10,"pixelWidth":20} x"#,
        #"{"faces":[{"h":1,"w":1,"x":1}],"format":"jpeg","orientation":1,"persons":[],"pixelHeight":10,"pixelWidth":20}"#,
        #"{"faces":[],"format":"jpeg","orientation":1,"persons":[],"pixelHeight":10,"pixelWidth":99999999999999999999}"#,
        #"{"faces":[],"format":"jpeg","orientation":1,"persons":[],"pixelHeight":10,"pixelWidth":20,"takenAt":{"date":"yesterday","source":"exif"}}"#,
        #"{"faces":[],"format":"jpeg","gps":{"lat":1e999,"lon":0},"orientation":1,"persons":[],"pixelHeight":10,"pixelWidth":20}"#,
    ])
    func whatJSONDecoderRefusesTheFastReaderDoesNotVouchFor(document: String) {
        if Self.reference(document) == nil { #expect(MetadataJSON.decode(document) == nil) }
    }

    @Test func everyAssetOfTheSampleReadsBackAsJSONDecoderReadsIt() throws {
        let (_, index, _, _) = try LibraryTests.scannedSample()
        let rows = try index.pool.read { db in try String.fetchAll(db, sql: "SELECT metadata FROM asset") }
        #expect(rows.count > 50)
        for text in rows {
            let fast = MetadataJSON.decode(text)
            #expect(fast != nil, "ShoeboxJSON's own output takes the fast path: \(text)")
            #expect(fast == Self.reference(text))
        }
    }

    // MARK: JSONStreamWriter = JSONEncoder

    static func encoded(_ items: [AssetJSON]) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return Array(try encoder.encode(items))
    }

    static func written(_ items: [AssetJSON]) throws -> [UInt8] {
        var out: [UInt8] = []
        let writer = JSONStreamWriter { out += $0 }
        writer.beginArray()
        for item in items { try writer.append(item) }
        writer.endArray()
        writer.flush()
        #expect(try JSONStreamWriter.document(items) == out, "the array written whole is the array written one by one")
        return out
    }

    static func odd(_ a: Asset) -> Asset {
        var a = a
        a.path = "we\"ird\\na/me \u{1}\u{8}\u{c}\n\r\t\u{1f}\u{7f} é 🎉/x.jpg"
        a.metadata.make = "Make/with \"quotes\""
        a.metadata.model = nil
        a.metadata.faces = [FaceRegion(x: 0, y: 1, w: 0.5, h: 1e-7, name: nil), FaceRegion(x: 0.25, y: 0.125, w: 1e22, h: -0.0, name: "Zoë")]
        a.metadata.persons = ["Ana", "", "Tom \"T\""]
        a.metadata.duration = 12.0
        a.place = Place(city: nil, country: "Iceland")
        a.score = 0.1 + 0.2
        a.similarGroup = "g/1"
        a.trash = TrashRecord(name: "x 2.jpg", deletedAt: Date(timeIntervalSince1970: 1_795_262_400))
        // `score_detail`, nested objects and all, as JSONEncoder writes it.
        let parts = ScoreComponents(sharpness: 0.9, motion: 1, noise: 0.33, exposure: 0.7, contrast: 0.1 + 0.2, color: 1e-7,
                                    compression: 0.5, brisque: nil, composition: 0.8, faces: 0.4, eyes: nil, smile: 1)
        a.analysis = AssetAnalysis(version: AssetAnalysis.currentVersion, sha256: a.sha256,
                                   score: AssetScore(base: 0.25, ranked: 0.125, utility: .document, frame: 0.5, components: parts,
                                                     measures: ["noise": 1.5, "tilt": -2.25, "a": 0], burst: .init(size: 3, rank: 2)))
        return a
    }

    @Test func theWriterPrintsTheBytesJSONEncoderPrints() throws {
        let (_, index, _, _) = try LibraryTests.scannedSample()
        var assets = try index.allAssets()
        assets += assets.prefix(5).map(Self.odd)
        var emptyPlace = Self.odd(assets[0])
        emptyPlace.place = Place(city: nil, country: nil)
        var cityOnly = Self.odd(assets[1])
        cityOnly.place = Place(city: "Lisbon", country: nil)
        assets += [emptyPlace, cityOnly]
        let items = assets.enumerated().map { AssetJSON($1, liveVideo: $0 % 7 == 0 ? "live/\($0).MOV" : nil) }
        #expect(try Self.written(items) == Self.encoded(items))
        #expect(try Self.written([]) == Self.encoded([]))
        #expect(try Self.written([items[0]]) == Self.encoded([items[0]]))
    }

    @Test func aNumberJSONCannotHoldIsAnErrorAsWithJSONEncoder() throws {
        let (_, index, _, _) = try LibraryTests.scannedSample()
        var a = try index.allAssets()[0]
        a.score = .nan
        #expect(throws: EncodingError.self) { try Self.written([AssetJSON(a, liveVideo: nil)]) }
    }

    // MARK: Album stamps

    @Test func anUnchangedLibrarySkipsItsAlbumsAndAnyChangeIsStillSeen() throws {
        let (library, index, _, _) = try LibraryTests.scannedSample()
        let linker = AlbumLinker(library: library, index: index)
        let years = library.root.appendingPathComponent("Albums/Years").path
        let year = try #require(try FileManager.default.contentsOfDirectory(atPath: years).sorted().first)
        let folder = years + "/" + year
        // Folders just written are not trusted (a change in the same clock tick would go unseen)…
        #expect(try linker.loadStamps()?.complete != true)
        // …once they have been still for `stampMargin`, a sync verifies them and stamps them all.
        Thread.sleep(forTimeInterval: AlbumLinker.stampMargin + 0.2)
        #expect(try linker.sync().foldersWritten == 0)
        let stamps = try #require(try linker.loadStamps())
        #expect(stamps.complete)
        #expect(stamps.folders.keys.contains("Years/" + year) && stamps.folders.keys.contains(""))
        // Nothing changed: the short way, nothing written, the stamps as they were.
        #expect(try linker.sync().foldersWritten == 0)
        #expect(try linker.loadStamps() == stamps)

        // A link deleted by hand changes its folder: the next sync puts it back.
        let link = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).sorted().first)
        try FileManager.default.removeItem(atPath: folder + "/" + link)
        #expect(try linker.sync().foldersWritten == 1)
        #expect(FileManager.default.fileExists(atPath: folder + "/" + link))

        // A folder made by hand where a generated album could be goes, as before.
        try linker.saveStamps(stamps)
        try FileManager.default.createDirectory(atPath: years + "/1999", withIntermediateDirectories: false)
        #expect(try linker.sync().foldersRemoved == 1)
        #expect(!FileManager.default.fileExists(atPath: years + "/1999"))

        // A change to the index (a new generation) with a folder changed too: that folder is read
        // and repaired; the others, whose links and stamps are unchanged, are not rewritten.
        try linker.saveStamps(stamps)
        let asset = try #require(try index.allAssets().first { $0.year == Int(year) && $0.state == .present })
        try AssetWriter(library: library, index: index).commit([asset])
        #expect(try index.generation() != stamps.generation)
        try FileManager.default.removeItem(atPath: folder + "/" + link)
        #expect(try linker.sync().foldersWritten == 1)
        #expect(FileManager.default.fileExists(atPath: folder + "/" + link))
        #expect(try linker.loadStamps()?.generation == index.generation())
        #expect(try linker.loadStamps()?.complete == false, "the folder just repaired waits to be stamped")
    }

    static func inode(_ path: String) -> UInt64? {
        var st = stat()
        return lstat(path, &st) == 0 ? UInt64(st.st_ino) : nil
    }

    @Test func linksThatOnlyMoveAreRenamedOrReusedNotMadeAgain() throws {
        let (library, index, _, _) = try LibraryTests.scannedSample()
        let linker = AlbumLinker(library: library, index: index)
        let album = try #require(try linker.generated().first { $0.kind == .year && $0.entries.count >= 4 })
        let dir = library.root.appendingPathComponent("Albums").path + "/" + album.path
        var inodes: [String: UInt64] = [:]
        for e in album.entries { inodes[e.target] = Self.inode(dir + "/" + e.linkName) }

        // The first photo goes: every other link moves up one place (renamed in place).
        try FileManager.default.removeItem(at: library.url(for: album.entries[0].assetPath))
        _ = try Scanner(library: library, index: index).scan()
        var now = try linker.find(album.path)
        #expect(now.entries.count == album.entries.count - 1)
        #expect(try linker.links(of: album.path) == Dictionary(uniqueKeysWithValues: now.entries.map { ($0.linkName, $0.target) }))
        for e in now.entries { #expect(Self.inode(dir + "/" + e.linkName) == inodes[e.target], "\(e.linkName) was renamed") }

        // A photo moves to another folder under the same name: its link keeps its name but not its
        // target, so the album is rebuilt beside and swapped in; the other links are carried over.
        let moved = now.entries[1]
        let elsewhere = "Moved/" + (moved.assetPath as NSString).lastPathComponent
        try FileManager.default.createDirectory(at: library.url(for: "Moved"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: library.url(for: moved.assetPath), to: library.url(for: elsewhere))
        _ = try Scanner(library: library, index: index).scan()
        let before = now
        now = try linker.find(album.path)
        #expect(now.entries.map(\.linkName) == before.entries.map(\.linkName))
        #expect(now.entries[1].assetPath == elsewhere)
        #expect(try linker.links(of: album.path) == Dictionary(uniqueKeysWithValues: now.entries.map { ($0.linkName, $0.target) }))
        for e in now.entries where e.assetPath != elsewhere {
            #expect(Self.inode(dir + "/" + e.linkName) == inodes[e.target], "\(e.linkName) was carried over")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: (dir as NSString).deletingLastPathComponent)
            .allSatisfy { !$0.hasPrefix(AlbumLinker.buildPrefix) })
    }

    @Test func indexGenerationMovesWithEveryWrite() throws {
        let (_, index, _, _) = try LibraryTests.scannedSample()
        let before = try index.generation()
        let a = try index.allAssets()[0]
        try index.save([a])
        let afterSave = try index.generation()
        #expect(afterSave != before)
        try index.delete([a.id])
        #expect(try index.generation() != afterSave)
    }

    // MARK: Listings

    @Test func streamingListsWhatTheArrayListsInTheSameOrder() throws {
        let (_, index, _, _) = try LibraryTests.scannedSample()
        for sort in AssetQuery.Sort.allCases {
            for reverse in [false, true] {
                var q = AssetQuery()
                q.sort = sort
                q.reverse = reverse
                var streamed: [Asset] = []
                try index.forEachAsset(matching: q) { streamed.append($0) }
                #expect(streamed == (try index.assets(matching: q)))
            }
        }
        let photos = try index.allAssets().filter { $0.format == .heic || $0.format == .jpeg }.map(\.id)
        let all = try index.allLiveVideos()
        #expect(!all.isEmpty)
        #expect(try index.liveVideos(for: photos) == all)
    }

    @Test func theKnownOtherExtensionsAreFoundWithoutNSString() {
        for path in ["a/b.xmp", "a/B.XMP", "IMG_1.JPG.aae", "x/notes.txt", "x/y.docx", "x/.xmp", ".xmp", "x/y.jpg",
                     "x/y.jpeg", "x/y", "x/y.", "x.y/z", "x/y.tar.gz", "x/ü.md", "x/y.ÄAE", "x/y.abcde", "x/y.on1"] {
            #expect(FileProbe.isKnownOther(path)
                    == FileProbe.knownOtherExtensions.contains((path as NSString).pathExtension.lowercased()), "\(path)")
        }
    }
}
