import Foundation
import Testing
import TestSupport

/// Curation through HTTP (the `/curate` page's calls), checked through `shoebox curate … --json`
/// and `album show --json` on the same library, and the shared bytes against the files.
@Suite(.serialized) struct CurationRoutesTests {
    typealias Object = [String: Any]

    /// A small analysed roll with a Live Photo: scores fixed before the server starts.
    static func analysedRoll() throws -> ShoeboxCLI {
        let made = try TestRoll.make(seed: 31, count: 12, arguments: ["--live", "1", "--long-side", "640"])
        let cli = try ShoeboxCLI.scanned(made)
        let r = try cli.run(["analyze"])
        guard r.status == 0 else { throw NSError(domain: "analyze", code: 1, userInfo: [NSLocalizedDescriptionKey: r.stderr]) }
        return cli
    }

    static func ids(_ value: Any?) -> [String] { (value as? [Object] ?? []).compactMap { $0["id"] as? String } }
    static func selected(_ value: Any?) -> Set<String> {
        Set((value as? [Object] ?? []).filter { $0["selected"] as? Bool == true }.compactMap { $0["id"] as? String })
    }

    func photoIDs(_ cli: ShoeboxCLI) throws -> [String] {
        Self.ids(try cli.json(["list", "--kind", "photo"]))
    }

    @Test func eachChangeIsTheCommandsAndAnswersTheListAsItPrintsIt() throws {
        let cli = try Self.analysedRoll()
        let served = try ServedLibrary(cli)
        let photos = try photoIDs(cli)
        #expect((try served.json("/api/curation") as? [Any])?.isEmpty == true, "an empty list to start with")
        let added = try served.post("/api/curation/add", ["ids": photos])
        #expect(added.status == 200)
        let listed = try cli.json(["curate", "list"])
        #expect(Self.ids(try added.json()) == Self.ids(listed), "the answer is `curate list --json`, best first")
        #expect((try added.json() as? [Object])?.allSatisfy { $0["scoring"] as? Bool == false && $0["rank"] is Int } == true,
                "analysed photos are not being scored")
        let ranked = Self.ids(listed)

        let top = try served.post("/api/curation/top", ["count": 5])
        #expect(Self.selected(try top.json()) == Set(ranked.prefix(5)))
        #expect(Self.selected(try cli.json(["curate", "list"])) == Set(ranked.prefix(5)), "top 5 as `curate top 5`")
        let all = try served.post("/api/curation/top", ["count": 20])
        #expect(Self.selected(try all.json()).count == ranked.count, "top 20 of fewer: all of them")
        #expect(try served.post("/api/curation/top", ["count": 3]).status == 400)
        #expect(try served.post("/api/curation/top", ["count": "5"]).status == 400)

        _ = try served.post("/api/curation/top", ["count": 1])
        let picked = try served.post("/api/curation/select", ["ids": [ranked[3], ranked[4]]])
        #expect(Self.selected(try picked.json()) == [ranked[0], ranked[3], ranked[4]])
        let unpicked = try served.post("/api/curation/deselect", ["ids": [ranked[0]]])
        #expect(Self.selected(try unpicked.json()) == [ranked[3], ranked[4]])
        #expect(Self.selected(try cli.json(["curate", "list"])) == [ranked[3], ranked[4]])
        #expect(try served.post("/api/curation/select", ["ids": ["../../etc/passwd"]]).status == 400)
        let stranger = try served.post("/api/curation/select", ["ids": [UUID().uuidString.lowercased()]])
        #expect(stranger.status == 404, "\(stranger.text)")

        let removed = try served.post("/api/curation/remove", [:])
        #expect(Self.ids(try removed.json()) == ranked.filter { $0 != ranked[3] && $0 != ranked[4] })
        #expect(Self.ids(try cli.json(["curate", "list"])) == Self.ids(try removed.json()), "remove as `curate remove`")
        let nothing = try served.post("/api/curation/remove", [:])
        #expect(nothing.status == 400 && nothing.text.contains("must select photos"))
        let cleared = try served.post("/api/curation/clear", [:])
        #expect((try cleared.json() as? [Any])?.isEmpty == true)
        #expect((try cli.json(["curate", "list"]) as? [Any])?.isEmpty == true)
    }

    @Test func shareGivesOneOriginalAsItselfAndSeveralAsAStoredZip() throws {
        let cli = try Self.analysedRoll()
        let served = try ServedLibrary(cli)
        let assets = try cli.json(["list", "--kind", "photo"]) as? [Object] ?? []
        _ = try served.post("/api/curation/add", ["ids": Self.ids(assets)])
        for path in ["/api/curation/share", "/media/curation/share"] {
            let none = try served.request(path)
            #expect(none.status == 400 && none.text.contains("must select photos"), "\(path): \(none.status) \(none.text)")
        }
        let ranked = Self.ids(try cli.json(["curate", "list"]))
        let paths = Dictionary(uniqueKeysWithValues: assets.map { ($0["id"] as! String, $0["path"] as! String) })
        let original = { (path: String) throws -> Data in try Data(contentsOf: cli.library.appendingPathComponent(path)) }

        let live = try #require(assets.first { $0["live_video"] is String })
        let liveID = live["id"] as! String
        let others = ranked.filter { $0 != liveID }
        // One photo: itself, as an attachment.
        _ = try served.post("/api/curation/top", ["count": 1])
        _ = try served.post("/api/curation/select", ["ids": [others[0]]])
        if ranked[0] != others[0] { _ = try served.post("/api/curation/deselect", ["ids": [ranked[0]]]) }
        let one = try served.request("/media/curation/share")
        #expect(one.status == 200)
        #expect(one.headers["content-disposition"]?.hasPrefix("attachment") == true)
        #expect(one.body == (try original(paths[others[0]]!)), "the original, byte for byte")

        // Several, a Live Photo among them: a zip, its movie right after it.
        _ = try served.post("/api/curation/select", ["ids": [others[1], others[2], liveID]])
        let listed = try #require(try served.json("/api/curation/share") as? Object)
        let files = try #require(listed["files"] as? [Object])
        let movie = try #require(files.first { $0["companion"] as? Bool == true }, "the Live Photo's movie is shared with it")
        let archive = try served.request("/media/curation/share")
        #expect(archive.status == 200)
        #expect(archive.headers["content-type"] == "application/zip")
        #expect(archive.headers["content-disposition"]?.hasPrefix("attachment") == true)
        let entries = try StoredEntries.read(archive.body)
        #expect(entries.map(\.name) == files.map { $0["name"] as! String }, "the files in rank order, under the names listed")
        #expect(entries.allSatisfy { $0.method == 0 }, "stored, not compressed")
        let sharedIDs = files.map { $0["id"] as! String }
        let moviePath = live["live_video"] as! String
        for (entry, id) in zip(entries, sharedIDs) {
            let path = id == movie["id"] as? String ? moviePath : paths[id]!
            #expect(entry.bytes == (try original(path)), "\(entry.name) is \(path) byte for byte")
        }
    }

    @Test func anAlbumOfTheWholeListInScoreOrder() throws {
        let cli = try Self.analysedRoll()
        let served = try ServedLibrary(cli)
        _ = try served.post("/api/curation/add", ["ids": try photoIDs(cli)])
        let made = try served.post("/api/curation/album", [:])
        #expect(made.status == 201)
        let album = try #require(try made.json() as? Object)
        let name = try #require(album["name"] as? String)
        #expect(name.range(of: #"^TO NAME \d{4}-\d{2}-\d{2} \d{2}\.\d{2}\.\d{2}( \(\d+\))?$"#, options: .regularExpression) != nil, "\(name)")
        let key = try #require(album["key"] as? String)
        let shown = try #require(try cli.json(["album", "show", name]) as? Object)
        #expect(Self.ids(shown["entries"]) == Self.ids(try cli.json(["curate", "list"])), "its links in score order")
        #expect(Self.ids((try served.json("/api/albums/" + (key.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? key)) as? Object)?["entries"])
                == Self.ids(shown["entries"]), "its key opens it")
        _ = try served.post("/api/curation/clear", [:])
        #expect(try served.post("/api/curation/album", [:]).status == 400, "no album of an empty list")
    }

    @Test func photosAddedUnanalysedAreScoredWhileThePageWaits() throws {
        let made = try TestRoll.make(seed: 32, count: 3, arguments: ["--no-heic", "--long-side", "640"])
        let cli = try ShoeboxCLI.scanned(made)
        let served = try ServedLibrary(cli)  // --no-watch: nothing else analyses them
        let photos = try photoIDs(cli)
        let added = try #require(try served.post("/api/curation/add", ["ids": photos]).json() as? [Object])
        #expect(added.count == photos.count)
        #expect(added.allSatisfy { $0["analyzed"] as? Bool == false && $0["score"] is NSNull }, "added at once, before analysis")
        #expect(added.contains { $0["scoring"] as? Bool == true }, "the page is told they are being scored")
        var items: [Object] = []
        let deadline = Date().addingTimeInterval(120)
        repeat {
            Thread.sleep(forTimeInterval: 0.5)
            items = try served.json("/api/curation") as? [Object] ?? []
        } while items.contains(where: { $0["scoring"] as? Bool == true }) && Date() < deadline
        #expect(items.allSatisfy { $0["analyzed"] as? Bool == true && $0["score"] is Double }, "scored by the server")
        #expect(Self.ids(items) == Self.ids(try cli.json(["curate", "list"])), "ranked by those scores, as `curate list`")
    }
}

/// The entries of a zip read from its local headers (what an unzip tool meets first), with
/// their compression method.
struct StoredEntries {
    var name: String
    var method: UInt16
    var bytes: Data

    static func read(_ zip: Data) throws -> [StoredEntries] {
        let b = [UInt8](zip)
        func u16(_ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        var out: [StoredEntries] = []
        var at = 0
        while at + 30 <= b.count, u32(at) == 0x0403_4b50 {
            let method = UInt16(u16(at + 8)), size = u32(at + 18), nameLength = u16(at + 26), extra = u16(at + 28)
            let start = at + 30 + nameLength + extra
            guard start + size <= b.count else { throw NSError(domain: "zip", code: 1) }
            out.append(StoredEntries(name: String(decoding: b[(at + 30)..<(at + 30 + nameLength)], as: UTF8.self),
                                     method: method, bytes: Data(b[start..<(start + size)])))
            at = start + size
        }
        guard at + 4 <= b.count, u32(at) == 0x0201_4b50 else { throw NSError(domain: "zip", code: 2, userInfo: [NSLocalizedDescriptionKey: "no central directory after the entries"]) }
        return out
    }
}
