import Foundation
import PhotoLibrary

/// One row of the curation list as `curate list` shows it.
public struct CurationEntry: Sendable {
    /// From 1, best first.
    public var rank: Int
    public var asset: Asset
    public var selected: Bool
    /// The companion file shared with it (a Live Photo's movie, a RAW+JPEG shot's raw file).
    public var companion: String?
}

/// The curation list (brief 000) on a library: what `.shoebox/curation.json` holds, ranked by
/// the scores the index has now. Front ends call the entry points on a session
/// (`Curation+Session.swift`); those that change the list hold the writer lock from load to
/// save, so two of them never lose each other's change.
public struct Curation {
    package let library: Library
    package let index: Index
    package var store: CurationStore { CurationStore(library: library) }

    package init(library: Library, index: Index) {
        self.library = library
        self.index = index
    }

    /// The list on disk, ranked. Ids the index no longer knows (purged from Recently Deleted)
    /// are dropped from the returned state, each with a `note`; the caller saves it if it writes.
    package func load(note: (String) -> Void = { _ in }) throws -> (state: CurationState, entries: [CurationEntry]) {
        var state = try store.load()
        let found = try assets(state.items)
        let known = Set(found.map(\.id))
        let gone = state.items.filter { !known.contains($0) }
        if !gone.isEmpty {
            for id in gone { note("\(id) left the curation list: it is no longer in the library (purged)") }
            state.remove(Set(gone))
        }
        return (state, entries(state, found))
    }

    /// `state`'s items ranked, from `assets` (which hold them).
    func entries(_ state: CurationState, _ assets: [Asset]) -> [CurationEntry] {
        let wanted = Set(state.items)
        let ranked = CurationRanking.ranked(assets.filter { wanted.contains($0.id) })
        let companions = (try? index.liveVideos(for: ranked.map(\.id))) ?? [:]
        return ranked.enumerated().map { i, a in
            CurationEntry(rank: i + 1, asset: a, selected: state.selected.contains(a.id), companion: companions[a.id])
        }
    }

    /// The list after `state` was changed (saved by the caller first).
    package func entries(of state: CurationState) throws -> [CurationEntry] {
        entries(state, try assets(state.items))
    }

    /// The assets of `ids` in any state.
    func assets(_ ids: [AssetID]) throws -> [Asset] { try index.assets(ids: ids) }

    // MARK: Which photos a command means

    /// What `select`/`deselect` mean by each word: a number is a rank as `curate list` shows it;
    /// anything else an id, a unique id prefix or a path, which must be in the list. Every word
    /// is checked before anything changes.
    package func members(_ words: [String], in entries: [CurationEntry]) throws -> [AssetID] {
        guard !entries.isEmpty else { throw CurationError.emptyList }
        return try words.map { word in
            if !word.isEmpty, word.utf8.count <= 9, word.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                guard let rank = Int(word), rank >= 1, rank <= entries.count else { throw CurationError.noRank(word, count: entries.count) }
                return entries[rank - 1].asset.id
            }
            let asset = try index.resolve(word)
            let id = asset.livePhotoOf ?? asset.id
            guard entries.contains(where: { $0.asset.id == id }) else { throw CurationError.notInList(word) }
            return id
        }
    }

    /// What `add` means: ids, id prefixes or paths (each a present asset; a Live Photo's movie
    /// stands for its photo), every photo of `album`, every photo taken in `year`. One error
    /// naming the first that is not an asset, nothing added.
    package func candidates(_ references: [String], album: String?, year: Int?) throws -> [Asset] {
        var out: [Asset] = []
        for reference in references {
            var asset = try index.resolve(reference, preferring: .present)
            if let photo = asset.livePhotoOf, let p = try index.asset(id: photo) { asset = p }
            guard asset.state == .present else { throw CurationError.notPresent(reference, asset) }
            out.append(asset)
        }
        if let album {
            let folder = try AlbumLinker(library: library, index: index).find(album)
            var q = AssetQuery()
            q.ids = folder.entries.map(\.id)
            let byID = Dictionary(try index.assets(matching: q).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            let members = folder.entries.compactMap { byID[$0.id] }
            if members.isEmpty { throw ShoeboxError(.notFound, "the album \"\(album)\" holds no photo") }
            out += members
        }
        if let year {
            var q = AssetQuery()
            q.year = year
            let taken = try index.assets(matching: q)
            if taken.isEmpty { throw ShoeboxError(.notFound, "no photo of the library was taken in \(year)") }
            out += taken
        }
        return out
    }
}
