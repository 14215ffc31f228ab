import Foundation
import Testing
import TestSupport

/// Tidy through HTTP (the `/tidy` page's calls), checked through `shoebox tidy … --json` on the
/// same library: a swipe in the browser is the command's decision, and the commands see it.
@Suite(.serialized) struct TidyRoutesTests {
    typealias Object = [String: Any]

    static func id(_ item: Any?) -> String? {
        guard let item = item as? Object else { return nil }
        return (item["items"] as? [Object])?.first?["id"] as? String ?? item["id"] as? String
    }

    static func ids(_ value: Any?) -> [String] { (value as? [Object] ?? []).compactMap { $0["id"] as? String } }

    @Test func aSwipeIsTheCommandsDecisionAndTheNextItemsComeAhead() throws {
        let cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        let served = try ServedLibrary(cli)
        let shown = try #require(try served.json("/api/tidy") as? Object)
        let next = try #require(try cli.json(["tidy", "next"]) as? Object)
        let first = try #require(Self.id(shown["item"]))
        #expect(first == Self.id(next["item"]), "the page shows the item `tidy next` shows")
        let listed = try #require(try cli.json(["tidy", "list"]) as? [Any])
        let ahead = try #require(shown["ahead"] as? [Any])
        #expect(ahead.count == 3)
        #expect(ahead.map(Self.id) == listed.dropFirst().prefix(3).map(Self.id), "ahead: the three items after it, in the session's order")

        let deleted = try #require(try served.post("/api/tidy/decide", ["decision": "delete"]).json() as? Object)
        #expect(Self.id(deleted["next"]) == Self.id(ahead[0]), "after a swipe the next item is the first loaded ahead")
        let marked = Set(deleted["decided"] as? [String] ?? [])
        let trash = Set(Self.ids(try cli.json(["tidy", "trash"])))
        #expect(!marked.isEmpty && marked.isSubset(of: trash))
        let status = try #require(try cli.json(["tidy", "status"]) as? Object)
        #expect(status["position"] as? Int == (deleted["status"] as? Object)?["position"] as? Int)

        let undone = try #require(try served.post("/api/tidy/undo", [:]).json() as? Object)
        #expect(Set(undone["undone"] as? [String] ?? []) == marked)
        #expect(Self.id(undone["next"]) == first, "undo returns to the item")
        #expect(Self.ids(try cli.json(["tidy", "trash"])).isEmpty)
        let again = try served.post("/api/tidy/undo", [:])
        #expect(again.status == 400 && again.text.contains("nothing to undo"))
        #expect(try served.post("/api/tidy/decide", ["decision": "emptied"]).status == 400)
        #expect(try served.post("/api/tidy/decide", ["decision": "keep", "id": "../../x"]).status == 400)
    }

    @Test func keepingOneOfAGroupMarksTheOthersAsTheCommandDoes() throws {
        let cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        let served = try ServedLibrary(cli)
        var view = try #require(try served.json("/api/tidy") as? Object)
        var group: Object?
        for _ in 0..<80 {
            guard let item = view["item"] as? Object ?? view["next"] as? Object else { break }
            if item["group"] != nil { group = item; break }
            view = try #require(try served.post("/api/tidy/decide", ["decision": "keep"]).json() as? Object)
        }
        let found = try #require(group, "the sample library has similar shots")
        let members = Self.ids(found["items"])
        #expect(found["open"] as? [String] == members, "nothing of the group is decided yet")
        let decided = try #require(try served.post("/api/tidy/decide",
                                                   ["decision": "keep", "id": members[0], "others": "delete"]).json() as? Object)
        #expect(decided["others"] as? [String] == Array(members.dropFirst()))
        #expect(Set(Self.ids(try cli.json(["tidy", "trash"]))) == Set(members.dropFirst()))
        #expect(Self.id(decided["next"]) != members[0], "the group is through")
    }

    @Test func filtersCountWhatASessionWouldOfferAndStartIt() throws {
        let cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        let served = try ServedLibrary(cli)
        let filters = try #require((try served.json("/api/tidy/filters") as? Object)?["filters"] as? [Object])
        #expect(filters.compactMap { $0["filter"] as? String }.prefix(3) == ["all", "screenshots", "last-30-days"])
        #expect(filters.last?["filter"] as? String == "maybe")
        let year = try #require(filters.first { ($0["filter"] as? String)?.hasPrefix("year:") == true })
        let started = try #require(try served.post("/api/tidy/filter", ["filter": year["filter"]!]).json() as? Object)
        let status = try #require(try cli.json(["tidy", "status"]) as? Object)
        #expect(status["filter"] as? String == year["filter"] as? String)
        #expect(status["total"] as? Int == year["count"] as? Int, "the sheet's count is the session's size")
        #expect((started["status"] as? Object)?["session"] as? String == status["session"] as? String)
        #expect(try served.post("/api/tidy/filter", ["filter": "year:12"]).status == 400)
    }

    @Test func unmarkAndEmptyMoveOnlyWhatIsStillMarkedToRecentlyDeleted() throws {
        let cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        let served = try ServedLibrary(cli)
        var marked: [String] = []
        for _ in 0..<3 {
            let d = try #require(try served.post("/api/tidy/decide", ["decision": "delete"]).json() as? Object)
            marked += d["decided"] as? [String] ?? []
        }
        #expect(Set(Self.ids(try served.json("/api/tidy/trash"))) == Set(marked))
        let kept = try #require(try served.post("/api/tidy/unmark", ["id": marked[0]]).json() as? Object)
        #expect(kept["decision"] as? String == "keep")
        let paths = Dictionary(uniqueKeysWithValues: (try cli.json(["tidy", "trash"]) as? [Object] ?? []).compactMap { a in
            (a["id"] as? String).map { ($0, a["path"] as? String ?? "") } })
        #expect(Set(paths.keys) == Set(marked.dropFirst()))
        let emptied = try #require(try served.post("/api/tidy/empty", [:]).json() as? Object)
        #expect(emptied["removed"] as? Int == paths.count)
        #expect((emptied["errors"] as? [Any])?.isEmpty == true)
        let reviewed = (try cli.json(["tidy", "status"]) as? Object)?["reviewed"] as? Int
        #expect(emptied["reviewed"] as? Int == reviewed)
        let trashed = Set((try cli.json(["trash", "list"]) as? [Object] ?? []).compactMap { $0["id"] as? String })
        #expect(Set(paths.keys).isSubset(of: trashed), "the marked photos are in Recently Deleted")
        for path in paths.values {
            #expect(!FileManager.default.fileExists(atPath: cli.library.appendingPathComponent(path).path), "\(path) left the library")
        }
        #expect(!trashed.contains(marked[0]), "the photo put back stays")
    }
}
