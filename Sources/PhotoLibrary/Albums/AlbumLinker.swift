import CSystem
import Crypto
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
    /// Generated albums whose members were worked out: every one in a full pass, only those
    /// that changed assets left or joined otherwise (see `AlbumChanges`).
    public var albumsComputed = 0
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
        // A read-only mount, a full disk or missing permissions say nothing about symbolic links:
        // the album writes themselves report those, and switching albums off would hide them.
        return nil
    }

    // MARK: What the albums should hold

    /// Generated albums, in capture order. Duplicates and the video halves of Live Photos are
    /// left out (the photo stands for its Live Photo).
    func generated() throws -> [AlbumFolder] {
        var out: [AlbumFolder] = []
        try forEachGenerated { out.append($0) }
        return out
    }

    /// The albums of `generated()`, in its order, one at a time: the links of only one album
    /// exist at once, however large the library. `only`: just these album paths (see
    /// `AlbumChanges`), and only the rows that can be in them are read into memory.
    func forEachGenerated(only: Set<String>? = nil, _ body: (AlbumFolder) throws -> Void) throws {
        if let only, only.isEmpty { return }
        let decoder = JSONDecoder()
        var namer = GeneratedAlbumNamer()
        var members: [(AssetID, String)] = []
        // Members as positions in `members`.
        var groups: [String: (kind: AlbumFolder.Kind, title: String, rows: [Int])] = [:]
        var order: [String] = []
        try index.read { db in
            // A cursor, not fetchAll: one row object reused, not one copy per asset.
            let cursor = try GRDB.Row.fetchCursor(db, sql: """
                SELECT id, path, year, kind, city, country, persons FROM asset
                WHERE state = 'present' AND live_photo_of IS NULL AND duplicate_of IS NULL \(only.map(AlbumLinker.rowsThatCanBeIn) ?? "")
                ORDER BY taken_at_epoch IS NULL, taken_at_epoch, path, id
                """)
            while let r = try cursor.next() {
                let albums = namer.albums(year: r[2], city: r[4], country: r[5], personsJSON: r[6], kind: r[3], decoder)
                var row: Int?
                for a in albums where only?.contains(a.path) ?? true {
                    if row == nil { row = members.count; members.append((AssetID(trusted: r[0]), r[1])) }
                    if groups[a.path] == nil { groups[a.path] = (a.kind, a.title, []); order.append(a.path) }
                    if groups[a.path]!.rows.last != row { groups[a.path]!.rows.append(row!) }
                }
            }
        }
        for path in order {
            let g = groups[path]!
            try body(folder(path: path, kind: g.kind, title: g.title, members: g.rows.map { members[$0] }, albumID: nil))
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

    /// `presentPaths()` of these ids only (the members of user albums): no pass over the whole index.
    func presentPaths(of ids: Set<AssetID>) throws -> [AssetID: String] {
        guard !ids.isEmpty else { return [:] }
        let all = Array(ids)
        return try index.read { db in
            var out: [AssetID: String] = [:]
            // Chunked to stay under SQLite's parameter limit.
            for start in stride(from: 0, to: all.count, by: 500) {
                let chunk = all[start..<min(all.count, start + 500)]
                for r in try GRDB.Row.fetchAll(db, sql: """
                    SELECT id, path FROM asset WHERE id IN (\(chunk.map { _ in "?" }.joined(separator: ","))) AND state = 'present'
                    """, arguments: StatementArguments(chunk.map(\.rawValue))) {
                    out[AssetID(trusted: r[0])] = r[1]
                }
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
        let userAlbums = store.allIncludingDeleted(problem: { report.problems.append($0) })
        // Only what the user albums name (members, and what their links were) is looked up.
        let paths = try presentPaths(of: Set(userAlbums.flatMap { $0.deleting ? [] : $0.members + $0.linked.values }))

        // User albums: finish deletions, read links deleted by hand, then write.
        var userFolders = Set<String>()
        for var album in userAlbums {
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

        // Generated albums: nothing to do while neither the index nor any of their folders has
        // changed since a pass that verified them all; a folder whose links and stamp are those
        // of the last pass is not read again (see `Stamps`).
        let generation = try index.generation()
        let stamps = try loadStamps()
        if let stamps, stamps.complete, stamps.generation == generation, stamps.build == AlbumLinker.build,
           stamps.folders.allSatisfy({ AlbumLinker.sameFolder(folderStamp($0.key), $0.value) }) {
            return report
        }
        // A few assets changed since a pass: only the albums they left or joined.
        if try syncChangedAlbums(stamps, generation: generation, &report) { return report }
        var fresh = Stamps(generation: generation, build: AlbumLinker.build ?? "", complete: AlbumLinker.build != nil, folders: [:])
        /// When each folder was found (or made) as it should be; nil when it is not (a problem).
        var verified: [String: (at: Double, digest: String?)] = [:]
        var wanted = Set<String>()
        try forEachGenerated { album in
            wanted.insert(album.path)
            verified[album.path] = try verifyOrWrite(album, stamp: stamps?.folders[album.path] ?? nil, &report)
        }
        // Generated albums with nothing left in them go.
        let rootsAt = Date().timeIntervalSince1970
        let problems = report.problems.count
        for top in AlbumLinker.generatedRoots { removeAlbums(under: top, except: wanted, &report) }
        if report.problems.count == problems {
            for top in [""] + AlbumLinker.generatedRoots where !wanted.contains(top) { verified[top] = (rootsAt, nil) }
        }
        for path in [""] + AlbumLinker.generatedRoots + wanted.sorted() {
            if let stamp = settledStamp(path, verified: verified[path]) { fresh.folders[path] = stamp } else { fresh.complete = false }
        }
        try saveStamps(fresh)
        try startChanges(after: fresh, albums: wanted)
        return report
    }

    // MARK: Stamps

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

    static let stampsKey = "album_stamps"
    static let stampMargin = 2.0

    /// The running executable, by size and modification time; nil when unknown (no stamps then).
    static let build: String? = {
        var st = stat()
        guard stat("/proc/self/exe", &st) == 0 else { return nil }
        return "\(st.st_size)-\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
    }()

    /// The folder's stamp (without a digest); nil when it does not exist; inode 0 (never
    /// trusted) when it cannot be read or is not a folder.
    func folderStamp(_ path: String) -> FolderStamp? {
        var st = stat()
        guard lstat(path.isEmpty ? root : root + "/" + path, &st) == 0 else {
            return errno == ENOENT ? nil : FolderStamp(inode: 0, mtimeNS: -1, ctimeNS: -1)
        }
        // A link standing for a folder says nothing about what is in the folder it leads to.
        guard (st.st_mode & S_IFMT) == S_IFDIR else { return FolderStamp(inode: 0, mtimeNS: -1, ctimeNS: -1) }
        return FolderStamp(inode: UInt64(st.st_ino),
                           mtimeNS: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec),
                           ctimeNS: Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec))
    }

    /// Whether `now` (from `folderStamp`) is the folder `stamp` was taken of, unchanged.
    static func sameFolder(_ now: FolderStamp?, _ stamp: FolderStamp?) -> Bool {
        guard let now, let stamp else { return now == nil && stamp == nil }
        return now.inode != 0 && now.inode == stamp.inode && now.mtimeNS == stamp.mtimeNS && now.ctimeNS == stamp.ctimeNS
    }

    /// SHA-256 of an album's links (name and target of each, in order).
    static func digest(_ album: AlbumFolder) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(album.entries.count * 96)
        for e in album.entries {
            bytes += e.linkName.utf8
            bytes.append(0)
            bytes += e.target.utf8
            bytes.append(0)
        }
        return SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    func loadStamps() throws -> Stamps? { try loadMeta(AlbumLinker.stampsKey, as: Stamps.self) }

    func saveStamps(_ stamps: Stamps) throws { try saveMeta(stamps, as: AlbumLinker.stampsKey) }

    struct OnDisk: Equatable {
        var links: [String: String] = [:]
        /// Entries that are not links: files a user put there; never deleted.
        var others: [String] = []
    }

    /// The links of a folder; nil when there is no folder.
    func readFolder(_ dir: String) -> OnDisk? {
        guard let handle = opendir(dir) else { return nil }
        defer { closedir(handle) }
        let fd = dirfd(handle)
        var out = OnDisk()
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        while let ent = readdir(handle) {
            let name = withUnsafeBytes(of: ent.pointee.d_name) { raw in
                String(validatingCString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            guard let name, name != ".", name != ".." else { continue }
            // Relative to the open folder: no walk down the whole path for each of its links.
            let n = readlinkat(fd, name, &buffer, buffer.count - 1)
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
            // A link that only changes its name (its position moved: a photo came or went before
            // it) is renamed rather than deleted and made again: no inode to free and allocate,
            // which is most of what a large album costs on ext4. Read back, so that a link
            // replaced meanwhile is never kept (and a file put in its place goes back to its
            // name); anything else gets a new link.
            var renamable: [String: String] = [:]
            for (name, target) in existing.links where want[name] == nil { renamable[target] = name }
            let fd = renamable.isEmpty ? -1 : open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            defer { if fd >= 0 { close(fd) } }
            var renamed = Set<String>(), placed = Set<String>()
            for e in album.entries where existing.links[e.linkName] == nil {
                guard fd >= 0, let old = renamable[e.target], shoebox_renameat_noreplace(fd, old, fd, e.linkName) == 0 else { continue }
                renamed.insert(old)
                switch AlbumLinker.readLink(fd, e.linkName) {
                case e.target: placed.insert(e.linkName)
                case nil: _ = shoebox_renameat_noreplace(fd, e.linkName, fd, old)
                default: unlinkat(fd, e.linkName, 0)
                }
            }
            for name in existing.links.keys where want[name] == nil && !renamed.contains(name) { unlink(dir + "/" + name) }
            for e in album.entries where existing.links[e.linkName] == nil && !placed.contains(e.linkName) {
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
        // A link the old folder has (same target, under another name now that positions moved) is
        // hard-linked into the new folder rather than made again: no inode to allocate, which is
        // most of what rebuilding a large album costs on ext4. Read back, so that a link replaced
        // meanwhile is never carried over; anything else gets a new link.
        var reusable: [String: String] = [:]
        for (name, target) in existing?.links ?? [:] { reusable[target] = name }
        let oldFD = reusable.isEmpty ? -1 : open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        let buildFD = oldFD < 0 ? -1 : open(build, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer {
            if oldFD >= 0 { close(oldFD) }
            if buildFD >= 0 { close(buildFD) }
        }
        for e in album.entries {
            if buildFD >= 0, let old = reusable[e.target], linkat(oldFD, old, buildFD, e.linkName, 0) == 0 {
                if AlbumLinker.readLink(buildFD, e.linkName) == e.target { continue }
                unlinkat(buildFD, e.linkName, 0)  // a second name only: whatever it is keeps its own
            }
            if symlink(e.target, build + "/" + e.linkName) != 0 {
                report.problems.append("cannot create the link \(displayPath(dir + "/" + e.linkName)): \(ShoeboxError.errnoText())")
            }
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

    /// The text of the link `name` in the folder open as `fd`; nil when it is not a link.
    static func readLink(_ fd: Int32, _ name: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = buffer.withUnsafeMutableBytes { readlinkat(fd, name, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count - 1) }
        return n < 0 ? nil : String(decoding: buffer[0..<n], as: UTF8.self)
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
