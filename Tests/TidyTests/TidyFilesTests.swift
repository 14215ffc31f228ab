import Foundation
import PhotoLibrary
@testable import Tidy
import XCTest

/// The session's files as untrusted bytes: written, read back, and refused when damaged.
final class TidyFilesTests: XCTestCase {
    let session = "0d5a3f4e-1b2c-4d5e-8f90-a1b2c3d4e5f6"

    func testAListReadsBackItemByItem() throws {
        let ids = (0..<5).map { _ in AssetID() }
        let group = SimilarGroup(id: SimilarShots.groupID([ids[1], ids[2]]), kind: .nearIdentical, members: [ids[2], ids[1]])
        let items: [TidyItem] = [.asset(ids[0]), .group(group), .asset(ids[3]), .asset(ids[4])]
        let list = try XCTUnwrap(TidyList(TidyList.encode(items, session: session)))
        XCTAssertEqual(list.session, session)
        XCTAssertEqual(list.count, 4)
        XCTAssertEqual((0..<4).map { list.item(at: $0) }, items)
        XCTAssertEqual((0..<4).map { list.memberCount(at: $0) }, [1, 2, 1, 1])
        XCTAssertNil(list.item(at: 4))
    }

    func testDamagedListsAndLinesAreRefused() {
        let id = AssetID().rawValue
        XCTAssertNil(TidyList(Data("shoebox-tidy-list 1 \(session)\na \(id)".utf8)), "a torn last line")
        XCTAssertNil(TidyList(Data("shoebox-tidy-list 2 \(session)\n".utf8)), "another version")
        XCTAssertNil(TidyList(Data("something else\n".utf8)))
        let list = TidyList(Data("shoebox-tidy-list 1 \(session)\na nope\ns g0123456789abcdef \(id) \(id)\nx \(id)\nd g12 \(id) \(id)\n".utf8))
        XCTAssertNotNil(list)
        XCTAssertEqual((0..<4).map { list?.item(at: $0) == nil }, [true, true, true, true])
    }

    /// Lines are cut at their spaces' bytes and ids kept in their stored form (issue 33: `tidy
    /// list` reads every line of a session): an id in capitals still reads as the stored one; an
    /// empty word, a trailing space, a byte that is not UTF-8 and a letter that is no hex digit
    /// are damage, as before.
    func testLinesAreCutAtTheirSpacesAndIdsReadInTheirStoredForm() throws {
        let id = AssetID(), other = AssetID()
        let g = SimilarShots.groupID([id, other])
        var bytes = Data("shoebox-tidy-list 1 \(session)\na \(id.rawValue.uppercased())\na  \(id)\ns \(g) \(id)  \(other)\na \(id) \n".utf8)
        bytes += Data("n \(g) \(id) \(other)\n".utf8)
        bytes += Data("a ".utf8) + Data([0xFF]) + Data(id.rawValue.dropFirst().utf8) + Data("\n".utf8)
        bytes += Data("a \(id.rawValue.dropLast())é\n".utf8)
        let list = try XCTUnwrap(TidyList(bytes))
        XCTAssertEqual(list.item(at: 0), .asset(id))
        XCTAssertEqual((1...3).map { list.item(at: $0) == nil }, [true, true, true])
        XCTAssertEqual(list.item(at: 4), .group(SimilarGroup(id: g, kind: .nearIdentical, members: [id, other])))
        XCTAssertNil(list.item(at: 5), "not UTF-8")
        XCTAssertNil(list.item(at: 6), "not a hex digit")
        XCTAssertEqual(AssetID(id.rawValue)?.rawValue, id.rawValue)
        XCTAssertEqual(AssetID(id.rawValue.uppercased())?.rawValue, id.rawValue)
        XCTAssertNil(AssetID(String(id.rawValue.dropLast()) + "g"))
        XCTAssertNil(AssetID(String(id.rawValue.dropLast())))
    }

    func testAStateReadsBackAndDamagedOnesAreOneLine() throws {
        var state = TidyState(session: session, filter: .year(2024), startedAt: Date(timeIntervalSince1970: 1_700_000_000), items: 3, totalAssets: 4)
        let id = AssetID()
        state.log.append(.init(kind: .decide, item: 0, positionBefore: 0, positionAssetsBefore: 0,
                               marks: [.init(id: id, from: nil, to: TidyMark(decision: .delete, at: Date(timeIntervalSince1970: 1_700_000_001), session: session))]))
        state.position = 1
        state.positionAssets = 2
        XCTAssertEqual(try TidyState.decode(state.encoded()), state)
        XCTAssertEqual(state.reviewed, 1)

        var bad = state
        bad.position = 9
        for data in [try bad.encoded(), Data("[]".utf8), Data("{\"schema\": 1}".utf8), Data([0xFF, 0xFE])] {
            XCTAssertThrowsError(try TidyState.decode(data)) { e in
                XCTAssertTrue("\(e)".contains(".shoebox/tidy.json is damaged"), "\(e)")
            }
        }
        XCTAssertThrowsError(try TidyState.decode(Data("{\"schema\": 7}".utf8))) { e in
            XCTAssertTrue("\(e)".contains("newer than this Shoebox"), "\(e)")
        }
    }

    func testFiltersReadWhatTheyWrite() {
        for f: TidyFilter in [.all, .screenshots, .last30Days, .year(2019), .largest, .maybe] {
            XCTAssertEqual(TidyFilter(f.description), f)
        }
        XCTAssertEqual(TidyFilter("2024"), .year(2024))
        for bad in ["", "year:24", "year:abcd", "last-31-days", "year:１２３４"] { XCTAssertNil(TidyFilter(bad), bad) }
    }
}
