import Foundation
import PhotoLibrary
import Testing
@testable import Scoring

/// The context step's rule: in a burst the best frame ranks first, the others keep their place
/// below it, and the answer depends only on the frames, never on when each was scored.
@Suite struct BurstRankingTests {
    /// Ids a, b, c… as UUIDs ending in that hex digit (their order is the letters').
    func id(_ letter: String) -> AssetID { AssetID("00000000-0000-0000-0000-00000000000\(letter)")! }

    func frame(_ id: String, _ t: Double, base: Double, frame: Double, hash: UInt64 = 0xF0F0_F0F0_0F0F_0F0F) -> BurstRanking.Frame {
        BurstRanking.Frame(id: self.id(id), takenAt: t, hash: hash, base: base, frame: frame, isUtility: false)
    }

    @Test func theSharpestFrameRanksFirstEvenWhenABlurredOneScoredHigher() {
        // b is brighter (a higher own score) but blurred; c is the sharp one.
        let frames = [frame("a", 0, base: 0.40, frame: 0.3), frame("b", 1, base: 0.62, frame: 0.5), frame("c", 2, base: 0.55, frame: 0.9)]
        let o = BurstRanking.outcomes(frames)
        let order = frames.map(\.id).sorted { o[$0]!.score > o[$1]!.score }
        #expect(order == [id("c"), id("b"), id("a")])
        #expect(o[id("c")]?.score == 0.55, "the best frame keeps its own score")
        #expect(o[id("c")]?.place == AssetScore.BurstPlace(size: 3, rank: 1))
        #expect(o[id("a")]?.score == 0.40, "a frame already below keeps its score")
    }

    @Test func theOutcomeIsTheSameWhateverTheOrderAndWhenRunAgain() {
        let frames = [frame("a", 10, base: 0.3, frame: 0.2), frame("b", 11, base: 0.7, frame: 0.4), frame("c", 12, base: 0.5, frame: 0.8)]
        let once = BurstRanking.outcomes(frames)
        #expect(BurstRanking.outcomes(frames.reversed()) == once)
        // Run again on the finals (as a later refresh would see them): the bases decide, so nothing moves.
        #expect(BurstRanking.outcomes(frames.shuffled()) == once)
    }

    @Test func framesFarApartOrUnlikeAreNoBurst() {
        let far = [frame("a", 0, base: 0.7, frame: 0.1), frame("b", 30, base: 0.5, frame: 0.9)]
        #expect(BurstRanking.bursts(far).isEmpty)
        let unlike = [frame("a", 0, base: 0.7, frame: 0.1), frame("b", 1, base: 0.5, frame: 0.9, hash: 0x0F0F_0F0F_F0F0_F0F0)]
        #expect(BurstRanking.bursts(unlike).isEmpty)
        #expect(BurstRanking.outcomes(unlike)[id("a")]?.score == 0.7)
    }
}
