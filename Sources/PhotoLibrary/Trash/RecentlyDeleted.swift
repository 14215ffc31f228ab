import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `Recently Deleted/` in the library: a freedesktop.org trash folder (`files/`, `info/`).
///
/// Every operation is ordered so that a `kill -9` at any instant leaves each original exactly
/// once on disk — in the library or in `files/` — and `reconcile` (run by every scan, watch
/// batch and trash command) brings the index, the `.trashinfo` files and the albums back in
/// line with what is on disk:
/// - trash: claim `info/N.trashinfo` (O_EXCL), flush, rename the file into `files/N`, flush,
///   then record the asset as trashed. A crash leaves at worst an info file without its file
///   (deleted by reconcile) or a trashed file the index still calls present (found by inode).
/// - restore: rename `files/N` back (never over a file), flush, record, then delete the info.
/// - purge: delete the file, then the info, then forget the asset.
///
/// Each operation has its file (`RecentlyDeleted+Trash`, `+Restore`, `+List`, `+Purge`,
/// `+Reconcile`); this one holds what they share: the folders, the names, the info files.
///
/// The caller holds the library's writer lock.
public final class RecentlyDeleted {
    public static let folderName = "Recently Deleted"

    let library: Library
    let index: Index
    /// Every index change goes through it (and so into the journal and the sidecars).
    let writer: AssetWriter
    let now: Date
    let retentionDays: Int
    let log: (String) -> Void

    /// - Parameter writer: the caller's writer, so that views following it (the live updater's)
    ///   see these changes too; a new one when nil.
    package init(library: Library, index: Index, retentionDays: Int, now: Date = ShoeboxClock.now(),
                writer: AssetWriter? = nil, log: @escaping (String) -> Void = { _ in }) {
        self.library = library
        self.index = index
        self.writer = writer ?? AssetWriter(library: library, index: index)
        self.retentionDays = retentionDays
        self.now = now
        self.log = log
    }

    // MARK: Folders and names

    var folder: String { library.root.path + "/" + RecentlyDeleted.folderName }
    var filesFolder: String { folder + "/files" }
    var infoFolder: String { folder + "/info" }
    func filePath(_ name: String) -> String { filesFolder + "/" + name }
    func infoPath(_ name: String) -> String { infoFolder + "/" + name + ".trashinfo" }
    /// The library-relative path of an item in `files/`, for messages.
    static func displayName(_ name: String) -> String { "\(folderName)/files/\(name)" }

    /// Library-relative paths of an item's file and info file (for the confined layer).
    static func fileRelative(_ name: String) -> String { "\(folderName)/files/\(name)" }
    static func infoRelative(_ name: String) -> String { "\(folderName)/info/\(name).trashinfo" }

    /// `writer.afterChange()`: groupings and albums follow the change. What the album sync moved
    /// out of album folders, or could not do, goes to the log (it is not the trash's failure).
    func syncAlbums() throws {
        let albums = try writer.afterChange()
        for line in albums.movedAsideLines + albums.problems { log(line) }
    }

    func makeFolders() throws {
        for dir in ["files", "info"] { try library.files.withFolder("\(RecentlyDeleted.folderName)/\(dir)", creating: true) { _ in } }
    }

    /// The names of the items that have an info file, sorted.
    func infoNames() -> [String] {
        directoryNames(infoFolder).compactMap { $0.hasSuffix(".trashinfo") && $0.count > 10 ? String($0.dropLast(10)) : nil }.sorted()
    }

    /// The assets of `requested` that `accept` takes, each once and each followed by its Live
    /// Photo videos (`videos`): a Live Photo is trashed and restored whole.
    func eachOnceWithLiveVideos(_ requested: [Asset], videos: (AssetID) throws -> [Asset],
                                accept: (Asset) -> Bool) throws -> [Asset] {
        var assets: [Asset] = []
        var seen = Set<AssetID>()
        for a in requested where seen.insert(a.id).inserted && accept(a) {
            assets.append(a)
            for video in try videos(a.id) where seen.insert(video.id).inserted { assets.append(video) }
        }
        return assets
    }

    // MARK: Info files

    /// Reads `info/<name>.trashinfo` with its `Path=` relative to the library (the
    /// specification's reading; `placeForeign` also knows trash-cli's).
    func readInfo(_ name: String) throws -> TrashInfo {
        let stated = try readStated(name)
        return TrashInfo(path: try TrashInfo.place(stated.path, roots: roots), deletionDate: stated.deletionDate)
    }

    /// The library's folder as given and with links resolved: another tool writes the resolved
    /// one (`~/Pictures` → `/mnt/photos/Pictures`).
    var roots: [String] {
        let resolved = URL(fileURLWithPath: library.root.path).resolvingSymlinksInPath().path
        return resolved == library.root.path ? [library.root.path] : [library.root.path, resolved]
    }

    /// Reads `info/<name>.trashinfo`, at most `TrashInfo.maximumSize` bytes of it, never through
    /// a link, and parses its format.
    func readStated(_ name: String) throws -> TrashInfo.Stated {
        let fd = try library.files.openRegularFile(RecentlyDeleted.infoRelative(name))
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: TrashInfo.maximumSize + 1)
        var count = 0
        while count < buffer.count {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            count += n
        }
        return try TrashInfo.parseStated(Data(buffer[..<count]))
    }

    /// Writes (or replaces) `info/<name>.trashinfo`.
    func writeInfo(_ info: TrashInfo, as name: String) throws {
        try library.files.writeAtomically(Data(info.render().utf8), to: RecentlyDeleted.infoRelative(name))
    }

    // MARK: Retention

    /// Whole days until an item deleted at `deleted` is purged (0 once its time is up).
    func daysLeft(_ deleted: Date) -> Int {
        let left = deleted.timeIntervalSince1970 + Double(retentionDays) * 86400 - now.timeIntervalSince1970
        return max(0, Int((left / 86400).rounded(.up)))
    }

    func isExpired(_ deleted: Date) -> Bool {
        now.timeIntervalSince1970 >= deleted.timeIntervalSince1970 + Double(retentionDays) * 86400
    }
}
