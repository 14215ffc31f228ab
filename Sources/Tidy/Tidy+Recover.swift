import Foundation
import PhotoLibrary

// What a kill leaves of a Tidy change, and how it is finished. Every change goes into the session
// (`.shoebox/tidy.json`) before it reaches the assets, so the session's last change says what to
// finish; `empty` moves files too, and the core's repairs (the asset journal replayed, Recently
// Deleted reconciled) run before Tidy's in every `LibrarySession.write`, so a file a killed
// `empty` moved is a trashed asset by the time Tidy looks.

extension Tidy {
    /// Finishes the session's last change when a kill came between writing it into the session
    /// and storing its marks (or, for `empty`, before its marks and statistics followed the
    /// files). Idempotent; under the writer lock.
    package func recover(_ state: inout TidyState) throws {
        guard let last = state.log.last else { return }
        if last.kind == .empty {
            if last.done != true { try finishEmpty(&state) }
            return
        }
        try store(try unstored(last))
    }

    /// Whether `recover` has anything to do (for reading, which does not write).
    package func needsRecovery(_ state: TidyState) throws -> Bool {
        guard let last = state.log.last else { return false }
        if last.kind == .empty { return last.done != true }
        return try !unstored(last).isEmpty
    }

    /// The marks of `change` its assets do not carry yet: those whose asset still has the mark
    /// the change found (`from`). A mark that moved on since (the photo emptied, or settled by
    /// `settleTrashedMarks`) is never put back: that would mark a restored photo again. A
    /// change's marks are stored in one commit, so after a kill either all are there or none.
    func unstored(_ change: TidyState.Change) throws -> [TidyState.Mark] {
        let byID = try assets(change.marks.map(\.id))
        return change.marks.filter { m in
            guard let mark = byID[m.id].map(\.tidyMark) else { return false }
            return mark.isSame(as: m.from) && !mark.isSame(as: m.to)
        }
    }

    /// `Tidy.feature`'s repair, run by every `LibrarySession.write` after the core's: one indexed
    /// count when there is nothing to do. A "delete" mark on an asset already in Recently Deleted
    /// is one a kill (or a `trash` of a marked photo) left behind: the session's unfinished
    /// `empty` counts it first (`finishEmpty`, which needs the files where they are), then
    /// `settleTrashedMarks` settles any other. The session's other unfinished changes wait for
    /// Tidy's own entry points, which recover what they load (a write that is not Tidy's does
    /// not read a session file that may be large).
    func recoverAfterKill() throws {
        guard try index.count(Self.decided(.delete, state: .trashed)) > 0 else { return }
        // A damaged session is for the tidy commands to report, not a reason to stop a scan.
        if var state = try? store.loadState() { try recover(&state) }
        try settleTrashedMarks()
    }

    /// Trashed assets still marked "delete" become `emptied`: the decision was carried out (their
    /// files left the library). So a photo restored from Recently Deleted comes back not marked,
    /// and the next `empty` leaves it where it is.
    ///
    /// Why here and not in `restore` or `empty`: the core's restore knows nothing of Tidy, and
    /// `empty` could not tell a restored photo's old mark from a new one without a restore date the
    /// core does not keep. Every restore runs inside a write, whose repairs come first, so the
    /// mark is settled while the asset is still in Recently Deleted.
    func settleTrashedMarks() throws {
        let trashed = try index.assets(matching: Self.decided(.delete, state: .trashed))
        guard !trashed.isEmpty else { return }
        try writer.update(trashed.map(\.id)) { asset in
            guard let mark = asset.tidyMark, mark.decision == .delete else { return }
            try asset.features.set(TidyMark.feature, TidyMark(decision: .emptied, at: now, session: mark.session))
        }
    }
}
