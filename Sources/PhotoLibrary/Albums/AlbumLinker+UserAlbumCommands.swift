import Foundation

// The `album` commands on user albums, and finding an album by name.

extension AlbumLinker {
    /// `album create`: a new album holding `ids` in that order; its folder is written at once.
    public func create(name: String, ids: [AssetID], now: Date = ShoeboxClock.now()) throws -> (UserAlbum, AlbumSyncReport) {
        let album = try UserAlbums(library: library).create(name: name, members: ids, now: now)
        let report = try sync()
        return (UserAlbums(library: library).find(album.name) ?? album, report)
    }

    /// `album add`: appends the ids that are not in it yet. Returns how many were new.
    public func add(to name: String, ids: [AssetID]) throws -> (UserAlbum, Int, AlbumSyncReport) {
        var album = try userAlbum(name)
        var added = 0
        for id in ids where !album.members.contains(id) {
            album.members.append(id)
            added += 1
        }
        try UserAlbums(library: library).save(album)
        let report = try sync()
        return (try userAlbum(album.name), added, report)
    }

    /// `album remove`: takes ids out (their files stay where they are).
    public func remove(from name: String, ids: [AssetID]) throws -> (UserAlbum, Int, AlbumSyncReport) {
        var album = try userAlbum(name)
        let before = album.members.count
        album.members.removeAll(where: Set(ids).contains)
        try UserAlbums(library: library).save(album)
        let report = try sync()
        return (try userAlbum(album.name), before - album.members.count, report)
    }

    /// `album order`: the given ids first, in that order, then the rest as they were.
    public func order(_ name: String, first ids: [AssetID]) throws -> (UserAlbum, AlbumSyncReport) {
        var album = try userAlbum(name)
        for id in ids where !album.members.contains(id) {
            throw ShoeboxError(.invalidArgument, "\(id) is not in the album \"\(album.name)\"")
        }
        var seen = Set<AssetID>()
        let front = ids.filter { seen.insert($0).inserted }
        album.members = front + album.members.filter { !seen.contains($0) }
        try UserAlbums(library: library).save(album)
        let report = try sync()
        return (try userAlbum(album.name), report)
    }

    /// `album delete`: its links go, never an original.
    public func delete(_ name: String) throws -> (UserAlbum, AlbumSyncReport) {
        if let generated = try generated().first(where: { $0.path == name || $0.title == name }) {
            throw ShoeboxError(.invalidArgument, "Albums/\(generated.path) is a generated album; it follows the library and cannot be deleted")
        }
        var album = try userAlbum(name)
        album.deleting = true
        try UserAlbums(library: library).save(album)
        let report = try sync()
        return (album, report)
    }

    /// The user album called `name`, or an error that says how to list or make one.
    public func userAlbum(_ name: String) throws -> UserAlbum {
        guard let album = UserAlbums(library: library).find(name) else {
            throw ShoeboxError(.notFound, "no album \"\(name)\"", remedy: LibraryRemedy.listOrCreateAlbums)
        }
        return album
    }

    /// An album by user-album name, or generated path ("Years/2024"), or generated title ("2024").
    public func find(_ name: String) throws -> AlbumFolder {
        if let album = UserAlbums(library: library).find(name) {
            return folder(for: album, presentPaths: try presentPaths())
        }
        let generated = try generated()
        let trimmed = name.hasPrefix("Albums/") ? String(name.dropFirst(7)) : name
        if let g = generated.first(where: { $0.path == trimmed }) ?? generated.first(where: { $0.title == trimmed })
            ?? generated.first(where: { $0.title.caseInsensitiveCompare(trimmed) == .orderedSame }) {
            return g
        }
        throw ShoeboxError(.notFound, "no album \"\(name)\"", remedy: LibraryRemedy.listAlbums)
    }
}
