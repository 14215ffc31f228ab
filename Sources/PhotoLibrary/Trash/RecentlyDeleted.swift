import CSystem
import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// One item of `Recently Deleted/` (`trash list`).
public struct TrashItem: Sendable {
    /// The asset it is; nil for a file another tool put there.
    public var id: AssetID?
    /// Its name in `files/` (what `restore NAME` takes).
    public var name: String
    public var originalPath: String
    public var deletionDate: Date
    public var size: Int64
    public var daysLeft: Int
}

/// `Recently Deleted/` in the library: a freedesktop.org trash folder (`files/`, `info/`).
///
/// Every operation is ordered so that a `kill -9` at any instant leaves each original exactly
/// once on disk — in the library or in `files/` — and `reconcile` (run by every scan, watch
/// batch and trash command) brings the index, the `.trashinfo` files and the albums back in
/// line with what is on disk:
/// - trash: claim `info/N.trashinfo` (O_EXCL), flush, rename the file into `files/N`, flush,
///   then record the asset as trashed. A crash leaves at worst an info file without its file
///   (deleted by reconcile) or a trashed file the index still calls present (found by inode).
/// - restore: rename `files/N` back (never over a file), flush, record, then delete the info.
/// - purge: delete the file, then the info, then forget the asset.
///
/// The caller holds the library's writer lock.
public final class RecentlyDeleted {
    public static let folderName = "Recently Deleted"

    let library: Library
    let index: Index
    let now: Date
    let retentionDays: Int
    let log: (String) -> Void

    public init(library: Library, index: Index, retentionDays: Int, now: Date = ShoeboxClock.now(),
                log: @escaping (String) -> Void = { _ in }) {
        self.library = library
        self.index = index
        self.retentionDays = retentionDays
        self.now = now
        self.log = log
    }

    var folder: String { library.root.path + "/" + RecentlyDeleted.folderName }
    var filesFolder: String { folder + "/files" }
    var infoFolder: String { folder + "/info" }
    func filePath(_ name: String) -> String { filesFolder + "/" + name }
    func infoPath(_ name: String) -> String { infoFolder + "/" + name + ".trashinfo" }
    /// The library-relative path of an item in `files/`, for messages.
    static func displayName(_ name: String) -> String { "\(folderName)/files/\(name)" }

    // MARK: Trash

    public struct Trashed: Sendable {
        public var id: AssetID
        public var originalPath: String
        public var name: String
    }

    /// Moves the assets' files into `files/` (a Live Photo's video goes with its photo).
    /// Files that cannot be moved are reported through `failed`; the others are trashed.
    public func trash(_ requested: [Asset], failed: (String) -> Void) throws -> [Trashed] {
        var assets: [Asset] = []
        var seen = Set<AssetID>()
        for a in requested where seen.insert(a.id).inserted {
            switch a.state {
            case .trashed:
                failed("\(displayPath(a.path)) is already in Recently Deleted (as \(a.trash?.name ?? "?"))")
                continue
            case .missing:
                failed("\(displayPath(a.path)) is missing: its file is gone, there is nothing to move")
                continue
            case .present:
                assets.append(a)
            }
            for video in try index.liveVideoAssets(of: a.id) where seen.insert(video.id).inserted { assets.append(video) }
        }
        guard !assets.isEmpty else { return [] }
        try makeFolders()

        // 1. Claim a name and write its info file for each; one flush for all of them.
        var claimed: [(asset: Asset, name: String)] = []
        for a in assets {
            var st = stat()
            guard lstat(library.url(for: a.path).path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
                failed("\(displayPath(a.path)): the file is not there any more; run `shoebox scan`")
                continue
            }
            do {
                let name = try claimName(for: a.name, info: TrashInfo(path: a.path, deletionDate: now))
                claimed.append((a, name))
            } catch {
                failed("\(displayPath(a.path)): \(error)")
            }
        }
        try AtomicFile.syncFileSystem(containing: infoFolder)

        // 2. Move the files; an info file whose move failed is taken back.
        var moved: [(asset: Asset, name: String)] = []
        for (a, name) in claimed {
            if shoebox_rename_noreplace(library.url(for: a.path).path, filePath(name)) == 0 {
                moved.append((a, name))
            } else {
                let reason = errno == EXDEV ? "Recently Deleted is on another file system than the file" : ShoeboxError.errnoText()
                unlink(infoPath(name))
                failed("\(displayPath(a.path)): cannot move it to Recently Deleted: \(reason)")
            }
        }
        guard !moved.isEmpty else { return [] }
        try AtomicFile.syncFileSystem(containing: filesFolder)

        // 3. Record: the asset keeps its id, sidecar and original path.
        let deletedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let scanner = Scanner(library: library, index: index, now: now)
        try scanner.commit(moved.map { item in
            var a = item.asset
            a.state = .trashed
            a.trash = TrashRecord(name: item.name, deletedAt: deletedAt)
            return a
        })
        try scanner.afterMembershipChange()
        return moved.map { Trashed(id: $0.asset.id, originalPath: $0.asset.path, name: $0.name) }
    }

    func makeFolders() throws {
        for dir in [folder, filesFolder, infoFolder] {
            if mkdir(dir, 0o755) != 0 && errno != EEXIST {
                throw ShoeboxError(.io, "cannot create \(dir): \(ShoeboxError.errnoText())")
            }
        }
    }

    /// A free name in `files/` and `info/` ("IMG_0412.HEIC", else "IMG_0412 2.HEIC", …), claimed
    /// by creating its info file exclusively, as the specification asks.
    func claimName(for original: String, info: TrashInfo) throws -> String {
        let ext = (original as NSString).pathExtension
        var stem = (original as NSString).deletingPathExtension
        // "<name>.trashinfo" must still fit in 255 bytes.
        while stem.utf8.count + ext.utf8.count + 24 > 255, !stem.isEmpty { stem.removeLast() }
        let data = Array(info.render().utf8)
        for n in 1...100_000 {
            let base = n == 1 ? stem : "\(stem) \(n)"
            let name = ext.isEmpty ? base : base + "." + ext
            var st = stat()
            if lstat(filePath(name), &st) == 0 { continue }
            let fd = open(infoPath(name), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd < 0 {
                if errno == EEXIST { continue }
                throw ShoeboxError(.io, "cannot write \(infoPath(name)): \(ShoeboxError.errnoText())")
            }
            let written = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            let ok = written == data.count
            close(fd)
            guard ok else {
                let reason = ShoeboxError.errnoText()
                unlink(infoPath(name))
                throw ShoeboxError(.io, "cannot write \(infoPath(name)): \(reason)")
            }
            return name
        }
        throw ShoeboxError(.io, "no free name for \(original) in \(filesFolder)")
    }

    // MARK: Restore

    public struct Restored: Sendable {
        public var id: AssetID
        public var path: String
        /// Why it is not at its original path, or that its folder was recreated.
        public var note: String?
    }

    /// Puts trashed assets back at their original paths (a Live Photo's video with its photo).
    /// A path that is taken meanwhile is never overwritten: the file comes back beside it as
    /// "NAME (restored).EXT"; a folder that is gone is recreated.
    public func restore(_ requested: [Asset], failed: (String) -> Void) throws -> [Restored] {
        var assets: [Asset] = []
        var seen = Set<AssetID>()
        for a in requested where seen.insert(a.id).inserted {
            guard a.state == .trashed, a.trash != nil else {
                failed("\(displayPath(a.path)) is not in Recently Deleted (it is \(a.state.rawValue))")
                continue
            }
            assets.append(a)
            for video in try index.trashedLiveVideoAssets(of: a.id) where seen.insert(video.id).inserted { assets.append(video) }
        }
        var done: [(asset: Asset, name: String, note: String?)] = []
        for a in assets {
            let name = a.trash!.name
            var st = stat()
            guard lstat(filePath(name), &st) == 0 else {
                failed("\(RecentlyDeleted.displayName(name)) is not there any more; run `shoebox scan`")
                continue
            }
            do {
                let (path, note) = try putBack(name, to: a.path)
                var restored = a
                restored.path = path
                restored.state = .present
                restored.trash = nil
                restored.inode = UInt64(st.st_ino)
                done.append((restored, name, note))
            } catch {
                failed("\(RecentlyDeleted.displayName(name)): \(error)")
            }
        }
        guard !done.isEmpty else { return [] }
        try AtomicFile.syncFileSystem(containing: library.root.path)
        let scanner = Scanner(library: library, index: index, now: now)
        try scanner.commit(done.map(\.asset))
        // The info files go last: until now they said where each file came from.
        for item in done { unlink(infoPath(item.name)) }
        AtomicFile.syncDirectory(infoFolder)
        try scanner.afterMembershipChange()
        return done.map { Restored(id: $0.asset.id, path: $0.asset.path, note: $0.note) }
    }

    /// Moves `files/name` to `original` (or beside it), never replacing a file.
    func putBack(_ name: String, to original: String) throws -> (String, String?) {
        let folder = (original as NSString).deletingLastPathComponent
        var note: String?
        if !folder.isEmpty {
            var st = stat()
            let dir = library.url(for: folder).path
            if lstat(dir, &st) != 0 {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                note = "recreated the folder \(displayPath(folder))"
            } else if (st.st_mode & S_IFMT) != S_IFDIR {
                throw ShoeboxError(.io, "\(displayPath(folder)) is not a folder any more; move it aside and restore again")
            }
        }
        let ext = (original as NSString).pathExtension
        let stem = ((original as NSString).lastPathComponent as NSString).deletingPathExtension
        for n in 0..<10_000 {
            let fileName = n == 0 ? (original as NSString).lastPathComponent
                : "\(stem) (restored\(n == 1 ? "" : " \(n)"))" + (ext.isEmpty ? "" : "." + ext)
            let target = folder.isEmpty ? fileName : folder + "/" + fileName
            if shoebox_rename_noreplace(filePath(name), library.url(for: target).path) == 0 {
                if n > 0 { note = "\(displayPath(original)) is taken; restored beside it as \(fileName)" }
                return (target, note)
            }
            guard errno == EEXIST else { throw ShoeboxError(.io, "cannot move it back to \(displayPath(target)): \(ShoeboxError.errnoText())") }
        }
        throw ShoeboxError(.io, "no free name beside \(displayPath(original))")
    }

    // MARK: List

    /// Every item with a readable info file and its file, oldest deletion first.
    public func items(problem: (String) -> Void = { _ in }) throws -> [TrashItem] {
        let ids = try index.trashedIDsByName()
        var out: [TrashItem] = []
        for name in infoNames() {
            let info: TrashInfo
            do {
                info = try readInfo(name)
            } catch {
                problem("\(RecentlyDeleted.folderName)/info/\(name).trashinfo \(error)")
                continue
            }
            var st = stat()
            guard lstat(filePath(name), &st) == 0 else { continue }
            out.append(TrashItem(id: ids[name], name: name, originalPath: info.path, deletionDate: info.deletionDate,
                                 size: Int64(st.st_size), daysLeft: daysLeft(info.deletionDate)))
        }
        return out.sorted { ($0.deletionDate, $0.name) < ($1.deletionDate, $1.name) }
    }

    func daysLeft(_ deleted: Date) -> Int {
        let left = deleted.timeIntervalSince1970 + Double(retentionDays) * 86400 - now.timeIntervalSince1970
        return max(0, Int((left / 86400).rounded(.up)))
    }

    func isExpired(_ deleted: Date) -> Bool {
        now.timeIntervalSince1970 >= deleted.timeIntervalSince1970 + Double(retentionDays) * 86400
    }

    func readInfo(_ name: String) throws -> TrashInfo {
        let fd = open(infoPath(name), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw ShoeboxError(.io, "cannot be read: \(ShoeboxError.errnoText())") }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: TrashInfo.maximumSize + 1)
        var count = 0
        while count < buffer.count {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            count += n
        }
        return try TrashInfo.parse(Data(buffer[..<count]), root: library.root.path)
    }

    func infoNames() -> [String] {
        directoryNames(infoFolder).compactMap { $0.hasSuffix(".trashinfo") && $0.count > 10 ? String($0.dropLast(10)) : nil }.sorted()
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
        return out
    }

    // MARK: Purge

    public struct Purged: Sendable {
        public var id: AssetID?
        public var name: String
        public var originalPath: String
        public var size: Int64
    }

    /// Deletes the items whose time is up — the only code path in Shoebox that deletes an
    /// original. Each deletion is logged (`log` and `.shoebox/purge.log`).
    public func purge(failed: (String) -> Void) throws -> [Purged] {
        let expired = try items(problem: failed).filter { isExpired($0.deletionDate) }
        guard !expired.isEmpty else { return [] }
        var purged: [Purged] = []
        var forget: [AssetID] = []
        for item in expired {
            var st = stat()
            guard lstat(filePath(item.name), &st) == 0 else { continue }
            guard (st.st_mode & S_IFMT) == S_IFREG || (st.st_mode & S_IFMT) == S_IFLNK else {
                failed("\(RecentlyDeleted.displayName(item.name)) is a \(FileStat(st).typeName), not a file; left for you to delete")
                continue
            }
            let line = "purged \(RecentlyDeleted.displayName(item.name)) (\(item.size) bytes, was \(item.originalPath), deleted \(TrashInfo.formatLocal(item.deletionDate)))"
            guard unlink(filePath(item.name)) == 0 else {
                failed("\(RecentlyDeleted.displayName(item.name)): cannot delete it: \(ShoeboxError.errnoText())")
                continue
            }
            appendPurgeLog(line)
            log(line)
            unlink(infoPath(item.name))
            if let id = item.id { forget.append(id) }
            purged.append(Purged(id: item.id, name: item.name, originalPath: item.originalPath, size: item.size))
        }
        AtomicFile.syncDirectory(filesFolder)
        AtomicFile.syncDirectory(infoFolder)
        try self.forget(forget)
        if !forget.isEmpty { try Scanner(library: library, index: index, now: now).afterMembershipChange() }
        return purged
    }

    /// Assets whose files were purged: index rows, sidecars and album memberships go.
    func forget(_ ids: [AssetID]) throws {
        guard !ids.isEmpty else { return }
        // Sidecars first: a kill between the two leaves index rows without sidecars, which the
        // next reconcile finishes (or, not expired, records as missing with a sidecar again);
        // the other order would leave sidecars that nothing in the index claims, for good.
        for id in ids { unlink(library.sidecarURL(for: id).path) }
        AtomicFile.syncDirectory(library.sidecarFolder.path)
        try index.delete(ids)
        try UserAlbums(library: library).forget(Set(ids))
    }

    func appendPurgeLog(_ line: String) {
        let path = library.stateFolder.appendingPathComponent("purge.log").path
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let text = ShoeboxClock.localISO8601(Date()) + " " + line + "\n"
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        fsync(fd)
    }

    // MARK: Reconcile

    /// Brings the index in line with `Recently Deleted/` after a crash, another tool, or a user
    /// who dragged files in or out with a file manager. Returns whether anything changed.
    public struct Reconciled: Sendable {
        /// Assets whose files were put into `files/` by hand (or by a trash a crash interrupted).
        public var trashed: [(id: AssetID, path: String)] = []
        public var changed = false
    }

    @discardableResult
    public func reconcile() throws -> Reconciled {
        var result = Reconciled()
        let files = Set(directoryNames(filesFolder))
        let infos = Set(infoNames())
        // Info files may have to be written below: `info/` may be gone (deleted by hand or by a tool).
        if !files.isEmpty { try makeFolders() }
        var changed: [Asset] = []
        var forget: [AssetID] = []

        // An info file without its file: a trash interrupted before its move, a restore after
        // its move, or a file dragged back out. The specification calls it void.
        for name in infos.subtracting(files) {
            unlink(infoPath(name))
        }

        // Trashed assets whose file left `files/`: back in the library (the scan finds it by its
        // content, same id), or a purge that stopped half-way.
        var trashedByName: [String: Asset] = [:]
        for a in try index.assets(state: .trashed) {
            if let record = a.trash, files.contains(record.name), !infos.contains(record.name) {
                // Its .trashinfo was deleted (by hand, or by a tool): the index still knows what it said.
                let info = TrashInfo(path: a.path, deletionDate: record.deletedAt)
                try AtomicFile.write(Data(info.render().utf8), to: URL(fileURLWithPath: infoPath(record.name)))
                trashedByName[record.name] = a
                continue
            }
            guard let record = a.trash, files.contains(record.name) else {
                var st = stat()
                if lstat(library.url(for: a.path).path, &st) == 0, UInt64(st.st_ino) == a.inode, (st.st_mode & S_IFMT) == S_IFREG {
                    // A restore that stopped after its move: the file is back at its path.
                    var m = a
                    m.state = .present
                    m.trash = nil
                    changed.append(m)
                } else if let record = a.trash, isExpired(record.deletedAt) {
                    // A purge that stopped after deleting the file.
                    forget.append(a.id)
                } else {
                    // Dragged out of the trash somewhere: the scan finds it by content, same id.
                    var m = a
                    m.state = .missing
                    m.trash = nil
                    changed.append(m)
                }
                continue
            }
            trashedByName[record.name] = a
            // The .trashinfo is the truth about when it was deleted (a user or a tool may edit it).
            if let info = try? readInfo(record.name),
               Int64(info.deletionDate.timeIntervalSince1970) != Int64(record.deletedAt.timeIntervalSince1970) {
                var m = a
                m.trash?.deletedAt = info.deletionDate
                changed.append(m)
            }
        }

        // Files in the trash that no trashed asset claims: a trash interrupted after its move, or a
        // file dragged in by hand (then without an info file). Matched by inode to the asset that
        // was at the original path.
        // Several assets may name one inode: a missing asset keeps the inode its file had, and the
        // file system gives freed inodes to new files. Present ones first (their inodes are current),
        // then an exact mtime (a move keeps it), then any of the same size.
        var candidatesByInode: [UInt64: [Asset]] = [:]
        var loaded = false
        for name in files where trashedByName[name] == nil {
            var st = stat()
            guard lstat(filePath(name), &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
            if !loaded {
                for a in try index.assets(state: .present) + index.assets(state: .missing) { candidatesByInode[a.inode, default: []].append(a) }
                loaded = true
            }
            let inode = UInt64(st.st_ino)
            let candidates = (candidatesByInode[inode] ?? []).filter { c in
                guard c.size == Int64(st.st_size) else { return false }
                // The asset's own file is still in the library: this is a copy, not it.
                var here = stat()
                return !(c.state == .present && lstat(library.url(for: c.path).path, &here) == 0 && UInt64(here.st_ino) == inode)
            }
            let mtime = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
            guard var a = candidates.first(where: { $0.state == .present }) ?? candidates.first(where: { $0.mtimeNS == mtime })
                    ?? candidates.first else { continue }
            var deleted = now
            if infos.contains(name), let info = try? readInfo(name) {
                deleted = info.deletionDate
                if info.path != a.path {
                    // Another tool's idea of the original path (trash-cli writes it relative to the
                    // mount point, not to the folder that holds the trash): the index knows better.
                    try AtomicFile.write(Data(TrashInfo(path: a.path, deletionDate: deleted).render().utf8),
                                         to: URL(fileURLWithPath: infoPath(name)))
                }
            } else {
                // Dragged in by hand: write the info file the file manager did not.
                let info = TrashInfo(path: a.path, deletionDate: now)
                try AtomicFile.write(Data(info.render().utf8), to: URL(fileURLWithPath: infoPath(name)))
            }
            candidatesByInode[inode]?.removeAll { $0.id == a.id }
            a.state = .trashed
            a.trash = TrashRecord(name: name, deletedAt: Date(timeIntervalSince1970: deleted.timeIntervalSince1970.rounded(.down)))
            changed.append(a)
            result.trashed.append((a.id, a.path))
        }
        guard !changed.isEmpty || !forget.isEmpty else { return result }
        let scanner = Scanner(library: library, index: index, now: now)
        try scanner.commit(changed)
        try self.forget(forget)
        result.changed = true
        return result
    }
}

extension Index {
    func assets(state: AssetState) throws -> [Asset] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Index.columns) FROM asset WHERE state = ? ORDER BY path, id",
                             arguments: [state.rawValue]).map(Index.asset(from:))
        }
    }

    func liveVideoAssets(of id: AssetID) throws -> [Asset] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Index.columns) FROM asset WHERE live_photo_of = ? AND state = 'present'",
                             arguments: [id.rawValue]).map(Index.asset(from:))
        }
    }

    func trashedLiveVideoAssets(of id: AssetID) throws -> [Asset] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Index.columns) FROM asset WHERE live_photo_of = ? AND state = 'trashed'",
                             arguments: [id.rawValue]).map(Index.asset(from:))
        }
    }

    func trashedIDsByName() throws -> [String: AssetID] {
        try read { db in
            var out: [String: AssetID] = [:]
            for r in try Row.fetchAll(db, sql: "SELECT trash_name, id FROM asset WHERE state = 'trashed' AND trash_name IS NOT NULL") {
                out[r[0]] = AssetID(trusted: r[1])
            }
            return out
        }
    }
}
