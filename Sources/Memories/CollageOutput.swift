import Foundation
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// Where a collage goes: into the library's `Collages/` (`--save`; indexed there like any
/// photo) or to a file outside the library (`-o`). Nothing is ever replaced, a link at the
/// name is never followed, and a kill leaves the old state or the whole file (`AtomicFile.create`).
public struct CollageOutput {
    let library: Library
    let index: Index
    let now: Date

    package init(library: Library, index: Index, now: Date = ShoeboxClock.now()) {
        self.library = library
        self.index = index
        self.now = now
    }

    /// Saves into `Collages/` as "<source> yyyy-MM-dd HH.mm.ss.jpg" (local time; " (2)"… when
    /// taken) and indexes it through the core (`LiveUpdater`, as the watcher would). The caller
    /// holds the writer lock (`Memories.save` runs it inside a session write). Returns the
    /// library path and the new asset's id.
    package func save(_ collage: Collage) throws -> (path: String, id: AssetID) {
        let folder = LibraryLayout.collagesFolder
        // A saver killed before its rename left a hidden temporary: clear those of dead writers.
        _ = try? library.files.withFolder(folder, creating: true) { AtomicFile.removeTemporariesOfDeadWriters(inFolder: $0) }
        let base = Self.fileStem(collage.source, at: now)
        for n in 1...1000 {
            let path = folder + "/" + base + (n == 1 ? "" : " (\(n))") + ".jpg"
            guard try library.files.create(Data(collage.jpeg), at: path) else { continue }
            let report = try LiveUpdater(library: library, index: index).apply([.arrived(path)])
            // The asset at the path now: a new one, or — when the library knew these bytes in a
            // trashed or missing asset (the same collage saved, then deleted) — that asset come
            // back, as any file dropped in would. Only `.added` was looked for: saving the same
            // collage again after deleting it answered "written but not indexed" (bench/faults.py).
            if let asset = try index.asset(path: path), asset.state == .present { return (path, asset.id) }
            let why = report.failed.first.map { "\($0)" } ?? "the scan did not add it"
            throw ShoeboxError(.io, "\(path) was written but not indexed (\(why))", remedy: LibraryRemedy.scan)
        }
        throw ShoeboxError(.alreadyExists, "\(folder)/\(base).jpg and 999 numbered names exist; nothing was saved")
    }

    /// "Ana 2026-11-22 10.15.03": the source (no "/", no leading dot) and the local time.
    static func fileStem(_ source: MemorySource, at date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var tm = tm()
        localtime_r(&t, &tm)
        let stamp = String(format: "%04d-%02d-%02d %02d.%02d.%02d", Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1,
                           Int(tm.tm_mday), Int(tm.tm_hour), Int(tm.tm_min), Int(tm.tm_sec))
        var label = String(source.label.map { $0 == "/" || $0.isNewline || $0 == "\0" ? "-" : $0 }.prefix(100))
        while label.hasPrefix(".") { label.removeFirst() }
        return (label.isEmpty ? "Memory" : label) + " " + stamp
    }

    /// Writes the collage to `path` outside the library: refused when something (a file, a
    /// link) is there already, and inside the library (that is what `--save` is for). The
    /// folder is opened and checked once (`OutsideFolder`) and the file created relative to it,
    /// so a folder swapped for a link into the library meanwhile never gets the collage.
    public static func write(_ collage: Collage, to path: String, library: Library) throws {
        let (folder, name) = try OutsideFolder.holding(path, library: library, inside: {
            ShoeboxError(.invalidArgument, "\($0) is inside the library: use --save to put a collage there (it is then indexed)")
        })
        var st = stat()
        if fstatat(folder.fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 {
            let type = st.st_mode & S_IFMT
            if type == S_IFDIR { throw ShoeboxError(.invalidArgument, "\(path) is a folder: -o takes a file name (e.g. \(path)/memory.jpg)") }
            let what = type == S_IFLNK ? "a symbolic link" : "a file"
            throw ShoeboxError(.alreadyExists, "\(path) is \(what) already; nothing was replaced (choose another name)")
        }
        guard try folder.create(Data(collage.jpeg), named: name) else {
            throw ShoeboxError(.alreadyExists, "\(path) appeared meanwhile; nothing was replaced")
        }
    }
}
