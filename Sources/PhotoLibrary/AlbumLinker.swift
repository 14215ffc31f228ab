import CSystem
import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// One album as folders of links show it.
public struct AlbumFolder: Sendable {
    public enum Kind: String, Codable, Sendable { case user, year, place, person, screenshots, videos }
    public struct Entry: Sendable {
        public var position: Int
        /// "001 IMG_0412.HEIC"
        public var linkName: String
        /// The link's text: relative, from the album folder to the original.
        public var target: String
        public var id: AssetID
        public var assetPath: String
    }
    /// Under `Albums/`: "Years/2024", "Places/Lisbon, Portugal", "Trip".
    public var path: String
    public var kind: Kind
    public var title: String
    public var entries: [Entry]
    /// User albums: their id.
    public var albumID: String?
}

public struct AlbumSyncReport: Sendable {
    /// Why albums are switched off (a file system without symbolic links); nil when on.
    public var off: String?
    public var foldersWritten = 0
    public var foldersRemoved = 0
    /// Members a user took out of an album by deleting its link by hand.
    public var removedByHand: [(album: String, id: AssetID)] = []
    public var problems: [String] = []
    public init() {}
}

/// Keeps `Albums/` equal to the index: generated albums (years, places, people, screenshots,
/// videos) and user albums, as folders of relative symbolic links named in album order.
///
/// A folder whose links must change otherwise than by additions and removals at the end is
/// rebuilt beside the old one and swapped in with one `renameat2(RENAME_EXCHANGE)`, so a file
/// manager never sees half an album. Links are derived data: a crash leaves at worst an album
/// folder one step behind, or a hidden build folder, both put right by the next sync — which
/// every scan, watch batch, trash, restore, purge and album command runs.
///
/// The caller holds the library's writer lock.
public struct AlbumLinker {
    public static let folderName = "Albums"
    public static let generatedRoots = ["Years", "Places", "People", "Screenshots", "Videos"]
    static let buildPrefix = ".shoebox-build-"

    let library: Library
    let index: Index

    public init(library: Library, index: Index) {
        self.library = library
        self.index = index
    }

    var root: String { library.root.path + "/" + AlbumLinker.folderName }

    // MARK: Symbolic link support

    /// Nil when the library's file system takes symbolic links; else why albums are off.
    public static func symlinkProblem(_ library: Library) -> String? {
        let probe = library.stateFolder.path + "/.symlink-probe-\(getpid())"
        unlink(probe)
        if symlink("index.sqlite", probe) == 0 {
            unlink(probe)
            return nil
        }
        let e = errno
        if e == EPERM || e == EOPNOTSUPP || e == ENOSYS || e == EINVAL {
            return "albums are off: the file system of \(library.root.path) does not support symbolic links (exFAT, FAT and some NTFS mounts do not); the photos are indexed as usual"
        }
        return "albums are off: cannot create a symbolic link in \(library.stateFolder.path): \(ShoeboxError.errnoText(e))"
    }

    // MARK: What the albums should hold

    struct Row {
        var id: AssetID
        var path: String
        var year: Int?
        var kind: AssetKind
        var place: Place?
        var persons: [String]
    }

    /// Generated albums, in capture order. Duplicates and the video halves of Live Photos are
    /// left out (the photo stands for its Live Photo).
    func generated() throws -> [AlbumFolder] {
        let decoder = JSONDecoder()
        let rows: [Row] = try index.read { db in
            try GRDB.Row.fetchAll(db, sql: """
                SELECT id, path, year, kind, city, country, persons FROM asset
                WHERE state = 'present' AND live_photo_of IS NULL AND duplicate_of IS NULL
                ORDER BY taken_at_epoch IS NULL, taken_at_epoch, path, id
                """).map { r in
                let city: String? = r[4], country: String? = r[5]
                let personsJSON: String = r[6]
                // Most photos name nobody: skip the decoder for "[]".
                let persons = personsJSON == "[]" ? [] : (try? decoder.decode([String].self, from: Data(personsJSON.utf8))) ?? []
                return Row(id: AssetID(trusted: r[0]), path: r[1], year: r[2], kind: AssetKind(rawValue: r[3]) ?? .photo,
                           place: (city == nil && country == nil) ? nil : Place(city: city, country: country), persons: persons)
            }
        }
        var groups: [String: (kind: AlbumFolder.Kind, title: String, rows: [Row])] = [:]
        var order: [String] = []
        func add(_ path: String, _ kind: AlbumFolder.Kind, _ title: String, _ row: Row) {
            if groups[path] == nil { groups[path] = (kind, title, []); order.append(path) }
            if groups[path]!.rows.last?.id != row.id { groups[path]!.rows.append(row) }
        }
        // Folder names are cleaned once per name, not once per photo.
        var placeFolders: [String: String] = [:]
        var personFolders: [String: String] = [:]
        for r in rows {
            if let y = r.year { add("Years/\(y)", .year, String(y), r) }
            if let label = r.place?.label, !label.isEmpty {
                let folder = placeFolders[label] ?? "Places/" + SafeName.folder(label, fallback: "Unknown place")
                placeFolders[label] = folder
                add(folder, .place, label, r)
            }
            for p in r.persons {
                let folder = personFolders[p] ?? "People/" + SafeName.folder(p, fallback: "Unnamed")
                personFolders[p] = folder
                add(folder, .person, p, r)
            }
            if r.kind == .screenshot { add("Screenshots", .screenshots, "Screenshots", r) }
            if r.kind == .video { add("Videos", .videos, "Videos", r) }
        }
        return order.map { path in
            let g = groups[path]!
            return folder(path: path, kind: g.kind, title: g.title, members: g.rows.map { ($0.id, $0.path) }, albumID: nil)
        }
    }

    /// A user album's folder: its present members in album order.
    func folder(for album: UserAlbum, presentPaths: [AssetID: String]) -> AlbumFolder {
        folder(path: album.folder, kind: .user, title: album.name,
               members: album.members.compactMap { id in presentPaths[id].map { (id, $0) } }, albumID: album.id)
    }

    func folder(path: String, kind: AlbumFolder.Kind, title: String, members: [(AssetID, String)], albumID: String?) -> AlbumFolder {
        let width = SafeName.positionWidth(for: members.count)
        let up = String(repeating: "../", count: path.split(separator: "/").count + 1)
        var names = Set<String>()
        var entries: [AlbumFolder.Entry] = []
        for (i, m) in members.enumerated() {
            let fileName = m.1.lastIndex(of: "/").map { String(m.1[m.1.index(after: $0)...]) } ?? m.1
            var name = SafeName.link(position: i + 1, width: width, fileName: fileName)
            // Positions make names unique; this only guards against a name cut short to 255 bytes.
            var n = 2
            while !names.insert(name).inserted {
                name = SafeName.link(position: i + 1, width: width, fileName: "\(n) " + fileName)
                n += 1
            }
            entries.append(.init(position: i + 1, linkName: name, target: up + m.1, id: m.0, assetPath: m.1))
        }
        return AlbumFolder(path: path, kind: kind, title: title, entries: entries, albumID: albumID)
    }

    func presentPaths() throws -> [AssetID: String] {
        try index.read { db in
            var out: [AssetID: String] = [:]
            for r in try GRDB.Row.fetchAll(db, sql: "SELECT id, path FROM asset WHERE state = 'present'") {
                out[AssetID(trusted: r[0])] = r[1]
            }
            return out
        }
    }

    /// Every album as it should be now (user albums first, then generated ones).
    public func desired() throws -> [AlbumFolder] {
        let paths = try presentPaths()
        return UserAlbums(library: library).all().map { folder(for: $0, presentPaths: paths) } + (try generated())
    }

    // MARK: Sync

    /// Makes `Albums/` match the index and the user albums.
    @discardableResult
    public func sync() throws -> AlbumSyncReport {
        var report = AlbumSyncReport()
        if let off = AlbumLinker.symlinkProblem(library) {
            report.off = off
            return report
        }
        let store = UserAlbums(library: library)
        if mkdir(root, 0o755) != 0 && errno != EEXIST {
            throw ShoeboxError(.io, "cannot create \(root): \(ShoeboxError.errnoText())")
        }
        cleanLeftovers(&report)
        let paths = try presentPaths()

        // User albums: finish deletions, read links deleted by hand, then write.
        var userFolders = Set<String>()
        for var album in store.allIncludingDeleted(problem: { report.problems.append($0) }) {
            let dir = root + "/" + album.folder
            if album.deleting {
                removeLinkFolder(dir, &report)
                store.erase(album)
                continue
            }
            userFolders.insert(album.folder)
            let onDisk = readFolder(dir)
            let before = album
            if !album.syncing, let onDisk {
                let gone = album.linked.filter { onDisk.links[$0.key] == nil && paths[$0.value] != nil }
                if !gone.isEmpty {
                    let ids = Set(gone.values)
                    album.members.removeAll(where: ids.contains)
                    for id in ids.sorted(by: { $0.rawValue < $1.rawValue }) { report.removedByHand.append((album.name, id)) }
                }
            }
            let want = folder(for: album, presentPaths: paths)
            let wantLinks = Dictionary(want.entries.map { ($0.linkName, $0.target) }, uniquingKeysWith: { a, _ in a })
            let wantLinked = Dictionary(want.entries.map { ($0.linkName, $0.id) }, uniquingKeysWith: { a, _ in a })
            if onDisk?.links == wantLinks && !album.syncing {
                album.linked = wantLinked
                if album != before { try store.save(album) }
                continue
            }
            album.syncing = true
            try store.save(album)
            if try write(want, into: dir, existing: onDisk, &report) { report.foldersWritten += 1 }
            album.syncing = false
            album.linked = wantLinked
            try store.save(album)
        }

        // Generated albums.
        let generated = try generated()
        var wanted = Set<String>()
        for album in generated {
            wanted.insert(album.path)
            let dir = root + "/" + album.path
            if try write(album, into: dir, existing: readFolder(dir), &report) { report.foldersWritten += 1 }
        }
        // Generated albums with nothing left in them go.
        for top in AlbumLinker.generatedRoots {
            let dir = root + "/" + top
            if top == "Screenshots" || top == "Videos" {
                if !wanted.contains(top), readFolder(dir) != nil { removeLinkFolder(dir, &report); report.foldersRemoved += 1 }
                continue
            }
            for name in directoryNames(dir) where !wanted.contains(top + "/" + name) {
                var st = stat()
                guard lstat(dir + "/" + name, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { continue }
                removeLinkFolder(dir + "/" + name, &report)
                report.foldersRemoved += 1
            }
            if directoryNames(dir).isEmpty { rmdir(dir) }
        }
        return report
    }

    struct OnDisk: Equatable {
        var links: [String: String] = [:]
        /// Entries that are not links: files a user put there; never deleted.
        var others: [String] = []
    }

    /// The links of a folder; nil when there is no folder.
    func readFolder(_ dir: String) -> OnDisk? {
        guard let handle = opendir(dir) else { return nil }
        defer { closedir(handle) }
        var out = OnDisk()
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        while let ent = readdir(handle) {
            let name = withUnsafeBytes(of: ent.pointee.d_name) { raw in
                String(validatingCString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            guard let name, name != ".", name != ".." else { continue }
            let n = readlink(dir + "/" + name, &buffer, buffer.count - 1)
            if n >= 0 {
                buffer[n] = 0
                out.links[name] = String(cString: buffer)
            } else {
                out.others.append(name)
            }
        }
        return out
    }

    /// Writes one album folder. Only additions and removals: in place. Anything else (a new
    /// order, a moved original): a new folder built beside it and swapped in.
    /// Returns whether it changed anything.
    func write(_ album: AlbumFolder, into dir: String, existing: OnDisk?, _ report: inout AlbumSyncReport) throws -> Bool {
        let want = Dictionary(album.entries.map { ($0.linkName, $0.target) }, uniquingKeysWith: { a, _ in a })
        if let existing, existing.links == want { return false }
        if let existing, !existing.links.contains(where: { want[$0.key] != nil && want[$0.key] != $0.value }) {
            for name in existing.links.keys where want[name] == nil { unlink(dir + "/" + name) }
            for e in album.entries where existing.links[e.linkName] == nil {
                if symlink(e.target, dir + "/" + e.linkName) != 0 {
                    report.problems.append("cannot create the link \(displayPath(dir + "/" + e.linkName)): \(ShoeboxError.errnoText())")
                }
            }
            return true
        }
        let parent = (dir as NSString).deletingLastPathComponent
        let leaf = (dir as NSString).lastPathComponent
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let build = parent + "/" + String(decoding: Array((AlbumLinker.buildPrefix + leaf).utf8.prefix(250)), as: UTF8.self)
        if readFolder(build) != nil { removeLinkFolder(build, &report) }
        guard mkdir(build, 0o755) == 0 else {
            throw ShoeboxError(.io, "cannot create \(build): \(ShoeboxError.errnoText())")
        }
        for e in album.entries where symlink(e.target, build + "/" + e.linkName) != 0 {
            report.problems.append("cannot create the link \(displayPath(dir + "/" + e.linkName)): \(ShoeboxError.errnoText())")
        }
        if existing == nil {
            guard rename(build, dir) == 0 else { throw ShoeboxError(.io, "cannot create \(dir): \(ShoeboxError.errnoText())") }
            return true
        }
        if shoebox_rename_exchange(build, dir) != 0 {
            // A file system without RENAME_EXCHANGE: the old folder steps aside for an instant.
            let old = build + ".old"
            guard rename(dir, old) == 0, rename(build, dir) == 0 else {
                throw ShoeboxError(.io, "cannot replace \(dir): \(ShoeboxError.errnoText())")
            }
            rename(old, build)
        }
        // `build` now holds the old folder: a user's own files in it move to the new one.
        for name in existing?.others ?? [] {
            _ = shoebox_rename_noreplace(build + "/" + name, dir + "/" + name)
        }
        removeLinkFolder(build, &report)
        return true
    }

    /// Deletes a folder's links and then the folder; anything that is not a link stays (and so
    /// does the folder then): deleting an album never deletes a file.
    func removeLinkFolder(_ dir: String, _ report: inout AlbumSyncReport) {
        guard let content = readFolder(dir) else { return }
        for name in content.links.keys { unlink(dir + "/" + name) }
        if !content.others.isEmpty {
            report.problems.append("\(displayPath(dir)) holds files that are not album links (\(content.others.prefix(3).joined(separator: ", "))); they were left there")
            return
        }
        rmdir(dir)
    }

    /// Build folders a crash left behind: their own files go back to their album, links go.
    func cleanLeftovers(_ report: inout AlbumSyncReport) {
        for parent in [root] + AlbumLinker.generatedRoots.map({ root + "/" + $0 }) {
            for name in directoryNames(parent) where name.hasPrefix(AlbumLinker.buildPrefix) {
                let build = parent + "/" + name
                var album = String(name.dropFirst(AlbumLinker.buildPrefix.count))
                if album.hasSuffix(".old") { album.removeLast(4) }
                for other in readFolder(build)?.others ?? [] {
                    _ = shoebox_rename_noreplace(build + "/" + other, parent + "/" + album + "/" + other)
                }
                removeLinkFolder(build, &report)
            }
        }
    }

    func directoryNames(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var out: [String] = []
        while let ent = readdir(dir) {
            let name = withUnsafeBytes(of: ent.pointee.d_name) { raw in
                String(validatingCString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if let name, name != ".", name != ".." { out.append(name) }
        }
        return out.sorted()
    }
}

// MARK: User album commands

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

    public func userAlbum(_ name: String) throws -> UserAlbum {
        guard let album = UserAlbums(library: library).find(name) else {
            throw ShoeboxError(.notFound, "no album \"\(name)\"; `shoebox album list` shows them, `shoebox album create NAME ID…` makes one")
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
        throw ShoeboxError(.notFound, "no album \"\(name)\"; `shoebox album list` shows them")
    }
}
