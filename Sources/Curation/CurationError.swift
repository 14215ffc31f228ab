import PhotoLibrary

/// What a user can do about a curation error; each front end words it (the CLI as a
/// `shoebox curate …` command: Sources/ShoeboxCommands/Hints/CurationHints.swift).
public enum CurationRemedy: Remedy, Equatable {
    /// Start a new list (the file is damaged).
    case clearList
    /// Upgrade Shoebox, or start a new list (the file is of a newer schema).
    case upgradeOrClearList
    /// Add photos to the (empty) list.
    case addPhotos
    /// See the list's ranks.
    case listRanks
    /// See which photos the list holds.
    case listMembers
    /// Take the photo out of the selection (it cannot be shared).
    case deselect(AssetID)
    /// Put the missing file back, then scan.
    case putBackAndScan
    /// Scan, then share again (nothing was shared).
    case scanThenShareAgain
}

/// Curation's errors, each one line a user can act on (as `ShoeboxError`s: the message says
/// what happened, the `CurationRemedy` what to do).
enum CurationError {
    /// The brief's words for `remove` and `share` with nothing selected.
    static let mustSelect = "must select photos"

    static func damaged(_ why: String) -> ShoeboxError {
        ShoeboxError(.io, "\(CurationStore.path) is damaged (\(why))", remedy: CurationRemedy.clearList)
    }

    static func newerSchema(_ schema: Int) -> ShoeboxError {
        ShoeboxError(.newerVersion, "\(CurationStore.path) has schema \(schema), newer than this Shoebox", remedy: CurationRemedy.upgradeOrClearList)
    }

    static var emptyList: ShoeboxError {
        ShoeboxError(.invalidArgument, "the curation list is empty", remedy: CurationRemedy.addPhotos)
    }

    static var nothingSelected: ShoeboxError { ShoeboxError(.invalidArgument, mustSelect) }

    static func noRank(_ word: String, count: Int) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "no rank \(word) in the curation list: it has \(count) photo\(count == 1 ? "" : "s")",
                     remedy: CurationRemedy.listRanks)
    }

    static func notInList(_ reference: String) -> ShoeboxError {
        ShoeboxError(.notFound, "\(displayPath(reference)) is not in the curation list", remedy: CurationRemedy.listMembers)
    }

    /// `add` of a photo that is trashed or missing.
    static func notPresent(_ reference: String, _ asset: Asset) -> ShoeboxError {
        if asset.state == .trashed {
            return ShoeboxError(.invalidArgument, "\(displayPath(reference)) is trashed", remedy: LibraryRemedy.restore(asset.id))
        }
        return ShoeboxError(.invalidArgument, "\(displayPath(reference)) is \(asset.state.rawValue): its file is gone", remedy: CurationRemedy.putBackAndScan)
    }

    /// `share` of a selected photo that is trashed or missing.
    static func cannotShare(_ asset: Asset) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "\(displayPath(asset.path)) is \(asset.state.rawValue), so it cannot be shared",
                     remedy: CurationRemedy.deselect(asset.id))
    }

    /// `share` of an original that is not the file the index knows: the opener's message and
    /// typed cause, with the remedy that fits a share (nothing was shared).
    static func notShared(_ e: ShoeboxError) -> ShoeboxError {
        guard case .original(_, let problem)? = e.cause else { return e }
        if case .unreadable = problem { return e }
        var out = e
        out.remedy = CurationRemedy.scanThenShareAgain
        return out
    }
}
