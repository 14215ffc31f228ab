import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// SQLite's failures on the index, said so that the user knows what to do. The index is a cache
/// of the sidecars, so the answer to a damaged one is always `rebuild` (which keeps every id):
/// "SQLite error 11" alone left people with a library they thought was lost.
enum IndexDamage {
    /// What every command says of a damaged index (the words scripts and tests look for); the
    /// remedy is `LibraryRemedy.rebuild`, which each front end words.
    static let advice = "the index is damaged"

    /// The error to report for `error`, met opening, reading or writing the index at `url`: one
    /// line naming the file and the way out when SQLite says the file is damaged or its
    /// write-ahead log went away; nil for other failures (the caller words those).
    static func diagnose(_ error: any Error, index url: URL, library: Library) -> ShoeboxError? {
        guard let db = error as? DatabaseError else { return nil }
        switch db.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return damaged(url, reason: db.message ?? "\(db.resultCode)")
        case .SQLITE_IOERR where walLostFrames(url):
            return walDeleted(url, library: library)
        default:
            return nil
        }
    }

    static func damaged(_ url: URL, reason: String) -> ShoeboxError {
        ShoeboxError(.indexDamaged, "\(url.path): \(advice) (SQLite: \(reason))", remedy: LibraryRemedy.rebuild)
    }

    /// A `-wal` deleted (or cut short) while a process held the index open: that process goes on
    /// writing into the deleted file, and every other one reads a shared-memory index promising
    /// frames the new, empty `-wal` lacks ("disk I/O error"). What was written meanwhile is in the
    /// sidecars, so once that process has stopped a rebuild brings it back. `inThisProcess`: said
    /// by the process that holds it (`watch`, which stops).
    static func walDeleted(_ url: URL, library: Library, inThisProcess: Bool = false) -> ShoeboxError {
        if inThisProcess {
            return ShoeboxError(.indexDamaged, "\(url.path)-wal was deleted while this process had the index open; stopping: nothing more can be written where other processes read",
                                remedy: LibraryRemedy.rebuildThenRestart)
        }
        let holder = library.lockHolder
        return ShoeboxError(.indexDamaged, "\(url.path)-wal was deleted while a Shoebox process had the index open"
            + (holder.isEmpty ? "" : " (the last to write: \(holder))")
            , remedy: LibraryRemedy.stopWriterThenRebuild)
    }

    /// Whether the shared-memory index (`-shm`) says the write-ahead log holds more frames than
    /// the `-wal` file has: the header's `mxFrame` (offset 16, native byte order, after the
    /// version, an unused word, the change counter, two flag bytes and the page size).
    static func walLostFrames(_ url: URL) -> Bool {
        guard let shm = FileHandle(forReadingAtPath: url.path + "-shm") else { return false }
        defer { try? shm.close() }
        guard let header = try? shm.read(upToCount: 24), header.count == 24 else { return false }
        let word = { (at: Int) in header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) } }
        let isInit = header[12] != 0
        let pageCode = Int(header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 14, as: UInt16.self) })
        let pageSize = pageCode == 1 ? 65536 : pageCode
        let frames = Int(word(16))
        guard isInit, frames > 0, pageSize >= 512 else { return false }
        let walSize = FileStat.lstat(url.path + "-wal")?.size ?? 0
        return walSize < Int64(32 + frames * (24 + pageSize))
    }

    /// Whether this process holds the index's `-wal` open after it was deleted (`/proc/self/fd`
    /// names such a file "… (deleted)"): everything it writes from then on is lost to the others.
    static func holdsDeletedWAL(_ url: URL) -> Bool {
        let wanted = url.path + "-wal (deleted)"
        for fd in directoryNames("/proc/self/fd") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink("/proc/self/fd/" + fd, &buffer, buffer.count - 1)
            guard n > 0 else { continue }
            if String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) == wanted { return true }
        }
        return false
    }
}

extension Index {
    /// `PRAGMA quick_check`: every page of the index readable and well formed (`doctor`; a
    /// command that happens not to read a damaged page would not notice it).
    func checkIntegrity() throws {
        let result = try read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(3)") }
        guard result == ["ok"] else {
            // "*** in database main ***\nPage 4: btreeInitPage() returns error code 11\n…": one line.
            let lines = result.flatMap { $0.split(separator: "\n") }.filter { !$0.hasPrefix("***") }
            throw IndexDamage.damaged(library.indexURL, reason: lines.prefix(2).joined(separator: "; "))
        }
    }

    /// Throws when the index's `-wal` was deleted while this process had it open (`watch` asks
    /// before each batch: it would go on writing where no other process can read).
    public func checkWALNotDeleted() throws {
        // SQLite opened it by the library folder's real path (`ConfinedSQLite`): /proc names it so.
        guard IndexDamage.holdsDeletedWAL(URL(fileURLWithPath: sqlitePath)) else { return }
        throw IndexDamage.walDeleted(library.indexURL, library: library, inThisProcess: true)
    }
}
