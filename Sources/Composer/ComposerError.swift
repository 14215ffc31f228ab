import PhotoLibrary

/// What a user can do about a composer error; the CLI words it (`Sources/shoebox-pixels/Hints/`).
public enum ComposerRemedy: Remedy, Equatable {
    /// Start a new draft (a damaged or newer one is replaced).
    case clear
    /// Upgrade Shoebox, or start a new draft.
    case upgradeOrClear
    /// Make room first: take a photo out, or replace one.
    case removeOrReplace
    /// Add 1–4 photos.
    case add
    /// See the draft's positions.
    case list
    /// Reorder instead.
    case move
    /// Put the trashed photo back, or take it out of the draft at `position`.
    case restoreOrRemove(AssetID, position: Int)
    /// Put the file back and scan, or take it out of the draft at `position`.
    case scanOrRemove(position: Int)
    /// Save the story into the library instead of writing it inside.
    case save
}

/// The composer's errors, each one line a user can act on (as `ShoeboxError`s, which the CLI
/// prints and exits 1 for).
public enum ComposerError {
    static func damaged(_ why: String) -> ShoeboxError {
        ShoeboxError(.io, "\(ComposerStore.path) is damaged (\(why))", remedy: ComposerRemedy.clear)
    }

    static func newerSchema(_ schema: Int) -> ShoeboxError {
        ShoeboxError(.newerVersion, "\(ComposerStore.path) has schema \(schema), newer than this Shoebox", remedy: ComposerRemedy.upgradeOrClear)
    }

    static func full(has: Int, adding: Int) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "a story holds at most \(ComposerDraft.capacity) photos: the draft has \(has), adding \(adding) would make \(has + adding); nothing was added",
                     remedy: ComposerRemedy.removeOrReplace)
    }

    static var empty: ShoeboxError {
        ShoeboxError(.invalidArgument, "the composer draft is empty", remedy: ComposerRemedy.add)
    }

    static func noPosition(_ position: Int, count: Int) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "no position \(position) in the composer draft: it has \(count) photo\(count == 1 ? "" : "s"), positions 1–\(count)",
                     remedy: ComposerRemedy.list)
    }

    static func alreadyAt(_ position: Int) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "that photo is already at position \(position) of the draft; nothing was replaced", remedy: ComposerRemedy.move)
    }
}
