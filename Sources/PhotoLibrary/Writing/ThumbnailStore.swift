import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The thumbnail cache, `.shoebox/thumbs/`: JPEG files of each analysed asset at a few long-side
/// sizes, named by asset id and content hash so that a changed file's thumbnails are new files
/// (`<id>.<first 16 hex digits of its SHA-256>.<size>.jpg`), in one folder per first two hex
/// digits of the id (100,000 assets make ~800 files a folder, not 200,000 in one).
///
/// A cache: written without waiting for the disk (a crash may lose the newest, which are then made
/// again), removed with the asset, emptied by `shoebox cache clear`, rebuilt on demand.
public struct ThumbnailStore: Sendable {
    /// The long sides kept: a grid tile and a screen-sized preview.
    public static let sizes = [256, 1024]

    let files: LibraryFiles

    public init(library: Library) { files = library.files }

    /// The thumbnail's path relative to the library.
    public func path(of asset: Asset, size: Int) -> String {
        Self.folder(of: asset.id) + "/" + Self.name(asset.id, sha256: asset.sha256, size: size)
    }

    /// Whether every size of `asset`'s thumbnails is there for its present content.
    public func hasAll(for asset: Asset) -> Bool {
        Self.sizes.allSatisfy { size in ((try? files.lstat(path(of: asset, size: size))) ?? nil) != nil }
    }

    /// The JPEG bytes of a thumbnail, or nil when it is not in the cache.
    public func contents(of asset: Asset, size: Int) throws -> Data? {
        try files.contents(of: path(of: asset, size: size), limit: 16 << 20)
    }

    /// Stores `asset`'s thumbnails (JPEG bytes by size) and removes those of its earlier contents.
    public func store(_ jpegs: [Int: [UInt8]], for asset: Asset) throws {
        let folder = Self.folder(of: asset.id)
        for (size, bytes) in jpegs.sorted(by: { $0.key < $1.key }) {
            try files.writeAtomically(Data(bytes), to: folder + "/" + Self.name(asset.id, sha256: asset.sha256, size: size), sync: false)
        }
        let keep = Set(jpegs.keys.map { Self.name(asset.id, sha256: asset.sha256, size: $0) })
        try removeAll(of: [asset.id], except: keep)
    }

    /// Removes every thumbnail of these assets (they were purged, or their content changed).
    public func removeAll(of ids: [AssetID], except keep: Set<String> = []) throws {
        for (folder, group) in Dictionary(grouping: ids, by: Self.folder(of:)) {
            let prefixes = Set(group.map { $0.rawValue + "." })
            var stale: [String] = []
            try files.forEachEntry(in: folder) { entry, _ in
                if let name = entry.name, let dot = name.firstIndex(of: "."),
                   prefixes.contains(String(name[...dot])), !keep.contains(name) {
                    stale.append(name)
                }
            }
            try files.removeFiles(stale, inFolder: folder)
        }
    }

    /// Empties the cache (`shoebox cache clear`): every file under `.shoebox/thumbs/`. Returns how
    /// many files and bytes went.
    public func clear() throws -> (files: Int, bytes: Int64) {
        var count = 0, bytes: Int64 = 0
        var folders: [String] = []
        try files.forEachEntry(in: LibraryLayout.thumbnailsFolder) { entry, _ in
            if entry.type == DT_DIR || entry.type == DT_UNKNOWN, let name = entry.name { folders.append(name) }
        }
        for name in folders.sorted() {
            let folder = LibraryLayout.thumbnailsFolder + "/" + name
            var names: [String] = []
            try files.forEachEntry(in: folder) { entry, dirFD in
                guard let name = entry.name else { return }
                var st = stat()
                if fstatat(dirFD, name, &st, AT_SYMLINK_NOFOLLOW) == 0 { bytes += Int64(st.st_size) }
                names.append(name)
            }
            try files.removeFiles(names, inFolder: folder)
            count += names.count
            try files.withFolder(LibraryLayout.thumbnailsFolder) { parent in _ = unlinkat(parent, name, AT_REMOVEDIR) }
        }
        return (count, bytes)
    }

    /// Removes the temporaries a killed writer left in the cache's folders (what `AtomicFile`
    /// names them; only those whose process is gone).
    public func removeTemporariesOfDeadWriters() throws {
        var folders: [String] = []
        try files.forEachEntry(in: LibraryLayout.thumbnailsFolder) { entry, _ in
            if entry.type == DT_DIR || entry.type == DT_UNKNOWN, let name = entry.name { folders.append(name) }
        }
        for name in folders {
            try files.withFolder(LibraryLayout.thumbnailsFolder + "/" + name) { AtomicFile.removeTemporariesOfDeadWriters(inFolder: $0) }
        }
    }

    static func folder(of id: AssetID) -> String {
        LibraryLayout.thumbnailsFolder + "/" + String(id.rawValue.prefix(2))
    }

    static func name(_ id: AssetID, sha256: String, size: Int) -> String {
        "\(id.rawValue).\(sha256.prefix(16)).\(size).jpg"
    }
}
