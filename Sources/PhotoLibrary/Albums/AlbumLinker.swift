import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One album as folders of links show it.
public struct AlbumFolder: Sendable {
    public enum Kind: String, Codable, Sendable { case user, year, place, person, screenshots, videos }
    public struct Entry: Sendable {
        public var position: Int
        /// "001 IMG_0412.HEIC"
        public var linkName: String
        /// The link's text: relative, from the album folder to the original.
        public var target: String
        public var id: AssetID
        public var assetPath: String
    }
    /// Under `Albums/`: "Years/2024", "Places/Lisbon, Portugal", "Trip".
    public var path: String
    public var kind: Kind
    public var title: String
    public var entries: [Entry]
    /// User albums: their id.
    public var albumID: String?
}

/// What one `AlbumLinker.sync()` did, and what it could not do.
public struct AlbumSyncReport: Sendable {
    /// Why albums are switched off (a file system without symbolic links); nil when on.
    public var off: String?
    public var foldersWritten = 0
    public var foldersRemoved = 0
    /// Generated albums whose members were worked out: every one in a full pass, only those
    /// that changed assets left or joined otherwise (see `AlbumChanges`).
    public var albumsComputed = 0
    /// Members a user took out of an album by deleting its link by hand.
    public var removedByHand: [(album: String, id: AssetID)] = []
    /// What Shoebox did not make, found in an album folder (a photo an editor saved through its
    /// link, a file dropped there) and moved into `Albums/Not Shoebox's/`: paths in the library.
    public var movedAside: [(from: String, to: String)] = []
    public var problems: [String] = []
    public init() {}

    /// One line per entry moved aside, naming it and where it went.
    public var movedAsideLines: [String] {
        movedAside.map { "\(displayPath($0.from)): \(AlbumSyncReport.movedAsideReason(to: $0.to))" }
    }

    /// Why and where an entry was moved (the rest of `movedAsideLines`' line, after its path).
    public static func movedAsideReason(to: String) -> String {
        "not a link Shoebox made (a file saved through an album link?); moved to \(displayPath(to))"
    }
}

/// Keeps `Albums/` equal to the index: generated albums (years, places, people, screenshots,
/// videos) and user albums, as folders of relative symbolic links named in album order.
///
/// A folder whose links must change otherwise than by additions and removals at the end is
/// rebuilt beside the old one and swapped in with one `renameat2(RENAME_EXCHANGE)`, so a file
/// manager never sees half an album. Links are derived data: a crash leaves at worst an album
/// folder one step behind, or a hidden build folder, both put right by the next sync — which
/// every scan, watch batch, trash, restore, purge and album command runs.
///
/// Every file operation in `Albums/` is relative to a descriptor of `Albums/` opened through
/// `library.files` (no link followed at any component), and of each album folder opened from it
/// once: a folder swapped for a link while a command runs makes it fail with one line, never
/// write, rename or delete where the link points.
///
/// Generated album folders hold Shoebox's links only: anything else found there (a photo an
/// editor saved through a link, a file dropped in) is moved to `Albums/Not Shoebox's/<album>/`,
/// never deleted and never in a link's way; user album folders keep such files where they are.
///
/// Its work, by file: what the albums should hold (`AlbumLinker+Plan`), making the folders
/// match (`+Sync`), what a previous pass verified (`+Stamps`), the albums that writes since
/// touched (`AlbumChanges`, `+Incremental`), reading and writing one folder of
/// links (`+LinkFolders`), opening folders confined (`+OpenFolders`), entries Shoebox did not
/// make and build folders a crash left (`+Foreign`), and the `album` commands (`+UserAlbumCommands`).
///
/// The caller holds the library's writer lock.
public struct AlbumLinker {
    public static let folderName = "Albums"
    public static let generatedRoots = ["Years", "Places", "People", "Screenshots", "Videos"]
    static let buildPrefix = ".shoebox-build-"
    /// Where entries Shoebox did not make are moved out of generated album folders.
    public static let foreignFolder = "Not Shoebox's"

    let library: Library
    let index: Index
    /// `Albums/`, open for the length of `withAlbumsOpen` (-1 otherwise): every file operation on
    /// album folders starts from it.
    let albumsFD: Int32
    /// Entries of a generated album made at once while its new folder is written (`GeneratedAlbum`).
    var entriesPerBatch = GeneratedAlbum.batchSize

    public init(library: Library, index: Index) {
        self.init(library: library, index: index, albumsFD: -1)
    }

    init(library: Library, index: Index, albumsFD: Int32) {
        self.library = library
        self.index = index
        self.albumsFD = albumsFD
    }

    // MARK: Symbolic link support

    /// Nil when the library's file system takes symbolic links; else why albums are off.
    public static func symlinkProblem(_ library: Library) -> String? {
        let probe = ".symlink-probe-\(getpid())"
        // In `.shoebox/` reached without following a link; one that is not a folder is the
        // owned-paths check's to report, not a reason to switch albums off.
        let e: Int32 = (try? library.files.withFolder(".shoebox") { fd in
            unlinkat(fd, probe, 0)
            guard symlinkat("index.sqlite", fd, probe) == 0 else { return errno }
            unlinkat(fd, probe, 0)
            return 0
        }) ?? 0
        if e == 0 { return nil }
        if e == EPERM || e == EOPNOTSUPP || e == ENOSYS || e == EINVAL {
            return "albums are off: the file system of \(library.root.path) does not support symbolic links (exFAT, FAT and some NTFS mounts do not); the photos are indexed as usual"
        }
        // A read-only mount, a full disk or missing permissions say nothing about symbolic links:
        // the album writes themselves report those, and switching albums off would hide them.
        return nil
    }
}
