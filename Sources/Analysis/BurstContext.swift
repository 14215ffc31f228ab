import Foundation
import Metadata
import PhotoLibrary
import Scoring

/// The context step of scoring: after a batch of analyses is stored, the bursts around those
/// photos are ranked again (`BurstRanking`) from their members' own scores, and whatever changed
/// (a final score, a place in a burst) is written through the writer. Members come and go
/// (a frame analysed later, one deleted or edited): each time, the neighbourhood is worked out
/// anew from the stored base scores, so the result never depends on the order of events.
enum BurstContext {
    /// Neighbours looked at on either side of a photo; a burst chain longer than this is cut.
    static let windowSeconds = 30.0

    static func refresh(around changed: [Asset], writer: AssetWriter) throws {
        var window: [AssetID: Asset] = [:]
        for a in changed {
            guard a.analysis?.score != nil, let t = a.takenAt?.date else { continue }
            var q = AssetQuery()
            q.takenFrom = t.addingTimeInterval(-windowSeconds)
            q.takenBefore = t.addingTimeInterval(windowSeconds)
            for n in try writer.index.assets(matching: q) { window[n.id] = n }
        }
        let frames = window.values.compactMap { a -> BurstRanking.Frame? in
            // Only a capture time the file states makes a burst: files copied together share
            // modification times (and an edit's IFD0 time is not when the shutter fired).
            guard let analysis = a.analysis, analysis.sha256 == a.sha256, let s = analysis.score,
                  let taken = a.takenAt, taken.source != .mtime, taken.source != .exifModified,
                  a.kind == .photo else { return nil }
            let t = taken.date
            return BurstRanking.Frame(id: a.id, takenAt: t.timeIntervalSince1970,
                                      hash: analysis.perceptualHash.flatMap { UInt64($0, radix: 16) },
                                      base: s.base, frame: s.frame, isUtility: s.utility != nil)
        }
        let outcomes = BurstRanking.outcomes(frames)
        let stale = outcomes.filter { id, o in
            let s = window[id]?.analysis?.score
            return s?.ranked != o.score || s?.burst != o.place
        }
        guard !stale.isEmpty else { return }
        try writer.update(stale.keys.sorted()) { asset in
            guard let o = stale[asset.id], var analysis = asset.analysis, var s = analysis.score else { return }
            s.ranked = o.score
            s.burst = o.place
            analysis.score = s
            asset.analysis = analysis
            asset.applyAnalysisScore()
        }
    }
}
