import PhotoLibrary

/// The composer's errors, each one line a user can act on (as `ShoeboxError`s, which the CLI
/// prints and exits 1 for).
public enum ComposerError {
    static func damaged(_ why: String) -> ShoeboxError {
        ShoeboxError(.io, "\(ComposerStore.path) is damaged (\(why)); `shoebox compose clear` starts a new draft")
    }

    static func newerSchema(_ schema: Int) -> ShoeboxError {
        ShoeboxError(.newerVersion, "\(ComposerStore.path) has schema \(schema), newer than this Shoebox; upgrade Shoebox (or `shoebox compose clear` to start a new draft)")
    }

    static func full(has: Int, adding: Int) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "a story holds at most \(ComposerDraft.capacity) photos: the draft has \(has), adding \(adding) would make \(has + adding); nothing was added (`shoebox compose remove POS` or `replace POS ID` first)")
    }

    static var empty: ShoeboxError {
        ShoeboxError(.invalidArgument, "the composer draft is empty; add 1–4 photos with `shoebox compose add ID|PATH…`")
    }

    static func noPosition(_ position: Int, count: Int) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "no position \(position) in the composer draft: it has \(count) photo\(count == 1 ? "" : "s"), positions 1–\(count) (`shoebox compose list` shows them)")
    }

    static func alreadyAt(_ position: Int) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "that photo is already at position \(position) of the draft; nothing was replaced (`shoebox compose move` reorders)")
    }
}
