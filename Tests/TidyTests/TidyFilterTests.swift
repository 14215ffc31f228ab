import Foundation
import TestSupport
import XCTest

/// Each filter offers exactly the assets the roll's manifest says it should.
final class TidyFilterTests: XCTestCase {
    /// The capture instant the manifest gives, else (a screenshot) its file-name date or mtime.
    static func instant(_ e: RollEntry) -> Date {
        let f = ISO8601DateFormatter()
        if let t = e.taken_at, let d = f.date(from: t) { return d }
        if let range = e.path.range(of: #"\d{4}-\d{2}-\d{2} at \d{2}\.\d{2}\.\d{2}"#, options: .regularExpression) {
            let p = DateFormatter()
            p.dateFormat = "yyyy-MM-dd 'at' HH.mm.ss"
            p.timeZone = TimeZone(identifier: "UTC")
            if let d = p.date(from: String(e.path[range])) { return d }
        }
        return Date(timeIntervalSince1970: e.mtime)
    }

    /// The year as the file states it (local wall clock of its own offset).
    static func year(_ e: RollEntry) -> Int {
        if let t = e.taken_at { return Int(t.prefix(4))! }
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        return utc.component(.year, from: instant(e))
    }

    func testEachFilterOffersExactlyItsAssets() throws {
        let t = try Tidying.roll()
        func session(_ filter: String) throws -> [String] {
            try t.ok(["tidy", "filter", filter])
            return try t.sessionPaths()
        }
        XCTAssertEqual(try session("all").sorted(), t.items.map(\.path).sorted())
        XCTAssertEqual(try session("screenshots").sorted(), t.items.filter { $0.kind == "screenshot" }.map(\.path).sorted())

        let years = Set(t.items.filter { $0.taken_at != nil }.map(Self.year))
        XCTAssertGreaterThan(years.count, 2)
        for y in years {
            XCTAssertEqual(try session("year:\(y)").sorted(), t.items.filter { Self.year($0) == y }.map(\.path).sorted(), "year \(y)")
        }

        // Last 30 days before $SHOEBOX_NOW (the roll's newest photos are from 2026).
        let newest = t.items.filter { $0.taken_at != nil }.map(Self.instant).max()!
        let now = newest.addingTimeInterval(20 * 86_400)
        var recent = t
        recent = Tidying(made: t.made, cli: { var c = t.cli; c.environment["SHOEBOX_NOW"] = ISO8601DateFormatter().string(from: now); return c }())
        try recent.ok(["tidy", "filter", "last-30-days"])
        let window = t.items.filter { let d = Self.instant($0); return d >= now.addingTimeInterval(-30 * 86_400) && d <= now }
        XCTAssertFalse(window.isEmpty)
        XCTAssertEqual(try recent.sessionPaths().sorted(), window.map(\.path).sorted())

        // Largest first: every item of its own comes in size order.
        let largest = try t.ok(["tidy", "filter", "largest"])
        XCTAssertEqual(largest.status, 0)
        let items = try t.array(["tidy", "list", "--all"])
        let singles = items.filter { $0["group"] == nil }.map { $0["size"] as! Int }
        XCTAssertEqual(singles, singles.sorted(by: >))
        XCTAssertEqual(items.flatMap(Tidying.members).count, t.items.count)
    }

    func testTheMaybePileIsItsOwnSessionAndDecidedPhotosLeaveTheOthers() throws {
        let t = try Tidying.roll()
        try t.ok(["tidy", "filter", "screenshots"])
        let shots = try t.sessionPaths()
        XCTAssertEqual(shots.count, t.items.filter { $0.kind == "screenshot" }.count)
        try t.ok(["tidy", "maybe"])
        try t.ok(["tidy", "keep"])
        let done = try t.ok(["tidy", "next"])
        XCTAssertTrue(done.stderr.contains("This session is through"), done.stderr)
        XCTAssertTrue(done.stderr.contains("not reviewed yet"), done.stderr)

        try t.ok(["tidy", "filter", "maybe"])
        XCTAssertEqual(try t.sessionPaths(), [shots[0]])
        // Decided assets are not offered again by the other filters.
        try t.ok(["tidy", "filter", "all"])
        XCTAssertEqual(Set(try t.sessionPaths()), Set(t.items.map(\.path)).subtracting(shots))

        // Deciding the maybe for good empties the pile.
        try t.ok(["tidy", "filter", "maybe"])
        try t.ok(["tidy", "keep"])
        XCTAssertEqual(try t.array(["tidy", "maybes"]).count, 0)
    }

    func testABadFilterIsAUsageError() throws {
        let t = try Tidying.roll()
        for bad in ["yesterday", "year:20x4", "year:"] {
            let r = try t.cli.run(["tidy", "filter", bad])
            XCTAssertEqual(r.status, 2, bad)
            XCTAssertTrue(r.stderr.contains("all, screenshots, last-30-days, year:YYYY, largest, maybe"), r.stderr)
        }
    }
}
