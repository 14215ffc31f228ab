import Foundation

/// One generated album before its entries are made: its members as positions among the rows
/// kept (`GeneratedMembers`, shared by every album of the pass, not copied). Its entries — link
/// name, target, id and path, four strings each — are made a batch at a time where they are
/// used (its links written, its digest hashed), so a sync holds at most one batch of them
/// however large the album: the largest place of a 1,000,000-photo library held whole was
/// ~200 MB (issue 33).
struct GeneratedAlbum {
    let path: String
    let kind: AlbumFolder.Kind
    let title: String
    /// Positions in `members`, in album order.
    let rows: [Int32]
    let members: GeneratedMembers
    /// Entries made at once while the album is walked.
    var batchSize = GeneratedAlbum.batchSize

    static let batchSize = 4096

    var count: Int { rows.count }

    /// Calls `body` with the album's entries in order, at most `batchSize` at a time.
    func forEachBatch(_ body: ([AlbumFolder.Entry]) throws -> Void) rethrows {
        let size = max(1, batchSize)
        let shape = AlbumLinker.LinkShape(albumPath: path, count: rows.count)
        var batch: [AlbumFolder.Entry] = []
        batch.reserveCapacity(min(size, rows.count))
        for (i, row) in rows.enumerated() {
            let (id, assetPath) = members[Int(row)]
            batch.append(shape.entry(position: i + 1, id: id, path: assetPath))
            if batch.count == size {
                try body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    /// The whole album as a folder of entries (an existing folder compared link by link, `album list`).
    func folder() -> AlbumFolder {
        var entries: [AlbumFolder.Entry] = []
        entries.reserveCapacity(rows.count)
        forEachBatch { entries += $0 }
        return AlbumFolder(path: path, kind: kind, title: title, entries: entries, albumID: nil)
    }

    /// `AlbumLinker.digest` of `folder()`, hashed batch by batch.
    func digest() -> String {
        let digest = AlbumDigest()
        forEachBatch { digest.add($0) }
        return digest.finalize()
    }
}

/// SHA-256 of an album's links, name and target of each in order, fed as they are made:
/// the same digest as `AlbumLinker.digest` of the whole album.
final class AlbumDigest {
    private let hasher = SHA256Hasher()
    private var bytes: [UInt8] = []

    func add(_ entries: some Sequence<AlbumFolder.Entry>) {
        for e in entries {
            bytes += e.linkName.utf8
            bytes.append(0)
            bytes += e.target.utf8
            bytes.append(0)
            if bytes.count >= 1 << 16 { flush() }
        }
    }

    func finalize() -> String {
        flush()
        return hasher.finalize()
    }

    private func flush() {
        hasher.update(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}
