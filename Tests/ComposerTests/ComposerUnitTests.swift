@testable import Composer
import Foundation
import PhotoLibrary
import XCTest

/// The draft's rules and the story's geometry as pure values.
final class ComposerUnitTests: XCTestCase {
    let ids = (0..<6).map { _ in AssetID(UUID().uuidString.lowercased())! }

    func testDraftHoldsFourAndRefusesWithoutChanging() throws {
        var d = ComposerDraft()
        try d.add(Array(ids[0..<3]))
        XCTAssertThrowsError(try d.add([ids[3], ids[4]]))
        XCTAssertEqual(d.items, Array(ids[0..<3]), "nothing added when all would not fit")
        let (added, skipped) = try d.add([ids[0], ids[3]])
        XCTAssertEqual(added, [ids[3]])
        XCTAssertEqual(skipped, [ids[0]])
        XCTAssertThrowsError(try d.add([ids[5]]))
        XCTAssertThrowsError(try d.move(from: 0, to: 1))
        XCTAssertThrowsError(try d.remove(at: 5))
        XCTAssertThrowsError(try d.replace(at: 1, with: ids[2]))
        XCTAssertEqual(d.items, Array(ids[0..<4]))
        try d.move(from: 4, to: 1)
        XCTAssertEqual(d.items, [ids[3], ids[0], ids[1], ids[2]])
        try d.replace(at: 2, with: ids[5])
        XCTAssertEqual(try d.remove(at: 1), ids[3])
        XCTAssertEqual(d.items, [ids[5], ids[1], ids[2]])
    }

    func testDraftFileRoundTripsAndDamageIsRefused() throws {
        var d = ComposerDraft()
        try d.add(Array(ids[0..<2]))
        XCTAssertEqual(try ComposerDraft.decode(d.encoded()), d)
        let five = ids[0..<5].map { "\"\($0.rawValue)\"" }.joined(separator: ",")
        let twice = "\"\(ids[0].rawValue)\",\"\(ids[0].rawValue)\""
        for text in ["", "{}", "{\"schema\":1}", "{\"schema\":1,\"items\":[\(five)]}", "{\"schema\":1,\"items\":[\(twice)]}",
                     "{\"schema\":0,\"items\":[]}", "{\"schema\":2,\"items\":[]}", "{\"schema\":1,\"items\":[7]}"] {
            XCTAssertThrowsError(try ComposerDraft.decode(Data(text.utf8)), text) { e in
                XCTAssertTrue("\(e)".contains(".shoebox/composer.json"), "\(e)")
            }
        }
    }

    func testBandsTileTheCanvas() {
        for n in 1...4 {
            let bands = StoryLayout.bands(n)
            XCTAssertEqual(bands.count, n)
            XCTAssertEqual(bands.first?.y, 0)
            XCTAssertEqual(bands.map(\.height).reduce(0, +), 1920)
            for (a, b) in zip(bands, bands.dropFirst()) { XCTAssertEqual(a.y + a.height, b.y) }
            XCTAssertEqual(Set(bands.map(\.height)), [1920 / n])
        }
    }

    func testFillCoversTheBandCentredOrOnTheFaces() {
        // 4:3 landscape into a 1080×480 band: scaled to the band's width, the surplus rows halved.
        let f = StoryLayout.fill(sourceWidth: 4032, sourceHeight: 3024, width: 1080, height: 480)
        XCTAssertEqual(f, StoryLayout.Fill(scaledWidth: 1080, scaledHeight: 810, x: 0, y: 165))
        // Into the whole canvas: scaled to its height, the window centred.
        let g = StoryLayout.fill(sourceWidth: 4032, sourceHeight: 3024, width: 1080, height: 1920)
        XCTAssertEqual(g, StoryLayout.Fill(scaledWidth: 2560, scaledHeight: 1920, x: 740, y: 0))
        // A face on the right: the window centred on it, then kept inside the image.
        let face = StoryLayout.Box(x: 0.8, y: 0.4, w: 0.1, h: 0.1)
        let h = StoryLayout.fill(sourceWidth: 4032, sourceHeight: 3024, width: 1080, height: 1920, faces: [face])
        XCTAssertEqual(h.x, 2560 - 1080)
        let mid = StoryLayout.fill(sourceWidth: 4032, sourceHeight: 3024, width: 1080, height: 1920,
                                   faces: [StoryLayout.Box(x: 0.55, y: 0.4, w: 0.1, h: 0.1)])
        XCTAssertEqual(mid.x, Int(0.6 * 2560) - 540)
        // Two faces: the window centred on their union, both inside.
        let two = StoryLayout.fill(sourceWidth: 3000, sourceHeight: 2000, width: 1080, height: 1920,
                                   faces: [StoryLayout.Box(x: 0.3, y: 0.2, w: 0.05, h: 0.1), StoryLayout.Box(x: 0.45, y: 0.3, w: 0.05, h: 0.1)])
        XCTAssertLessThanOrEqual(two.x, Int(0.3 * Double(two.scaledWidth)))
        XCTAssertGreaterThanOrEqual(two.x + 1080, Int(0.5 * Double(two.scaledWidth)))
        // A small source is enlarged to cover the band.
        let small = StoryLayout.fill(sourceWidth: 300, sourceHeight: 200, width: 1080, height: 960)
        XCTAssertEqual(small, StoryLayout.Fill(scaledWidth: 1440, scaledHeight: 960, x: 180, y: 0))
    }

    func testDecodeSizeCoversTheBand() {
        // Twice the scaled size: a 4032 px photo in a 1080 px wide band is decoded at ≥ 2160 px.
        XCTAssertEqual(StoryLayout.decodeLongSide(fullWidth: 4032, fullHeight: 3024, width: 1080, height: 480), 2160)
        XCTAssertEqual(StoryLayout.decodeLongSide(fullWidth: 4032, fullHeight: 3024, width: 1080, height: 1920), 5120)
        XCTAssertNil(StoryLayout.decodeLongSide(fullWidth: 0, fullHeight: 0, width: 1080, height: 480))
    }
}
