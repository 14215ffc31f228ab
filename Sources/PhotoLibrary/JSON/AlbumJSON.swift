import Foundation

/// One album of `album list --json`, and what `album delete --json` deleted. Public contract:
/// `name`, `kind` (user|year|place|person|screenshots|videos), `path` (under the library,
/// starting `Albums/`), `count`, and `id` for user albums only (absent for generated ones).
public struct AlbumSummaryJSON: PublicJSONShape, Sendable {
    var id: String?
    var name: String
    var kind: String
    var path: String
    var count: Int

    public init(_ a: AlbumFolder) {
        id = a.albumID
        name = a.title
        kind = a.kind.rawValue
        path = AlbumLinker.folderName + "/" + a.path
        count = a.entries.count
    }

    public init(_ a: AlbumSummary) {
        id = a.albumID
        name = a.title
        kind = a.kind.rawValue
        path = AlbumLinker.folderName + "/" + a.path
        count = a.count
    }

    /// A user album as its record says, e.g. just deleted: `count` is its members.
    public init(_ a: UserAlbum) {
        id = a.id
        name = a.name
        kind = AlbumFolder.Kind.user.rawValue
        path = AlbumLinker.folderName + "/" + a.folder
        count = a.members.count
    }
}

/// One link of an album, in album order. Public contract (inside `AlbumJSON`): `position`
/// (from 1), `link` (the link's name), `id` and `path` of the asset it leads to.
public struct AlbumEntryJSON: PublicJSONShape, Sendable {
    var position: Int
    var link: String
    var id: String
    var path: String
}

/// An album with its photos in order (`album show|create|add|remove|order --json`). Public
/// contract: the fields of `AlbumSummaryJSON` and `entries` (`AlbumEntryJSON`), in one object.
public struct AlbumJSON: PublicJSONShape, Sendable {
    var summary: AlbumSummaryJSON
    var entries: [AlbumEntryJSON]

    public init(_ a: AlbumFolder) {
        summary = AlbumSummaryJSON(a)
        entries = a.entries.map { AlbumEntryJSON(position: $0.position, link: $0.linkName, id: $0.id.rawValue, path: $0.assetPath) }
    }

    enum CodingKeys: String, CodingKey { case entries }

    /// The summary's fields and `entries` side by side (the encoder merges the two containers).
    public func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(entries, forKey: .entries)
    }
}
