import Foundation
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// `curate album`: a user album of every photo in the list, in score order, called as the
/// brief says — "TO NAME yyyy-MM-dd HH.mm.ss" in local time (`$SHOEBOX_NOW` honoured) — with
/// " (2)", " (3)"… when that name is taken. Made by the library's album machinery (the one
/// writer of `Albums/`), so it is an ordinary user album afterwards: `album show|add|delete`.
public enum CurationAlbum {
    /// The brief's name prefix, kept as written: the user renames the album to what it holds.
    public static let prefix = "TO NAME "

    /// "TO NAME 2026-11-22 10.15.03" for `date` in the machine's local time.
    public static func name(at date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var tm = tm()
        localtime_r(&t, &tm)
        return prefix + String(format: "%04d-%02d-%02d %02d.%02d.%02d", Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1,
                               Int(tm.tm_mday), Int(tm.tm_hour), Int(tm.tm_min), Int(tm.tm_sec))
    }

    /// Makes the album (the caller holds the writer lock) and returns it as its folder shows it.
    package static func create(_ entries: [CurationEntry], library: Library, index: Index,
                              now: Date = ShoeboxClock.now()) throws -> (AlbumFolder, AlbumSyncReport) {
        guard !entries.isEmpty else { throw CurationError.emptyList }
        let linker = AlbumLinker(library: library, index: index)
        let (album, report) = try linker.createNumbered(base: name(at: now), ids: entries.map(\.asset.id), now: now)
        return (try linker.find(album.name), report)
    }
}
