import Foundation
@testable import PhotoLibrary
import Tidy
import XCTest

/// The grouping rules on keys made by hand: fast, every threshold on both sides.
final class SimilarShotsTests: XCTestCase {
    private var serial = 0
    private func key(_ hash: UInt64?, at time: Double?, score: Double? = 0.5, kind: AssetKind = .photo, utility: Bool = false,
                     sha: String? = nil, pixels: Int = 12_000_000) -> SimilarityKey {
        serial += 1
        return SimilarityKey(id: AssetID(String(format: "00000000-0000-4000-8000-%012d", serial))!, kind: kind, isUtility: utility,
                             sha256: sha ?? "sha\(serial)", size: 1_000_000, pixels: pixels, statedTime: time,
                             perceptualHash: hash, score: score)
    }

    private func flip(_ h: UInt64, _ bits: Int) -> UInt64 { (0..<bits).reduce(h) { $0 ^ (UInt64(1) << UInt64($1 * 5 % 64)) } }

    func testMultiIndexFindsExactlyWhatComparingEveryPairFinds() {
        var rng = SystemRandomNumberGenerator()
        var hashes = (0..<3000).map { _ in UInt64.random(in: .min ... .max, using: &rng) }
        for i in 0..<300 { hashes.append(flip(hashes[i], i % 20)) }  // planted neighbours at 0…19 bits
        for radius in [6, 16] {
            let index = HashNeighbours(hashes, radius: radius)
            for q in stride(from: 0, to: hashes.count, by: 7) {
                let brute = hashes.indices.filter { (hashes[$0] ^ hashes[q]).nonzeroBitCount <= radius }
                XCTAssertEqual(index.neighbours(of: hashes[q]), brute, "radius \(radius), query \(q)")
            }
        }
    }

    func testShotsWithin10SecondsAreOneGroupAndFartherOnesAreNot() {
        let base: UInt64 = 0x0F0F_F0F0_1234_5678
        let a = key(base, at: 1000), b = key(~base, at: 1009.9), c = key(base ^ 0xFFFF_FFFF, at: 1025), d = key(~base, at: 1200)
        let groups = SimilarShots.groups([a, b, c, d])
        XCTAssertEqual(groups.map { Set($0.members) }, [Set([a.id, b.id])])
        XCTAssertEqual(groups[0].kind, .similar)
    }

    func testAlikeShotsWithinAMinuteAreSimilarButNotBeyond() {
        let h: UInt64 = 0xDEAD_BEEF_0000_FFFF
        let a = key(h, at: 0), b = key(flip(h, 14), at: 50), c = key(flip(h, 3), at: 200)
        XCTAssertEqual(SimilarShots.groups([a, b, c]).map { Set($0.members) }, [Set([a.id, b.id])])
    }

    func testABurstOfDistinctFramesIsSimilarEvenWhenItsHashesAreClose() {
        let h: UInt64 = 0x1234_5678_9ABC_DEF0
        let frames = [key(h, at: 100.2), key(flip(h, 1), at: 101.1), key(flip(h, 2), at: 102.05)]
        let groups = SimilarShots.groups(frames)
        XCTAssertEqual(groups.count, 1)
        XCTAssertEqual(groups[0].kind, .similar)
    }

    func testACopyAtTheSameInstantIsNearIdenticalAndAByteCopyIsADuplicate() {
        let h: UInt64 = 0x1111_2222_3333_4444
        let original = key(h, at: 500.123), edited = key(flip(h, 5), at: 500.123)
        XCTAssertEqual(SimilarShots.groups([original, edited]).first?.kind, .nearIdentical)
        let copy = key(h, at: 500.123, sha: original.sha256)
        XCTAssertEqual(SimilarShots.groups([original, copy]).first?.kind, .duplicate)
        // Seven bits apart is no longer the same picture.
        let other = key(flip(h, 7), at: 500.123)
        XCTAssertEqual(SimilarShots.groups([original, other]).first?.kind, .similar)
    }

    func testAnUndatedCopyFindsItsOriginalAnywhereButTheSameSceneYearsApartStaysApart() {
        let h: UInt64 = 0xAAAA_5555_AAAA_5555
        let original = key(h, at: 1_500_000_000), messaged = key(flip(h, 4), at: nil)
        let sameSceneLater = key(flip(h, 2), at: 1_600_000_000)
        let farHash = key(h ^ 0xFFFF_0000_0000_0000, at: nil)
        let groups = SimilarShots.groups([original, messaged, sameSceneLater, farHash])
        XCTAssertEqual(groups.count, 1)
        XCTAssertEqual(Set(groups[0].members), Set([original.id, messaged.id, sameSceneLater.id]),
                       "the undated copy is near both dated ones; the dated ones alone would stay apart")
        XCTAssertEqual(SimilarShots.groups([original, sameSceneLater]), [])
    }

    func testScreenshotsDocumentsAndVideosAreNotGroupedByLook() {
        let h: UInt64 = 0x0123_4567_89AB_CDEF
        let shot1 = key(h, at: nil, kind: .screenshot, utility: true), shot2 = key(h, at: nil, kind: .screenshot, utility: true)
        let page1 = key(h, at: nil, utility: true), page2 = key(flip(h, 1), at: nil, utility: true)
        let clip1 = key(h, at: 10, kind: .video), clip2 = key(h, at: 12, kind: .video)
        XCTAssertEqual(SimilarShots.groups([shot1, shot2, page1, page2, clip1, clip2]), [])
    }

    func testTheBestIsTheHighestScoreNeverMerelyTheLargestFile() {
        let h: UInt64 = 0x7777_0000_7777_0000
        let big = key(h, at: 0, score: 0.2, pixels: 48_000_000), good = key(flip(h, 3), at: 1, score: 0.7, pixels: 2_000_000)
        let unscored = key(h, at: 2, score: nil, pixels: 90_000_000)
        XCTAssertEqual(SimilarShots.groups([big, unscored, good])[0].members, [good.id, big.id, unscored.id])
    }

    func testGroupIDsDependOnlyOnTheMembers() {
        let a = key(1, at: 0), b = key(1, at: 1)
        XCTAssertEqual(SimilarShots.groups([a, b])[0].id, SimilarShots.groups([b, a])[0].id)
        XCTAssertNotEqual(SimilarShots.groups([a, b])[0].id, SimilarShots.groups([a, key(1, at: 1)])[0].id)
    }
}
