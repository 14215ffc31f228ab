import Foundation

// A user album whose name must not clash: curation's "TO NAME yyyy-MM-dd HH.mm.ss" albums.

extension AlbumLinker {
    /// Makes a user album called `base`, or `base (2)`, `base (3)`… — the first whose name and
    /// folder no album (a tombstone included) and no entry of `Albums/` has — holding `ids` in
    /// that order; its folder is written at once. The caller holds the writer lock, so no other
    /// Shoebox process takes the name between the check and the creation.
    public func createNumbered(base: String, ids: [AssetID], now: Date = ShoeboxClock.now()) throws -> (UserAlbum, AlbumSyncReport) {
        let store = UserAlbums(library: library)
        let taken = store.allIncludingDeleted()
        for n in 1...10_000 {
            let name = n == 1 ? base : "\(base) (\(n))"
            let folder = SafeName.folder(name, fallback: "Album")
            let key = UserAlbums.clashKey(folder)
            if taken.contains(where: { UserAlbums.clashKey($0.folder) == key || $0.name == name }) { continue }
            if try library.files.lstat(AlbumLinker.folderName + "/" + folder) != nil { continue }
            return try create(name: name, ids: ids, now: now)
        }
        throw ShoeboxError(.invalidArgument, "10000 albums are called \"\(base)\" already", remedy: LibraryRemedy.deleteAlbums)
    }
}
