import Foundation
import PhotoLibrary

/// A change of the curation list (`Curation.change`).
public enum CurationChange: Sendable, Equatable {
    /// Select photos: ranks as the list shows them (a number), or ids, id prefixes or paths of
    /// photos in the list. Every word is checked before anything changes.
    case select([String])
    /// Deselect photos, named as for `select`.
    case deselect([String])
    /// Select the best `n` (one of `Curation.topCounts`; all when the list has fewer), replacing
    /// the selection.
    case top(Int)
    /// Take the selected photos out of the list (their files stay).
    case removeSelected
    /// Append these photos (those not in the list yet). `Curation.add` resolves what a user
    /// names and waits for the scores first.
    case add([AssetID])
}

/// The list after a change.
public struct CurationChangeResult: Sendable {
    /// The list, best first.
    public var entries: [CurationEntry]
    /// How many photos are selected now.
    public var selectedCount: Int
    /// How many the change added (`add`) or took out (`removeSelected`); for the others, how
    /// many are selected.
    public var count: Int
}

/// What `Curation.add` did.
public struct CurationAddResult: Sendable {
    /// The list, best first.
    public var entries: [CurationEntry]
    /// The distinct photos named.
    public var named: Int
    /// Of those, the ones that were not in the list yet.
    public var added: Int
    /// Of those named, the ones without a score (ranked after the scored ones).
    public var unscored: Int
}

extension Curation {
    /// The `n` of `top n`: the brief's four buttons.
    public static let topCounts = [1, 5, 10, 20]

    /// The feature as a session knows it. Curation adds nothing to the index and has no recovery
    /// of its own: its one file is replaced whole (a kill leaves the old list or the new one),
    /// and a damaged one is named by every command that reads it.
    public static let feature = LibraryFeature(name: "curation")

    init(_ session: LibrarySession) { self.init(library: session.library, index: session.index) }

    // MARK: Entry points (front ends call these, on a session)

    /// `curate list`: the list, best first, read without the writer lock. Ids the index no longer
    /// has (purged) are left out, each with a note to the session's log.
    public static func list(_ session: LibrarySession) throws -> [CurationEntry] {
        try session.read { _ in try Curation(session).load(note: session.log).entries }
    }

    /// Changes the list under the writer lock, from load to save (purged ids dropped with a note).
    public static func change(_ session: LibrarySession, _ change: CurationChange) throws -> CurationChangeResult {
        try session.write { _ in
            let curation = Curation(session)
            var (state, entries) = try curation.load(note: session.log)
            let count = try curation.apply(change, to: &state, entries)
            try curation.store.save(state)
            entries = try curation.entries(of: state)
            return CurationChangeResult(entries: entries, selectedCount: state.selected.count, count: count)
        }
    }

    /// `curate add`: the photos `references` name (ids, id prefixes or paths; a Live Photo's movie
    /// stands for its photo), every photo of `album`, every photo taken in `year` — all resolved
    /// first (one error naming the first that is not a present asset, nothing added, nothing
    /// analysed) — then `waitingForScores` with their ids, then added under the writer lock.
    ///
    /// The scores come from the analysis pipeline, which Curation does not import (it needs no
    /// pixels, and a feature depends on the core only): the front end passes the wait in, as
    /// `{ try Analysis.run(session, ids: $0, wait: true) }`, and reports what it could not
    /// analyse its own way. The order stays here, for every front end: nothing is analysed for
    /// a request that names a wrong photo, and the long analysis runs before the list's lock is
    /// taken (it takes the lock a batch at a time), so a `watch` or another command goes on
    /// meanwhile.
    public static func add(_ session: LibrarySession, _ references: [String], album: String? = nil, year: Int? = nil,
                           waitingForScores: ([AssetID]) throws -> Void) throws -> CurationAddResult {
        if let problem = session.index.readOnlyReason { throw problem }
        var seen = Set<AssetID>()
        let ids = try session.read { _ in
            try Curation(session).candidates(references, album: album, year: year).map(\.id).filter { seen.insert($0).inserted }
        }
        try waitingForScores(ids)
        let result = try change(session, .add(ids))
        let named = Set(ids)
        return CurationAddResult(entries: result.entries, named: ids.count, added: result.count,
                                 unscored: result.entries.filter { named.contains($0.asset.id) && $0.asset.score == nil }.count)
    }

    /// `curate share`: the selected originals (and their companions) into `folder` (absolute),
    /// byte for byte (see `CurationShare`), each opened by `session.openOriginal`. Reads the list
    /// without the writer lock: nothing in the library changes.
    public static func share(_ session: LibrarySession, to folder: String, copy: Bool) throws -> [CurationShare.Placed] {
        let curation = Curation(session)
        let selected = try session.read { _ in try curation.load(note: session.log).entries.filter(\.selected) }
        guard !selected.isEmpty else { throw CurationError.nothingSelected }
        return try CurationShare(curation: curation, openOriginal: session.openOriginal).share(selected, to: folder, copy: copy)
    }

    /// `curate album`: the user album "TO NAME yyyy-MM-dd HH.mm.ss" (the change's clock) of the
    /// whole list in score order, under the writer lock; returns it as its folder shows it.
    public static func album(_ session: LibrarySession) throws -> (AlbumFolder, AlbumSyncReport) {
        try session.write { locked in
            let curation = Curation(session)
            let (state, entries) = try curation.load(note: session.log)
            try curation.store.save(state)  // purged ids dropped
            return try CurationAlbum.create(entries, library: locked.library, index: locked.index, now: locked.now)
        }
    }

    /// `curate clear`: the list emptied, whatever its file held (a damaged one too); no photo is
    /// touched. Returns how many photos it held, nil when its file could not be read.
    public static func clear(_ session: LibrarySession) throws -> Int? {
        try session.write { _ in
            let store = Curation(session).store
            let count = (try? store.load())?.items.count
            try store.erase()
            return count
        }
    }

    // MARK: Pieces

    /// Applies `change` to `state` (`entries`: the list as loaded); returns the change's count.
    private func apply(_ change: CurationChange, to state: inout CurationState, _ entries: [CurationEntry]) throws -> Int {
        switch change {
        case .select(let words):
            state.select(try members(words, in: entries))
        case .deselect(let words):
            state.deselect(try members(words, in: entries))
        case .top(let n):
            guard Self.topCounts.contains(n) else {
                throw ShoeboxError(.invalidArgument, "top takes \(Self.topCounts.map(String.init).joined(separator: ", "))")
            }
            guard !entries.isEmpty else { throw CurationError.emptyList }
            state.replaceSelection(with: entries.prefix(n).map(\.asset.id))
        case .removeSelected:
            guard !state.selected.isEmpty else { throw CurationError.nothingSelected }
            let removed = state.selected.count
            state.remove(state.selected)
            return removed
        case .add(let ids):
            return state.add(ids)
        }
        return state.selected.count
    }
}
