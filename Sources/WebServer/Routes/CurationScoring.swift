import Analysis
import Curation
import Foundation
import NIOConcurrencyHelpers
import PhotoLibrary

/// The photos chosen on /curate, analysed first. `curate add` waits for their scores; the page
/// does not: they join the list at once, marked as being scored, while this analyses them on a
/// thread of its own — the one entry point `curate add` waits on (`Analysis.run(ids:wait:)`),
/// a batch at a time under the writer lock, so the watcher and the other routes go on between
/// batches. Without it the chosen photos would wait behind the watcher's whole backlog (or for
/// ever with `--no-watch`). Each stored batch moves the index's generation: the page hears it
/// through /api/events and reads the list again, scores and ranks included.
final class CurationScoring: Sendable {
    private struct State {
        var queued: [AssetID] = []
        /// Queued or being analysed now: what the page shows as "Scoring…".
        var scoring = Set<AssetID>()
        var running = false
    }

    private let session: LibrarySession
    private let state = NIOLockedValueBox(State())

    init(session: LibrarySession) { self.session = session }

    /// Of `ids`, those waiting for this analysis now.
    func scoring(_ ids: [AssetID]) -> Set<AssetID> {
        state.withLockedValue { s in s.scoring.intersection(ids) }
    }

    /// Analyses the photos of `entries` not analysed yet, after what is queued already.
    func score(_ entries: [CurationEntry]) {
        let wanted = entries.filter { !$0.isAnalysed }.map(\.asset.id)
        guard !wanted.isEmpty else { return }
        let start = state.withLockedValue { s -> Bool in
            for id in wanted where s.scoring.insert(id).inserted { s.queued.append(id) }
            defer { s.running = true }
            return !s.running
        }
        guard start else { return }
        let thread = Thread { [self] in drain() }
        thread.name = "shoebox-curation-scoring"
        thread.start()
    }

    /// Runs until the queue is empty; what the analysis could not read is left unscored (the
    /// page shows "No score": it ranks after the scored photos, as `curate add` says).
    private func drain() {
        while let batch = state.withLockedValue({ s -> [AssetID]? in
            guard !s.queued.isEmpty else { s.running = false; return nil }
            defer { s.queued = [] }
            return s.queued
        }) {
            _ = try? Analysis.run(session, ids: batch, wait: true)
            state.withLockedValue { s in s.scoring.subtract(batch) }
        }
    }
}

extension CurationEntry {
    /// Analysed in its present content (a score, or none because the scorer gives none).
    var isAnalysed: Bool {
        guard let analysis = asset.analysis, analysis.sha256 == asset.sha256 else { return false }
        return analysis.isCurrent(for: asset)
    }
}
