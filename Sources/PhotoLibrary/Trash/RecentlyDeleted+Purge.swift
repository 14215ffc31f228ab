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
        for item in expired where deleteForGood(item, failed: failed) {
            if let id = item.id { forget.append(id) }
            purged.append(Purged(id: item.id, name: item.name, originalPath: item.originalPath, size: item.size))
        }
        AtomicFile.syncDirectory(filesFolder)
        AtomicFile.syncDirectory(infoFolder)
        try self.forget(forget)
        if !forget.isEmpty { try writer.afterChange() }
        return purged
    }

    /// Deletes one item's file, logs it, then deletes its info file. Returns whether it did;
    /// anything but a file or a link is left for the user.
    func deleteForGood(_ item: TrashItem, failed: (String) -> Void) -> Bool {
        guard let st = FileStat.lstat(filePath(item.name)) else { return false }
        guard st.isRegular || st.isSymbolicLink else {
            failed("\(RecentlyDeleted.displayName(item.name)) is a \(st.typeName), not a file; left for you to delete")
            return false
        }
        let line = "purged \(RecentlyDeleted.displayName(item.name)) (\(item.size) bytes, was \(item.originalPath), deleted \(TrashInfo.formatLocal(item.deletionDate)))"
        guard unlink(filePath(item.name)) == 0 else {
            failed("\(RecentlyDeleted.displayName(item.name)): cannot delete it: \(ShoeboxError.errnoText())")
            return false
        }
        appendPurgeLog(line)
        log(line)
        unlink(infoPath(item.name))
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
        let path = library.stateFolder.appendingPathComponent("purge.log").path
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let text = ShoeboxClock.localISO8601(Date()) + " " + line + "\n"
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        fsync(fd)
    }
}
