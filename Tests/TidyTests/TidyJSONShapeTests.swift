import Foundation
import MetadataCore
@testable import PhotoLibrary
@testable import Tidy
import XCTest

/// The group shape written by the streaming writer in one pass (`tidy list|next --json`) is
/// JSONEncoder's document byte for byte: keys in order, each member's `decision`, strings that
/// need escapes, at the top and inside a listing.
final class TidyJSONShapeTests: XCTestCase {
    let session = "0d5a3f4e-1b2c-4d5e-8f90-a1b2c3d4e5f6"

    func asset(_ path: String, seen: Double, mark: TidyDecision?) throws -> Asset {
        var a = Asset(id: AssetID(), path: path, state: .present, size: 1234, mtimeNS: 1_795_262_400_123_000_000, inode: 1,
                      sha256: String(repeating: "ab", count: 32), kind: .photo, metadata: MediaMetadata(format: .jpeg),
                      place: Place(city: "Lisbon", country: nil), duplicateOf: nil, livePhotoOf: nil,
                      firstSeen: Date(timeIntervalSince1970: seen), score: 0.25, isUtility: false, similarGroup: "g1")
        if let mark {
            try a.features.set(TidyMark.feature, TidyMark(decision: mark, at: Date(timeIntervalSince1970: 1_795_000_000), session: session))
        }
        return a
    }

    func testAGroupIsJSONEncodersDocument() throws {
        let assets = [try asset("2026/a \"quoted\".jpg", seen: 1_700_000_000.5, mark: .delete),
                      try asset("2026/b\\c.jpg", seen: 1_700_000_000.7, mark: nil),
                      try asset("2026/tab\there.jpg", seen: 1_600_000_000, mark: .maybe)]
        let group = SimilarGroup(id: SimilarShots.groupID(assets.map(\.id)), kind: .nearIdentical, members: assets.map(\.id))
        let current = TidyCurrent(index: 0, item: .group(group), assets: Dictionary(uniqueKeysWithValues: assets.map { ($0.id, $0) }),
                                  session: session)
        let item = TidyItemJSON(current, companions: [assets[1].id: "2026/b.mov"])
        guard case .group = item else { return XCTFail("three present members make a group") }
        let single = TidyItemJSON(TidyCurrent(index: 1, item: .asset(assets[0].id), assets: [assets[0].id: assets[0]], session: session),
                                  companions: [:])
        for shape in [[item], [single, item, single], []] {
            let streamed = try ShoeboxJSON.document(shape)
            XCTAssertEqual(String(decoding: streamed, as: UTF8.self), String(decoding: try ShoeboxJSON.reference(shape), as: UTF8.self))
        }
        let alone = try ShoeboxJSON.document(item)
        XCTAssertEqual(String(decoding: alone, as: UTF8.self), String(decoding: try ShoeboxJSON.reference(item), as: UTF8.self))
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: alone) as? [String: Any])
        XCTAssertEqual(parsed.keys.sorted(), ["group", "items", "kind"])
        XCTAssertEqual((parsed["items"] as? [[String: Any]])?.map { $0["decision"] as? String }, ["delete", nil, "maybe"])
    }
}
