import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
        var fresh = stamps
        fresh.generation = generation
        var albums = changes.albums
        var verified: [String: (at: Double, digest: String?)] = [:]
        let asked = changes.folders.filter { !AlbumLinker.isRoot($0) }
        // An album rebuilt beside its folder and swapped in changes the folder that holds it too.
        var roots = changes.folders.subtracting(asked).union(asked.map(AlbumLinker.root(of:)))
        var found = Set<String>()
        try forEachGenerated(only: asked) { album in
            found.insert(album.path)
            albums.insert(album.path)
            verified[album.path] = try verifyOrWrite(album, stamp: stamps.folders[album.path] ?? nil, &report)
        }
        // Albums with nothing left in them go (only a folder: a file of that name is the user's).
        let emptied = asked.subtracting(found)
        for path in emptied {
            albums.remove(path)
            var st = stat()
            if lstat(root + "/" + path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
                removeLinkFolder(root + "/" + path, &report)
                report.foldersRemoved += 1
            }
        }
        // A folder made or removed under `Albums/Years` changes `Albums/` when `Years` comes or goes.
        if !roots.isEmpty { roots.insert("") }
        let rootsAt = Date().timeIntervalSince1970
        let problems = report.problems.count
        for top in roots where !top.isEmpty { removeAlbums(under: top, except: albums, &report) }
        if report.problems.count == problems {
            // Verified absent, as a full pass stamps them: Screenshots and Videos when empty.
            for path in roots.union(emptied) where AlbumLinker.isRoot(path) || AlbumLinker.isTopLevelAlbum(path) {
                verified[path] = verified[path] ?? (rootsAt, nil)
            }
        }

        var pending = Set<String>()
        for path in roots.union(asked) {
            fresh.folders[path] = nil
            // A year, place or person album that is gone has no stamp (as after a full pass).
            if !AlbumLinker.isRoot(path) && !AlbumLinker.isTopLevelAlbum(path) && !albums.contains(path) { continue }
            if let stamp = settledStamp(path, verified: verified[path]) { fresh.folders[path] = stamp } else { pending.insert(path) }
        }
        fresh.complete = pending.isEmpty
        try saveStamps(fresh)
        try saveChanges(AlbumChanges(since: generation, through: generation, folders: pending, albums: albums))
        return true
    }

    /// After a full pass: a new record of changes, starting from it, holding the folders it
    /// could not stamp yet (so that the next sync looks at them, and only them).
    func startChanges(after stamps: Stamps, albums: Set<String>) throws {
        guard AlbumLinker.build != nil else { return }
        let pending = Set([""] + AlbumLinker.generatedRoots).union(albums).subtracting(stamps.folders.keys)
        try saveChanges(AlbumChanges(since: stamps.generation, through: stamps.generation, folders: pending, albums: albums))
    }

    /// Finds `album`'s folder as it should be, by its stamp or by reading it, or writes it.
    /// Returns when it was verified and its digest; nil when it could not be written.
    func verifyOrWrite(_ album: AlbumFolder, stamp last: FolderStamp?, _ report: inout AlbumSyncReport) throws -> (at: Double, digest: String?)? {
        report.albumsComputed += 1
        let digest = AlbumLinker.digest(album)
        if let last, last.digest == digest, AlbumLinker.sameFolder(folderStamp(album.path), last) {
            return (last.verifiedAt, digest)
        }
        let problems = report.problems.count
        let at = Date().timeIntervalSince1970
        let dir = root + "/" + album.path
        if try write(album, into: dir, existing: readFolder(dir), &report) { report.foldersWritten += 1 }
        return report.problems.count == problems ? (at, digest) : nil
    }

    /// Removes the generated album folders under `top` ("Years", …, or "Screenshots" itself) that
    /// are not in `wanted`, and `top` when it is left empty.
    func removeAlbums(under top: String, except wanted: Set<String>, _ report: inout AlbumSyncReport) {
        let dir = root + "/" + top
        if AlbumLinker.isTopLevelAlbum(top) {
            if !wanted.contains(top), readFolder(dir) != nil { removeLinkFolder(dir, &report); report.foldersRemoved += 1 }
            return
        }
        for name in directoryNames(dir) where !wanted.contains(top + "/" + name) {
            var st = stat()
            guard lstat(dir + "/" + name, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { continue }
            removeLinkFolder(dir + "/" + name, &report)
            report.foldersRemoved += 1
        }
        if directoryNames(dir).isEmpty { rmdir(dir) }
    }

    /// The stamp of a folder verified at `verified.at`, when it has not moved for `stampMargin`
    /// seconds before that (`.some(nil)` for a folder that is absent); nil when it cannot be stamped.
    func settledStamp(_ path: String, verified v: (at: Double, digest: String?)?) -> FolderStamp?? {
        guard let v else { return nil }
        var stamp = folderStamp(path)
        if let s = stamp, s.inode == 0 || Double(max(s.mtimeNS, s.ctimeNS)) / 1e9 >= v.at - AlbumLinker.stampMargin { return nil }
        stamp?.digest = v.digest
        stamp?.verifiedAt = v.at
        return .some(stamp)
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

    /// An SQL condition (`AND (…)`) that keeps the rows that can be in one of `albums`, so that
    /// a few changed albums do not cost a decoded row per asset.
    static func rowsThatCanBeIn(_ albums: Set<String>) -> String {
        var terms: [String] = []
        let years = albums.compactMap { $0.hasPrefix("Years/") ? Int($0.dropFirst(6)) : nil }
        if !years.isEmpty { terms.append("year IN (\(years.map(String.init).joined(separator: ",")))") }
        if albums.contains(where: { $0.hasPrefix("Places/") }) { terms.append("city IS NOT NULL OR country IS NOT NULL") }
        if albums.contains(where: { $0.hasPrefix("People/") }) { terms.append("persons != '[]'") }
        if albums.contains("Screenshots") { terms.append("kind = '\(AssetKind.screenshot.rawValue)'") }
        if albums.contains("Videos") { terms.append("kind = '\(AssetKind.video.rawValue)'") }
        return terms.isEmpty ? "AND 0" : "AND (" + terms.map { "(\($0))" }.joined(separator: " OR ") + ")"
    }

    func loadChanges() throws -> AlbumChanges? { try loadMeta(AlbumChanges.key, as: AlbumChanges.self) }

    func saveChanges(_ changes: AlbumChanges) throws { try saveMeta(changes, as: AlbumChanges.key) }

    /// A value kept as JSON in the index's `meta`; nil when absent or unreadable (then recomputed).
    func loadMeta<T: Decodable>(_ key: String, as type: T.Type) throws -> T? {
        guard let text = try index.meta(key), !text.isEmpty else { return nil }
        return try? JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    /// Stores a value as JSON in `meta`, writing only when it changed.
    func saveMeta<T: Encodable>(_ value: T, as key: String) throws {
        let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        if try index.meta(key) != text { try index.setMeta(key, text) }
    }
}
