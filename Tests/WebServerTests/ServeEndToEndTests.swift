import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

/// `shoebox serve` through HTTP, checked through the CLI's `--json`: the page's actions change the
/// library exactly as the commands do. (The pages themselves are tested in a real browser by
/// Tests/Browser.)
@Suite(.serialized) struct ServeEndToEndTests {
    @Test func everyPageAndTheGridAgreeWithList() throws {
        let made = try TestRoll.sampleCopy()
        let cli = try ShoeboxCLI.scanned(made)
        let served = try ServedLibrary(cli)
        for path in ["/", "/albums", "/people", "/trash", "/tidy", "/curate", "/compose", "/memories", "/tracker"] {
            let page = try served.request(path)
            #expect(page.status == 200, "\(path)")
            #expect(page.headers["content-security-policy"]?.hasPrefix("default-src 'self'") == true)
            #expect(page.text.contains("<title>"), "\(path)")
        }
        let listed = (try cli.json(["list"]) as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(try served.libraryIDs() == listed, "the grid shows what `list` lists, in its order")
        let year = try #require((try cli.json(["list"]) as? [[String: Any]])?.compactMap { $0["year"] as? Int }.first)
        let ofYear = (try cli.json(["list", "--year", String(year)]) as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(try served.libraryIDs("?year=\(year)") == ofYear)
        let id = listed[0]
        #expect(try served.request("/asset/\(id)").status == 200)
        #expect(try served.request("/asset/../../etc/passwd").status >= 400)
        let shown = try served.json("/api/assets/\(id)") as? [String: Any]
        let cliShown = try cli.json(["show", id]) as? [String: Any]
        #expect(shown?["path"] as? String == cliShown?["path"] as? String)
        #expect(shown?["sha256"] as? String == cliShown?["sha256"] as? String)
    }

    @Test func thumbnailsAreJPEGsCachedByTagAndOriginalsAnswerRanges() throws {
        let made = try TestRoll.sampleCopy()
        let cli = try ShoeboxCLI.scanned(made)
        let served = try ServedLibrary(cli)
        let list = try cli.json(["list", "--kind", "photo"]) as? [[String: Any]] ?? []
        let photo = try #require(list.first { ($0["format"] as? String) == "jpeg" })
        let id = try #require(photo["id"] as? String)
        let thumb = try served.request("/media/thumb/\(id)?size=256")
        #expect(thumb.status == 200)
        #expect(thumb.body.prefix(3) == Data([0xFF, 0xD8, 0xFF]))
        let etag = try #require(thumb.headers["etag"])
        #expect(try served.request("/media/thumb/\(id)?size=256", headers: ["If-None-Match": etag]).status == 304)
        #expect(try served.request("/media/thumb/\(id)?size=999").status == 400)
        let original = try Data(contentsOf: made.root.appendingPathComponent(try #require(photo["path"] as? String)))
        let part = try served.request("/media/original/\(id)", headers: ["Range": "bytes=100-1099"])
        #expect(part.status == 206)
        #expect(part.body == original.subdata(in: 100..<1100))
        #expect(part.headers["content-range"] == "bytes 100-1099/\(original.count)")
        let whole = try served.request("/media/original/\(id)?download=1")
        #expect(whole.body == original)
        #expect(whole.headers["content-disposition"]?.hasPrefix("attachment;") == true)
        #expect(try served.request("/media/original/\(id)", headers: ["Range": "bytes=\(original.count)-"]).status == 416)
    }

    @Test func trashAndRestoreThroughTheAPIAreTheCommandsOwn() throws {
        let made = try TestRoll.sampleCopy()
        let cli = try ShoeboxCLI.scanned(made)
        let served = try ServedLibrary(cli)
        let ids = Array(try served.libraryIDs().prefix(3))
        // Without this server's Origin nothing changes.
        let foreign = try served.request("/api/trash", method: "POST", body: try JSONSerialization.data(withJSONObject: ["ids": ids]),
                                         origin: .some("http://evil.example"))
        #expect(foreign.status == 403)
        #expect((try cli.json(["trash", "list"]) as? [Any])?.isEmpty == true)
        let trashed = try served.post("/api/trash", ["ids": ids])
        #expect(trashed.status == 200)
        let inTrash = Set((try cli.json(["trash", "list"]) as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
        #expect(inTrash == Set(ids))
        #expect(try served.post("/api/restore", ["ids": [ids[0]]]).status == 200)
        let listed = Set((try cli.json(["list"]) as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
        #expect(listed.contains(ids[0]) && !listed.contains(ids[1]))
        let badID = try served.post("/api/trash", ["ids": ["../../etc/passwd"]])
        #expect(badID.status == 400)
        #expect((try badID.json() as? [String: Any])?["error"] as? String != nil)
    }

    @Test func albumsAreMadeAndChangedByNameIdOrFolderAsTheCommandsSeeThem() throws {
        let made = try TestRoll.sampleCopy()
        let cli = try ShoeboxCLI.scanned(made)
        let served = try ServedLibrary(cli)
        let ids = Array(try served.libraryIDs().prefix(4))
        let created = try served.post("/api/albums", ["name": "Beach days", "ids": [ids[0], ids[1]]])
        #expect(created.status == 200)
        let album = try created.json() as? [String: Any]
        let albumID = try #require(album?["id"] as? String)
        #expect(album?["key"] as? String == "Beach days")
        // The key as a page puts it in a URL (percent-encoded), and the album's id, both work.
        #expect(try served.post("/api/albums/Beach%20days/add", ["ids": [ids[2]]]).status == 200)
        #expect(try served.post("/api/albums/\(albumID)/order", ["ids": [ids[2], ids[0]]]).status == 200)
        let shown = try cli.json(["album", "show", "Beach days"]) as? [String: Any]
        let order = (shown?["entries"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(order == [ids[2], ids[0], ids[1]])
        #expect((try served.json("/api/albums/\(albumID)") as? [String: Any])?["count"] as? Int == 3)
        #expect(try served.post("/api/albums/Years/add", ["ids": [ids[3]]]).status == 404, "a generated album cannot be changed")
        #expect(try served.post("/api/albums/..%2F..%2Fetc/delete", [:]).status == 400)
        // The place filter as a page sends it.
        let place = try #require((try served.json("/api/facets") as? [String: Any])?["places"] as? [[String: Any]]).first?["name"] as? String
        if let place {
            let form = place.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!.replacingOccurrences(of: "%20", with: "+")
            let cliCount = (try cli.json(["list", "--place", place]) as? [Any])?.count
            #expect(try served.libraryIDs("?place=" + form).count == cliCount)
        }
        #expect(try served.request("/static/js/app.js", method: "HEAD").status == 200)
    }

    @Test func anUploadIsWrittenWholeIntoImportsAndIndexedAndJunkIsRefused() throws {
        let made = try TestRoll.sampleCopy()
        let cli = try ShoeboxCLI.scanned(made)
        let served = try ServedLibrary(cli)
        let source = try #require((try cli.json(["list", "--kind", "photo"]) as? [[String: Any]])?.first { ($0["format"] as? String) == "jpeg" })
        let bytes = try Data(contentsOf: made.root.appendingPathComponent(source["path"] as! String))
        let reply = try served.request("/api/upload?name=../../From%20phone.jpg", method: "POST", body: bytes)
        #expect(reply.status == 201)
        let path = try #require((try reply.json() as? [String: Any])?["path"] as? String)
        // The name from the request is cleaned: no folder of its own, no leading dot.
        let name = String(path.split(separator: "/").last ?? "")
        #expect(path.hasPrefix("Imports/") && path.split(separator: "/").count == 3, "\(path)")
        #expect(name.hasSuffix("From phone.jpg") && !name.hasPrefix("."), "\(name)")
        #expect(try Data(contentsOf: made.root.appendingPathComponent(path)) == bytes)
        #expect(try cli.assetsByPath()[path] != nil, "indexed at once")
        let junk = try served.request("/api/upload?name=notes.jpg", method: "POST", body: Data("just text".utf8))
        #expect(junk.status == 415)
        let folder = made.root.appendingPathComponent(String(path.split(separator: "/").dropLast().joined(separator: "/")))
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(left == [name], "nothing of the refused upload is left, not even a temporary")
        #expect(try served.request("/api/upload?name=x.jpg", method: "POST", body: bytes, origin: .some(nil)).status == 403)
    }

    @Test func aChangeByAnotherProcessReachesAnOpenEventStream() throws {
        let made = try TestRoll.sampleCopy()
        let cli = try ShoeboxCLI.scanned(made)
        let served = try ServedLibrary(cli)
        let events = EventStream(url: URL(string: "/api/events", relativeTo: served.base)!)
        events.start()
        // A new stream starts with the library's stamp as it is: a change made between a page's
        // fetch and its stream's opening is not lost.
        #expect(events.waitForGenerations(1, seconds: 10), "got: \(events.text.debugDescription)")
        let before = try #require(events.generations.first)
        let id = try #require(try served.libraryIDs().first)
        #expect(try cli.run(["trash", id]).status == 0)
        #expect(events.waitForGenerations(2, seconds: 10), "got: \(events.text.debugDescription)")
        #expect(events.generations.last != before, "the change was sent with the stamp it had before")
        // A stream opened after the change starts with the new stamp.
        let late = EventStream(url: URL(string: "/api/events", relativeTo: served.base)!)
        late.start()
        #expect(late.waitForGenerations(1, seconds: 10))
        #expect(late.generations.first == events.generations.last)
        // A stop signal ends the server promptly though a stream is open.
        let started = Date()
        served.stop()
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(served.process.terminationStatus == 0)
    }
}

/// Reads a server-sent event stream as text, in the background.
final class EventStream: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let url: URL
    private let lock = NSLock()
    private var received = ""
    private var session: URLSession?

    init(url: URL) { self.url = url }

    var text: String { lock.withLock { received } }

    func start() {
        session = URLSession(configuration: .default, delegate: self, delegateQueue: nil)
        session?.dataTask(with: url).resume()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { received += String(decoding: data, as: UTF8.self) }
    }

    /// The stamps of the `event: library` events received, in order.
    var generations: [String] {
        text.components(separatedBy: "event: library\ndata: ").dropFirst().compactMap { event in
            event.split(separator: "\n").first.flatMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            }?["generation"] as? String
        }
    }

    func waitForGenerations(_ count: Int, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if generations.count >= count { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }
}
