import Foundation

/// An album as a listing shows it — where, what, how many, its first photo — without its links
/// made: `album list` of 1,000,000 photos made every album's entries (2.7 million links, four
/// strings each) only to count them, 1.6 GB and 16 s (issue 33).
public struct AlbumSummary: Sendable, Equatable {
    /// Under `Albums/`.
    public var path: String
    public var kind: AlbumFolder.Kind
    public var title: String
    /// Its present photos (the links its folder should hold).
    public var count: Int
    /// The first of them, in album order.
    public var cover: AssetID?
    /// A user album's id; nil for generated albums.
    public var albumID: String?
}

/// What orders albums in a listing (`AlbumLinker.sortedForListing`).
protocol ListedAlbum {
    var path: String { get }
    var kind: AlbumFolder.Kind { get }
}

extension AlbumFolder: ListedAlbum {}
extension AlbumSummary: ListedAlbum {}

extension AlbumLinker {
    /// Every album, in `desired()`'s order and with its counts, no link made: the user's
    /// albums, then the generated ones by kind and name.
    public func summaries() throws -> [AlbumSummary] {
        let users = UserAlbums(library: library).all()
        let paths = try presentPaths(of: Set(users.flatMap(\.members)))
        let user = users.map { album in
            let present = album.members.filter { paths[$0] != nil }
            return AlbumSummary(path: album.folder, kind: .user, title: album.name, count: present.count,
                                cover: present.first, albumID: album.id)
        }
        var generated: [AlbumSummary] = []
        try forEachGeneratedAlbum { album in
            generated.append(AlbumSummary(path: album.path, kind: album.kind, title: album.title, count: album.count,
                                          cover: album.rows.first.map { album.members[Int($0)].0 }, albumID: nil))
        }
        return user + sortedForListing(generated)
    }
}
