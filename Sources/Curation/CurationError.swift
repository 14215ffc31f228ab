import PhotoLibrary

/// Curation's errors, each one line a user can act on (as `ShoeboxError`s, which the CLI prints).
public enum CurationError {
    /// The brief's words for `remove` and `share` with nothing selected.
    public static let mustSelect = "must select photos"

    static func damaged(_ why: String) -> ShoeboxError {
        ShoeboxError(.io, "\(CurationStore.path) is damaged (\(why)); `shoebox curate clear` starts a new list")
    }

    static func newerSchema(_ schema: Int) -> ShoeboxError {
        ShoeboxError(.newerVersion, "\(CurationStore.path) has schema \(schema), newer than this Shoebox; upgrade Shoebox (or `shoebox curate clear` to start a new list)")
    }

    static var emptyList: ShoeboxError {
        ShoeboxError(.invalidArgument, "the curation list is empty; add photos with `shoebox curate add ID|PATH…|--album A|--year Y`")
    }

    static var nothingSelected: ShoeboxError { ShoeboxError(.invalidArgument, mustSelect) }
}
