import Foundation
#if canImport(Glibc)
import Glibc
#endif

// An album folder that is already right, found so without holding it in memory.

extension AlbumLinker {
    /// The album's digest when the open `folder` holds exactly its links and nothing else; nil
    /// when anything differs (the caller then compares the folder link by link, `write`).
    ///
    /// Why not read the folder into a table as `write` does: the first rescan after a first scan
    /// finds every generated folder too new to be vouched for by its stamp (`stampMargin`), and
    /// a folder of 100,000 links read into a table beside the album's entries held ~0.5 GB at
    /// 1,000,000 photos (issue 33). Here the album's entries are made a batch at a time and each
    /// link is read back by name; a folder whose entries are as many as the album's links and
    /// which has each of them by name holds exactly them (names in a folder are unique, and so
    /// are an album's link names). Entries whose names are not UTF-8 are not counted, as `read`
    /// does not see them either.
    func exactDigest(of album: GeneratedAlbum, in folder: LinkFolder) -> String? {
        var entries = 0
        forEachDirectoryEntry(fd: folder.fd) { entry, _ in
            if entry.name != nil { entries += 1 }
        }
        guard entries == album.count else { return nil }
        struct Differs: Error {}
        let digest = AlbumDigest()
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        do {
            try album.forEachBatch { batch in
                for e in batch where AlbumLinker.readLink(folder.fd, e.linkName, buffer: &buffer) != e.target {
                    throw Differs()
                }
                digest.add(batch)
            }
        } catch {
            return nil
        }
        return digest.finalize()
    }
}
