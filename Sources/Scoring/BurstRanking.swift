import Foundation
import PhotoLibrary

/// Context: within a burst (shots taken within `gapSeconds` of each other that look alike by
/// their perceptual hashes) the best frame — sharpest, best exposed, eyes open (`AssetScore.frame`)
/// — ranks first. Deterministic and idempotent: every final score is computed from the members'
/// own (base) scores, so running it again, or after a member changes, gives the same answer.
public enum BurstRanking {
    /// Seconds between neighbouring frames of one burst.
    public static let gapSeconds = 2.0
    /// pHash Hamming distance (of 64 bits) under which two frames show the same scene.
    public static let maxHashDistance = 20

    public struct Frame: Sendable {
        public var id: AssetID
        public var takenAt: Double
        public var hash: UInt64?
        public var base: Double
        public var frame: Double
        public var isUtility: Bool
        public init(id: AssetID, takenAt: Double, hash: UInt64?, base: Double, frame: Double, isUtility: Bool) {
            self.id = id; self.takenAt = takenAt; self.hash = hash; self.base = base; self.frame = frame; self.isUtility = isUtility
        }
    }

    public struct Outcome: Equatable, Sendable {
        public var score: Double
        public var place: AssetScore.BurstPlace?
    }

    /// The bursts among `frames`: runs in capture order whose neighbours are at most
    /// `gapSeconds` apart and alike (each frame alike to the one before it).
    public static func bursts(_ frames: [Frame]) -> [[Frame]] {
        let sorted = frames.filter { !$0.isUtility && $0.hash != nil }
            .sorted { ($0.takenAt, $0.id.rawValue) < ($1.takenAt, $1.id.rawValue) }
        var groups: [[Frame]] = []
        for f in sorted {
            if let last = groups.last?.last, f.takenAt - last.takenAt <= gapSeconds,
               ((last.hash ?? 0) ^ (f.hash ?? 0)).nonzeroBitCount <= maxHashDistance {
                groups[groups.count - 1].append(f)
            } else {
                groups.append([f])
            }
        }
        return groups.filter { $0.count > 1 }
    }

    /// Final scores: the best frame keeps its own score; every other frame keeps its own unless
    /// that would put it above the best frame, in which case it goes just below (a thousandth
    /// a rank), so the best frame ranks first and the rest follow in frame order.
    public static func outcomes(_ frames: [Frame]) -> [AssetID: Outcome] {
        var result: [AssetID: Outcome] = [:]
        for f in frames { result[f.id] = Outcome(score: f.base, place: nil) }
        for group in bursts(frames) {
            let ranked = group.sorted { ($1.frame, $0.id.rawValue) < ($0.frame, $1.id.rawValue) }
            var ceiling = ranked[0].base
            for (i, f) in ranked.enumerated() {
                let value = i == 0 ? f.base : min(f.base, ceiling - 0.001)
                ceiling = value
                result[f.id] = Outcome(score: (value * 1e6).rounded() / 1e6, place: AssetScore.BurstPlace(size: group.count, rank: i + 1))
            }
        }
        return result
    }
}
