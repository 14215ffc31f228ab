import CShoeboxSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// What the last pass over the generated albums verified, so that the next one can skip them.

extension AlbumLinker {
    /// What the last pass over the generated albums verified. A folder's ctime and mtime move
    /// whenever a link or a file is added to it, removed from it or renamed in it (a link cannot
    /// be edited in place); a folder stamped after it was found (or made) holding the links whose
    /// digest the stamp keeps, and whose `lstat` still gives the stamp, still holds them. Only a
    /// folder that had not changed for `stampMargin` seconds before it was verified is stamped: a
    /// change made just after could otherwise fall within the same clock tick and go unseen.
    /// When every generated folder and the folders that hold them (`Albums/`, `Years/`, …) were
    /// stamped (`complete`) and neither the index (`generation`) nor Shoebox (`build`) changed
    /// since, the albums are as a pass would make them: `sync` skips the query and the readlink of
    /// every link. Kept in the index (`meta`): a new index starts without them.
    struct Stamps: Codable, Equatable {
        var generation: String
        /// The executable that verified them: a new Shoebox may name or group albums otherwise.
        var build: String
        var complete: Bool
        /// Path under `Albums/` ("" for `Albums/` itself) → its stamp; nil for a folder that was absent.
        var folders: [String: FolderStamp?]
    }

    struct FolderStamp: Codable, Equatable {
        var inode: UInt64
        var mtimeNS: Int64
        var ctimeNS: Int64
        /// Album folders: the digest of the links it held (`digest(_:)`); nil for the others.
        var digest: String? = nil
        var verifiedAt: Double = 0
    }

    /// A folder found (or made) as it should be during this pass: when, and its links' digest.
    typealias Verification = (at: Double, digest: String?)

    static let stampsKey = "album_stamps"
    static let stampMargin = 2.0

    /// The running executable, by size and modification time; nil when unknown (no stamps then).
    static let build: String? = {
        var st = stat()
        guard stat("/proc/self/exe", &st) == 0 else { return nil }
        return "\(st.st_size)-\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
    }()

    /// Whether the last pass's stamps vouch for every generated album: it verified them all,
    /// and neither the index, nor Shoebox, nor any stamped folder has changed since.
    func stampsStillHold(_ stamps: Stamps?, generation: String) -> Bool {
        guard let stamps, stamps.complete, stamps.generation == generation, stamps.build == AlbumLinker.build else { return false }
        return stamps.folders.allSatisfy { AlbumLinker.sameFolder(folderStamp($0.key), $0.value) }
    }

    /// Stamps for the folders this pass verified (`verified`, by path under `Albums/`) that had
    /// not moved for `stampMargin` seconds before that; complete only when all of them qualify.
    func freshStamps(generation: String, albums: Set<String>, verified: [String: Verification]) -> Stamps {
        var fresh = Stamps(generation: generation, build: AlbumLinker.build ?? "", complete: AlbumLinker.build != nil, folders: [:])
        for path in [""] + AlbumLinker.generatedRoots + albums.sorted() {
            if let stamp = settledStamp(path, verified: verified[path]) { fresh.folders[path] = stamp } else { fresh.complete = false }
        }
        return fresh
    }

    /// The stamp of a folder verified at `verified.at`, when it had not moved for `stampMargin`
    /// seconds before that (`.some(nil)` for a folder that is absent); nil when it cannot be stamped.
    func settledStamp(_ path: String, verified v: Verification?) -> FolderStamp?? {
        guard let v else { return nil }
        var stamp = folderStamp(path)
        if let s = stamp, s.inode == 0 || Double(max(s.mtimeNS, s.ctimeNS)) / 1e9 >= v.at - AlbumLinker.stampMargin { return nil }
        stamp?.digest = v.digest
        stamp?.verifiedAt = v.at
        return .some(stamp)
    }

    /// The folder's stamp (without a digest); nil when it does not exist; inode 0 (never
    /// trusted) when it cannot be read or is not a folder.
    func folderStamp(_ path: String) -> FolderStamp? {
        // Not `FileStat`: a stamp needs the ctime, which `FileStat` does not keep. From `Albums/`'s
        // descriptor, no link followed on the way: a link there stamps nothing (inode 0).
        var st = stat()
        guard (path.isEmpty ? fstat(albumsFD, &st) : shoebox_lstat_beneath(albumsFD, path, &st)) == 0 else {
            return errno == ENOENT ? nil : FolderStamp(inode: 0, mtimeNS: -1, ctimeNS: -1)
        }
        // A link standing for a folder says nothing about what is in the folder it leads to.
        guard (st.st_mode & S_IFMT) == S_IFDIR else { return FolderStamp(inode: 0, mtimeNS: -1, ctimeNS: -1) }
        return FolderStamp(inode: UInt64(st.st_ino), mtimeNS: st.st_mtim.nanoseconds, ctimeNS: st.st_ctim.nanoseconds)
    }

    /// Whether `now` (from `folderStamp`) is the folder `stamp` was taken of, unchanged.
    static func sameFolder(_ now: FolderStamp?, _ stamp: FolderStamp?) -> Bool {
        guard let now, let stamp else { return now == nil && stamp == nil }
        return now.inode != 0 && now.inode == stamp.inode && now.mtimeNS == stamp.mtimeNS && now.ctimeNS == stamp.ctimeNS
    }

    /// SHA-256 of an album's links (name and target of each, in order).
    static func digest(_ album: AlbumFolder) -> String {
        let digest = AlbumDigest()
        digest.add(album.entries)
        return digest.finalize()
    }

    func loadStamps() throws -> Stamps? { try index.metaJSON(AlbumLinker.stampsKey, as: Stamps.self) }

    func saveStamps(_ stamps: Stamps) throws { try index.setMetaJSON(AlbumLinker.stampsKey, stamps) }
}
