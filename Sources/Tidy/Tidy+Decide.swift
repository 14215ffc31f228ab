import Foundation
import PhotoLibrary

extension Tidy {
    /// What a decision changed.
    public struct Decided: Sendable {
        public var decision: TidyDecision
        /// The assets decided `decision`, and those `--others` decided.
        public var ids: [AssetID]
        public var others: [AssetID]
        public var othersDecision: TidyDecision?
    }

    /// keep / delete / maybe: the item under review as a whole, or with `reference` one asset —
    /// of the item (the group stays under review until each member is decided, or `others`
    /// decides the rest) or anywhere in the library (the session's place does not move).
    /// The change goes into the session first, then onto the assets (`recover` finishes it
    /// after a kill).
    package func decide(_ decision: TidyDecision, _ reference: String? = nil, others: TidyDecision? = nil,
                        in session: inout TidySession) throws -> Decided {
        precondition(decision != .emptied && others != .emptied)
        let current = try self.current(&session)
        var chosen: [Asset]
        var rest: [Asset] = []
        var item: Int?
        if let reference {
            let asset = try presentAsset(reference)
            if let current, current.item.members.contains(asset.id) {
                item = current.index
                chosen = [asset]
                if others != nil {
                    rest = current.assets.filter { current.open.contains($0.id) && $0.id != asset.id }
                }
            } else {
                if others != nil { throw TidyError.othersNeedGroup(reference) }
                chosen = [asset]
            }
        } else {
            guard let current else { throw TidyError.nothingToReview }
            item = current.index
            chosen = current.assets.filter { current.open.contains($0.id) }
        }
        let sessionID = session.state.session
        let marks = chosen.map { TidyState.Mark(id: $0.id, from: $0.tidyMark, to: TidyMark(decision: decision, at: now, session: sessionID)) }
            + rest.map { TidyState.Mark(id: $0.id, from: $0.tidyMark, to: TidyMark(decision: others!, at: now, session: sessionID)) }
        let change = TidyState.Change(kind: .decide, item: item, positionBefore: session.state.position,
                                      positionAssetsBefore: session.state.positionAssets, marks: marks)
        if let current, item == current.index, Set(current.open).isSubset(of: Set(marks.map(\.id))) {
            session.state.position = current.index + 1
            session.state.positionAssets += session.list.memberCount(at: current.index)
        }
        session.state.record(change)
        try store.save(session.state)
        try store(marks)
        return Decided(decision: decision, ids: chosen.map(\.id), others: rest.map(\.id), othersDecision: rest.isEmpty ? nil : others)
    }

    /// Takes the session's last change back: its assets get the marks they had before, and the
    /// session returns to the item it was made on. Never past `tidy empty`.
    @discardableResult
    package func undo(in session: inout TidySession) throws -> TidyState.Change {
        guard let last = session.state.log.last else {
            if session.state.continues != nil { throw TidyError.undoPastFilter }
            throw session.state.earlier == nil ? TidyError.nothingToUndo : TidyError.undoPastKept
        }
        guard session.state.log.count > session.state.undoFloor else { throw TidyError.undoPastEmpty }
        // The marks first, then the session: a kill between leaves the change in the log, which
        // `recover` applies again (the undo is lost, nothing is inconsistent).
        try store(last.marks.map { TidyState.Mark(id: $0.id, from: $0.to, to: $0.from) })
        session.state.log.removeLast()
        if last.item != nil {
            session.state.position = last.positionBefore
            session.state.positionAssets = last.positionAssetsBefore
        }
        try store.save(session.state)
        return last
    }

    /// Trash review: a marked asset goes back to "keep" (brief 004: "restore individual photos").
    package func unmark(_ reference: String, in session: inout TidySession) throws -> Asset {
        let asset = try presentAsset(reference)
        guard asset.tidyMark?.decision == .delete else { throw TidyError.notMarked(reference) }
        let mark = TidyState.Mark(id: asset.id, from: asset.tidyMark,
                                  to: TidyMark(decision: .keep, at: now, session: session.state.session))
        session.state.record(TidyState.Change(kind: .unmark, item: nil, positionBefore: session.state.position,
                                                  positionAssetsBefore: session.state.positionAssets, marks: [mark]))
        try store.save(session.state)
        try store([mark])
        return try index.asset(id: asset.id) ?? asset
    }

    /// The present asset a user means (a Live Photo's movie stands for its photo).
    func presentAsset(_ reference: String) throws -> Asset {
        var asset = try index.resolve(reference, preferring: .present)
        if let photo = asset.livePhotoOf, let p = try index.asset(id: photo) { asset = p }
        guard asset.state == .present else { throw TidyError.notPresent(reference, asset.state) }
        return asset
    }
}
