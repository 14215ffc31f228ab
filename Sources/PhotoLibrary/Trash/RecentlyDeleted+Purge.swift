import Foundation
#if canImport(Glibc)
import Glibc
#endif

// `purge`: deleting the items whose time is up, and forgetting their assets.

extension RecentlyDeleted {
    /// One item deleted for good.
    public struct Purged: Sendable {
        public var id: AssetID?
        public var name: String
        /// Nil when nothing said where it came from in the library.
        public var originalPath: String?
        public var size: Int64
    }

    /// Deletes the items whose time is up — the only code path in Shoebox that deletes an
    /// original. Each deletion is logged (`log` and `.shoebox/purge.log`).
    public func purge(failed: (ShoeboxError) -> Void) throws -> [Purged] {
        let expired = try items(problem: { failed(ShoeboxError(.io, $0)) }).filter { isExpired($0.deletionDate) }
        guard !expired.isEmpty else { return [] }
        var purged: [Purged] = []
        var forget: [AssetID] = []
        for item in expired where deleteForGood(item, failed: failed) {
            if let id = item.id { forget.append(id) }
            purged.append(Purged(id: item.id, name: item.name, originalPath: item.originalPath, size: item.size))
        }
        library.files.syncFolder("\(RecentlyDeleted.folderName)/files")
        library.files.syncFolder("\(RecentlyDeleted.folderName)/info")
        try self.forget(forget)
        if !forget.isEmpty { try syncAlbums() }
        return purged
    }

    /// Deletes one item's file, logs it, then deletes its info file. Returns whether it did;
    /// anything but a file or a link is left for the user.
    func deleteForGood(_ item: TrashItem, failed: (ShoeboxError) -> Void) -> Bool {
        let shown = displayPath(RecentlyDeleted.displayName(item.name))
        let st: FileStat
        do {
            guard let found = try library.files.lstat(RecentlyDeleted.fileRelative(item.name)) else { return false }
            st = found
        } catch {
            failed(ShoeboxError(about: "\(shown)", error))
            return false
        }
        guard st.isRegular || st.isSymbolicLink else {
            failed(ShoeboxError(.invalidArgument, "\(shown) is a \(st.typeName), not a file; left for you to delete"))
            return false
        }
        // Every name escaped: a `Path=` holding a newline must not forge a line of the log.
        let was = item.originalPath ?? item.statedPath.map { "\($0) by its .trashinfo" } ?? "from an unknown place"
        let line = "purged \(shown) (\(item.size) bytes, was \(displayPath(was)), deleted \(TrashInfo.formatLocal(item.deletionDate)))"
        do {
            // Deleted only if it is still the file that was trashed: a Shoebox item by the
            // index's record, another tool's by what was just looked at.
            let record = try item.id.flatMap { try index.asset(id: $0) }
            let known = record.map { LibraryFiles.KnownFile(inode: $0.inode, size: $0.size, mtimeNS: $0.mtimeNS) }
                ?? LibraryFiles.KnownFile(inode: st.inode, size: st.size, mtimeNS: st.mtimeNS)
            try library.files.remove(RecentlyDeleted.fileRelative(item.name), expecting: known)
        } catch {
            failed(ShoeboxError(about: "\(shown): cannot delete it", error))
            return false
        }
        appendPurgeLog(line)
        log(line)
        try? library.files.remove(RecentlyDeleted.infoRelative(item.name))
        return true
    }

    /// Assets whose files were purged: index rows, sidecars and album memberships go.
    func forget(_ ids: [AssetID]) throws {
        guard !ids.isEmpty else { return }
        // A kill inside `forget` leaves index rows without sidecars, which the next reconcile
        // finishes (or, not expired, records as missing with a sidecar again).
        try writer.forget(ids)
        try UserAlbums(library: library).forget(Set(ids))
    }

    /// `.shoebox/purge.log`: one line a deletion, flushed before the next.
    func appendPurgeLog(_ line: String) {
        // Never through a link (it would append to whatever it points at); one line per entry:
        // the names in `line` are escaped, so a `Path=` holding a newline cannot forge a line.
        guard let fd = try? library.files.open(".shoebox/purge.log", O_WRONLY | O_CREAT | O_APPEND) else { return }
        defer { close(fd) }
        let text = ShoeboxClock.localISO8601(Date()) + " " + line + "\n"
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        fsync(fd)
    }
}
