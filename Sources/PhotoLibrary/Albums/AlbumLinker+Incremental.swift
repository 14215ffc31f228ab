import Foundation

// Incremental album sync: after a pass, writes record the albums they touch (`AlbumChanges`);
// the next sync recomputes those albums only, and trusts every other folder by its stamp.

extension AlbumLinker {
    /// Syncs only the albums changes touched, when every write since the last pass is recorded
    /// and every other folder is as that pass left it. Returns false when a full pass is needed.
    func syncChangedAlbums(_ stamps: Stamps?, generation: String, _ report: inout AlbumSyncReport) throws -> Bool {
        guard let stamps, let build = AlbumLinker.build, stamps.build == build,
              let changes = try loadChanges(), changes.continues(stamps, at: generation),
              stamps.folders.allSatisfy({ changes.folders.contains($0.key) || AlbumLinker.sameFolder(folderStamp($0.key), $0.value) })
        else { return false }
        var albums = changes.albums
        var verified: [String: Verification] = [:]
        let asked = changes.folders.filter { !AlbumLinker.isRoot($0) }
        // An album rebuilt beside its folder and swapped in changes the folder that holds it too.
        var roots = changes.folders.subtracting(asked).union(asked.map(AlbumLinker.root(of:)))
        var found = Set<String>()
        try forEachGeneratedAlbum(only: asked) { album in
            found.insert(album.path)
            albums.insert(album.path)
            verified[album.path] = try verifyOrWrite(album, stamp: stamps.folders[album.path] ?? nil, &report)
        }
        // Albums with nothing left in them go (only a folder: a file of that name is the user's).
        let emptied = asked.subtracting(found)
        for path in emptied {
            albums.remove(path)
            if lstat(path)?.isDirectory == true {
                try removeLinkFolder(path, keepForeign: false, &report)
                report.foldersRemoved += 1
            }
        }
        // A folder made or removed under `Albums/Years` changes `Albums/` when `Years` comes or goes.
        if !roots.isEmpty { roots.insert("") }
        let rootsAt = Date().timeIntervalSince1970
        let problems = report.problems.count
        try removeGeneratedAlbums(notIn: albums, under: roots.filter { !$0.isEmpty }.sorted(), &report)
        if report.problems.count == problems {
            // Verified absent, as a full pass stamps them: Screenshots and Videos when empty.
            for path in roots.union(emptied) where AlbumLinker.isRoot(path) || AlbumLinker.isTopLevelAlbum(path) {
                verified[path] = verified[path] ?? (rootsAt, nil)
            }
        }
        try saveStamps(after: stamps, generation: generation, looked: roots.union(asked), albums: albums, verified: verified)
        try saveListingOrder(of: albums)
        return true
    }

    /// The last pass's stamps with those of the folders looked at again replaced; saves them and
    /// a new record of changes holding the folders that could not be stamped yet.
    private func saveStamps(after stamps: Stamps, generation: String, looked: Set<String>, albums: Set<String>,
                            verified: [String: Verification]) throws {
        var fresh = stamps
        fresh.generation = generation
        var pending = Set<String>()
        for path in looked {
            fresh.folders[path] = nil
            // A year, place or person album that is gone has no stamp (as after a full pass).
            if !AlbumLinker.isRoot(path) && !AlbumLinker.isTopLevelAlbum(path) && !albums.contains(path) { continue }
            if let stamp = settledStamp(path, verified: verified[path]) { fresh.folders[path] = stamp } else { pending.insert(path) }
        }
        fresh.complete = pending.isEmpty
        try saveStamps(fresh)
        try saveChanges(AlbumChanges(since: generation, through: generation, folders: pending, albums: albums))
    }

    /// After a full pass: a new record of changes, starting from it, holding the folders it
    /// could not stamp yet (so that the next sync looks at them, and only them).
    func startChanges(after stamps: Stamps, albums: Set<String>) throws {
        guard AlbumLinker.build != nil else { return }
        let pending = Set([""] + AlbumLinker.generatedRoots).union(albums).subtracting(stamps.folders.keys)
        try saveChanges(AlbumChanges(since: stamps.generation, through: stamps.generation, folders: pending, albums: albums))
    }

    /// `Albums/` itself and the folders that hold albums; "Screenshots" and "Videos" are albums.
    static func isRoot(_ path: String) -> Bool {
        path.isEmpty || (generatedRoots.contains(path) && !isTopLevelAlbum(path))
    }

    /// "Screenshots" and "Videos": albums stamped even when absent (as a full pass does).
    static func isTopLevelAlbum(_ path: String) -> Bool { path == "Screenshots" || path == "Videos" }

    /// The folder that holds an album: "Years" for "Years/2024", "" for "Screenshots".
    static func root(of album: String) -> String {
        album.firstIndex(of: "/").map { String(album[..<$0]) } ?? ""
    }

    func loadChanges() throws -> AlbumChanges? { try index.metaJSON(AlbumChanges.key, as: AlbumChanges.self) }

    func saveChanges(_ changes: AlbumChanges) throws { try index.setMetaJSON(AlbumChanges.key, changes) }
}
