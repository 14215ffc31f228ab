import Foundation
import PhotoLibrary

/// One photo of the draft as `compose list` shows it.
public struct ComposerEntry: Sendable {
    /// From 1, top of the story first.
    public var position: Int
    public var asset: Asset
}

/// The composer (brief 001) on a library: the draft `.shoebox/composer.json` holds, with the
/// assets the index has for it. Commands that change the draft hold the writer lock around
/// load-change-save (the CLI takes it), so two of them never lose each other's change.
public struct Composer {
    public let library: Library
    public let index: Index
    public var store: ComposerStore { ComposerStore(library: library) }

    public init(library: Library, index: Index) {
        self.library = library
        self.index = index
    }

    /// The draft on disk and its photos. Ids the index no longer knows (purged from Recently
    /// Deleted) are dropped from the returned draft, each with a `note`; the caller saves it if
    /// it writes.
    public func load(note: (String) -> Void = { _ in }) throws -> (draft: ComposerDraft, entries: [ComposerEntry]) {
        var draft = try store.load()
        let found = try assets(draft.items)
        let gone = Set(draft.items.filter { found[$0] == nil })
        if !gone.isEmpty {
            for id in draft.items where gone.contains(id) { note("\(id) left the composer draft: it is no longer in the library (purged)") }
            draft.drop(gone)
        }
        return (draft, entries(draft, found))
    }

    /// The draft's photos after a change (saved by the caller first).
    public func entries(of draft: ComposerDraft) throws -> [ComposerEntry] {
        entries(draft, try assets(draft.items))
    }

    private func entries(_ draft: ComposerDraft, _ found: [AssetID: Asset]) -> [ComposerEntry] {
        draft.items.enumerated().compactMap { i, id in found[id].map { ComposerEntry(position: i + 1, asset: $0) } }
    }

    /// The assets of `ids` in any state (the draft keeps a trashed photo; export names it).
    private func assets(_ ids: [AssetID]) throws -> [AssetID: Asset] {
        guard !ids.isEmpty else { return [:] }
        var q = AssetQuery()
        q.ids = ids
        q.states = AssetState.allCases
        q.includeLiveVideos = true
        return Dictionary(try index.assets(matching: q).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// What `add` and `replace` mean by a word: an id, a unique id prefix or a path, a present
    /// photo (a Live Photo's movie stands for its photo; a video is refused: a story stacks
    /// stills). One error naming the word, nothing changed.
    public func photo(_ reference: String) throws -> Asset {
        var asset = try index.resolve(reference, preferring: .present)
        if let photo = asset.livePhotoOf, let p = try index.asset(id: photo) { asset = p }
        guard asset.state == .present else {
            throw ShoeboxError(.invalidArgument, "\(displayPath(reference)) is \(asset.state.rawValue)",
                               remedy: asset.state == .trashed ? LibraryRemedy.restoreFirst(asset.id) : LibraryRemedy.putBackAndScan)
        }
        guard asset.kind != .video else {
            throw ShoeboxError(.invalidArgument, "\(displayPath(reference)) is a video; a story stacks photos (JPEG, PNG, HEIC)")
        }
        return asset
    }
}
