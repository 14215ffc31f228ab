import Foundation
import Testing
@testable import Analysis

/// The one patience rule of `analyze --wait` and `curate add`: a wait goes on while rounds store
/// results, gives up after `seconds` of rounds that store nothing, and never waits for nothing.
@Suite struct AnalysisPatienceTests {
    let t0 = Date(timeIntervalSince1970: 1_000_000)

    /// Whether the wait goes on after each round: (files left, results stored, seconds since t0).
    func decisions(_ rounds: [(left: Int, stored: Int, at: Double)]) -> [Bool] {
        var patience = AnalysisPatience(seconds: 5)
        return rounds.map { patience.goesOn(left: $0.left, stored: $0.stored, now: t0 + $0.at) }
    }

    @Test func nothingLeftEndsTheWaitAtOnce() {
        #expect(decisions([(0, 3, 0)]) == [false])
        #expect(decisions([(0, 0, 0)]) == [false])
    }

    @Test func roundsThatStoreNothingGiveUpAfterThePatience() {
        #expect(decisions([(2, 0, 0), (2, 0, 4.9), (2, 0, 5)]) == [true, true, false])
    }

    @Test func aRoundThatStoresSomethingStartsThePatienceAgain() {
        #expect(decisions([(2, 0, 0), (1, 1, 4), (1, 0, 8), (1, 0, 12.9), (1, 0, 13)]) == [true, true, true, true, false])
    }
}
