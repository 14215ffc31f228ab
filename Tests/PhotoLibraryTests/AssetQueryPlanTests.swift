import Foundation
import GRDB
import Testing
@testable import PhotoLibrary

/// A query for given assets (a tidy session's items, a group's members, an album's) must go to
/// them by their key: with `state IN (…)` SQLite walked a state index over the whole library and
/// tested every entry against the list, which made `tidy list --json` take ~15 s of CPU at
/// 100,000 assets (one such walk per item passed and per batch of 2,000 items).
@Suite(.serialized)
struct AssetQueryPlanTests {
    func plan(_ q: AssetQuery) throws -> [String] {
        let (library, index) = try WalkMergeTests.library(["a.jpg"])
        _ = library
        let (sql, args) = q.sql()
        return try index.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: args).map { $0["detail"] as String }
        }
    }

    @Test func givenIdsAreLookedUpByTheirKey() throws {
        var q = AssetQuery()
        q.ids = (0..<50).map { _ in AssetID() }
        q.states = AssetState.allCases
        q.includeLiveVideos = true
        let plan = try plan(q)
        #expect(plan.contains { $0.contains("(id=?)") }, "\(plan)")
        #expect(!plan.contains { $0.contains("(state=?)") }, "\(plan)")
    }

    @Test func companionsAreLookedUpThroughTheLivePhotoIndex() throws {
        var q = AssetQuery()
        q.companionsOf = (0..<50).map { _ in AssetID() }
        q.includeLiveVideos = true
        let plan = try plan(q)
        #expect(plan.contains { $0.contains("asset_live") }, "\(plan)")
    }

    @Test func aListingWithoutIdsStillUsesTheStateIndexes() throws {
        let plan = try plan(AssetQuery())
        #expect(plan.contains { $0.contains("(state=?)") }, "\(plan)")
    }

    /// `assetsByID` (a tidy listing's batches) reads the ids through `json_each`: by their key,
    /// every state, an id given twice or unknown changing nothing.
    @Test func assetsByIDFindsEachGivenAssetByItsKeyInAnyState() throws {
        let (library, index) = try WalkMergeTests.library(["a.jpg", "b.jpg", "c.jpg"])
        _ = try Scanner(library: library, index: index).scan()
        let all = try index.allAssets()
        try #require(all.count == 3)
        _ = try index.pool.write { db in
            try db.execute(sql: "UPDATE asset SET state = 'trashed' WHERE id = ?", arguments: [all[1].id.rawValue])
        }
        let ids = [all[2].id, AssetID(), all[1].id, AssetID(trusted: "not \"stored\" \\ form"), all[2].id]
        let byID = try index.assetsByID(ids)
        #expect(Set(byID.keys) == [all[1].id, all[2].id])
        #expect(byID[all[1].id]?.state == .trashed)
        #expect(try index.assets(ids: ids).count == 2)
        for id in byID.keys { #expect(byID[id] == (try index.asset(id: id))) }
        #expect(try index.assetsByID([]).isEmpty)
        let plan = try index.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + Index.assetsByIDSQL, arguments: ["[]"]).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("(id=?)") }, "\(plan)")
    }
}
