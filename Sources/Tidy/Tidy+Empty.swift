import Foundation
import PhotoLibrary

extension Tidy {
    /// What `tidy empty` did (brief 004's stats screen).
    public struct Emptied: Sendable {
        /// Photos and videos moved to Recently Deleted (a Live Photo once).
        public var removed: Int
        /// Bytes they took in the library (a Live Photo's movie included).
        public var freedBytes: Int64
        /// Distinct assets decided in this session.
        public var reviewed: Int
        /// When Recently Deleted deletes them for good (`trash purge`, or a running `watch`).
        public var purgeDate: Date
        /// Marked assets that could not be moved (each already reported); they stay marked.
        public var failed: Int
        /// This session's totals so far (several `empty`s add up).
        public var sessionRemoved: Int
        public var sessionFreedBytes: Int64
    }

    /// Moves every marked asset's files to Recently Deleted (never a permanent delete); their
    /// marks become `emptied`. The change is in the session (`state`, saved) before any file
    /// moves, and `recover` finishes what a kill interrupted. `undo` cannot go back past it.
    /// Under the writer lock; `trash` is the lock's.
    package func empty(in state: inout TidyState, trash: RecentlyDeleted, retentionDays: Int,
                       failed report: (ShoeboxError) -> Void) throws -> Emptied {
        let marked = try assets(decided: .delete)
        let before = (removed: state.removed, freed: state.freedBytes)
        var failures = 0
        if !marked.isEmpty {
            let sessionID = state.session
            let marks = marked.map { TidyState.Mark(id: $0.id, from: $0.tidyMark, to: TidyMark(decision: .emptied, at: now, session: sessionID)) }
            state.record(TidyState.Change(kind: .empty, item: nil, positionBefore: state.position,
                                          positionAssetsBefore: state.positionAssets, marks: marks, done: false))
            try store.save(state)
            _ = try trash.trash(marked) { error in failures += 1; report(error) }
            try finishEmpty(&state)
        }
        return Emptied(removed: state.removed - before.removed, freedBytes: state.freedBytes - before.freed,
                       reviewed: state.reviewed, purgeDate: now.addingTimeInterval(Double(retentionDays) * 86_400),
                       failed: failures, sessionRemoved: state.removed, sessionFreedBytes: state.freedBytes)
    }

    /// The second half of `empty` (and its recovery): each asset of the last `empty` change that
    /// is now in Recently Deleted and still marked gets `emptied`, and counts; what is still in
    /// the library stays marked. Idempotent.
    func finishEmpty(_ state: inout TidyState) throws {
        guard var last = state.log.last, last.kind == .empty else { return }
        let byID = try assets(last.marks.map(\.id))
        let moved = last.marks.filter { m in
            guard let a = byID[m.id] else { return false }
            // Still marked, or already given this change's mark (a kill came before the
            // session's statistics were saved): both moved with this change.
            return a.state == .trashed && (a.tidyMark?.decision == .delete || a.tidyMark.isSame(as: m.to))
        }
        var q = AssetQuery()
        q.companionsOf = moved.map(\.id)
        q.includeLiveVideos = true
        q.states = [.trashed]
        let companions = try moved.isEmpty ? [] : index.assets(matching: q)
        let bytes = moved.reduce(Int64(0)) { $0 + (byID[$1.id]?.size ?? 0) } + companions.reduce(Int64(0)) { $0 + $1.size }
        try store(moved.filter { !(byID[$0.id]?.tidyMark ?? nil).isSame(as: $0.to) })
        // Done, the marks are read no more (`undo` never goes back past an `empty`, `recover`
        // only finishes one not done): kept, a large empty's would weigh on every tidy command
        // for the next `undoDepth` changes.
        last.marks = []
        last.done = true
        state.log[state.log.count - 1] = last
        state.removed += moved.count
        state.freedBytes += bytes
        try store.save(state)
    }
}
