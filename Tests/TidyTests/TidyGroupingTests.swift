import Foundation
import TestSupport
import XCTest

/// `tidy similar` on the analysed roll against the manifest's bursts, copies and duplicates.
final class TidyGroupingTests: XCTestCase {
    func testSimilarGroupsAreTheManifestsBurstsCopiesAndDuplicates() throws {
        let t = try Tidying.roll()
        // The truth: connected bursts, byte-identical copies and edited copies.
        var parent: [String: String] = [:]
        func find(_ x: String) -> String { var x = x; while let p = parent[x], p != x { x = p }; return x }
        func union(_ a: String, _ b: String) { parent[find(a)] = find(b) }
        var bursts: [String: [String]] = [:]
        for e in t.items {
            if let d = e.duplicate_of { union(e.path, d) }
            if let n = e.near_duplicate_of { union(e.path, n) }
            if let b = e.burst { bursts[b, default: []].append(e.path) }
        }
        for frames in bursts.values { for f in frames.dropFirst() { union(frames[0], f) } }
        func pairs(_ groups: [[String]]) -> Set<[String]> {
            Set(groups.flatMap { g in g.sorted().enumerated().flatMap { i, a in g.sorted().dropFirst(i + 1).map { [a, $0] } } })
        }
        let truthGroups = Dictionary(grouping: t.items.map(\.path), by: find).values.filter { $0.count > 1 }
        let groups = try t.array(["tidy", "similar"])
        let found = groups.map { ($0["items"] as! [[String: Any]]).map { $0["path"] as! String } }
        let truth = pairs(Array(truthGroups)), got = pairs(found)
        let precision = Double(truth.intersection(got).count) / Double(max(1, got.count))
        let recall = Double(truth.intersection(got).count) / Double(max(1, truth.count))
        print("tidy similar on the roll: \(found.count) groups, pairwise precision \(precision), recall \(recall)")
        XCTAssertGreaterThanOrEqual(bursts.count, 3)
        XCTAssertEqual(precision, 1.0)
        XCTAssertEqual(recall, 1.0)

        // Kinds: a burst of distinct frames is similar; a lone byte-identical copy is a
        // duplicate; a lone edited copy near-identical.
        for g in groups {
            let paths = Set((g["items"] as! [[String: Any]]).map { $0["path"] as! String })
            let entries = t.items.filter { paths.contains($0.path) }
            let kind = g["kind"] as! String
            if entries.contains(where: { $0.burst != nil }) {
                XCTAssertEqual(kind, "similar", "\(paths)")
            } else if entries.contains(where: { $0.duplicate_of != nil }) {
                XCTAssertEqual(kind, "duplicate", "\(paths)")
            } else {
                XCTAssertEqual(kind, "near_identical", "\(paths)")
            }
            // Best first: scores never rise along the group.
            let scores = (g["items"] as! [[String: Any]]).compactMap { $0["score"] as? Double }
            XCTAssertEqual(scores, scores.sorted(by: >), "\(paths)")
        }
        // In a burst, the sharp frame (the one without a degradation) is first.
        for g in groups where (g["items"] as! [[String: Any]]).count > 2 {
            let first = (g["items"] as! [[String: Any]])[0]["path"] as! String
            if let e = t.items.first(where: { $0.path == first }), e.burst != nil {
                XCTAssertNil(e.degradation, "\(first) is the sharp frame of its burst")
            }
        }
    }
}
