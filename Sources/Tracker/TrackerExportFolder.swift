import CSystem
import Foundation
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// The folder `tracker export -o DIR` writes into: outside the library (inside, the export
/// would sit among the user's photos), made when missing (its parent must exist), and written
/// only by `*at` calls on its descriptor. No file there is replaced and no link followed: every
/// name is checked free first, each file is written whole under a hidden temporary name and
/// renamed into place without replacing; a failure removes what this export wrote.
struct TrackerExportFolder {
    let path: String
    let library: Library

    /// Writes `files` into the folder; returns their absolute paths.
    func write(_ files: [(name: String, data: Data)]) throws -> [String] {
        let dir = try open()
        defer { close(dir) }
        for f in files {
            var st = stat()
            if fstatat(dir, f.name, &st, AT_SYMLINK_NOFOLLOW) == 0 {
                throw ShoeboxError(.alreadyExists, "\(path)/\(f.name) already exists; nothing was exported (choose an empty folder, or move it away)")
            }
        }
        var written: [String] = []
        do {
            for f in files {
                try put(f.data, named: f.name, in: dir)
                written.append(f.name)
            }
            fsync(dir)
        } catch {
            for name in written { unlinkat(dir, name, 0) }
            fsync(dir)
            throw error
        }
        return files.map { path + "/" + $0.name }
    }

    /// The folder opened (made when missing), refused when it is the library or inside it.
    private func open() throws -> Int32 {
        try OutsideFolder.open(path, library: library, inside: {
            ShoeboxError(.invalidArgument, "\($0) is inside the library; export to a folder outside \(library.root.path)")
        }, failure: failure)
    }

    /// `data` as `name` in `dir`: a hidden temporary written and flushed, then renamed into
    /// place only if the name is still free.
    private func put(_ data: Data, named name: String, in dir: Int32) throws {
        let temporary = ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = openat(dir, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(path + "/" + name, errno) }
        var placed = false
        defer {
            close(fd)
            if !placed { unlinkat(dir, temporary, 0) }
        }
        try data.withUnsafeBytes { buf in
            var done = 0
            while done < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + done, buf.count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw failure(path + "/" + name, n < 0 ? errno : ENOSPC) }
                done += n
            }
        }
        guard fsync(fd) == 0 else { throw failure(path + "/" + name, errno) }
        guard shoebox_renameat_noreplace(dir, temporary, dir, name) == 0 else { throw failure(path + "/" + name, errno) }
        placed = true
    }

    private func failure(_ what: String, _ e: Int32) -> ShoeboxError {
        switch e {
        case ENOSPC, EDQUOT: return ShoeboxError(.noSpace, "\(what): the disk is full; nothing was exported")
        case EEXIST: return ShoeboxError(.alreadyExists, "\(what) already exists; nothing was exported")
        case EACCES, EPERM, EROFS: return ShoeboxError(.unreadable, "\(what): \(String(cString: strerror(e))); export to a folder you can write")
        default: return ShoeboxError(.io, "\(what): \(String(cString: strerror(e))); nothing was exported")
        }
    }
}

extension Tracker {
    /// Writes an export of everything (or of `project`) into `folder` (absolute, outside the
    /// library); returns the paths written and what the export holds.
    public func export(project: String?, format: TrackerExport.Format, to folder: String) throws -> (files: [String], data: TrackerData) {
        let selected = try TrackerExport.selection(try read(), project: project)
        let files: [(name: String, data: Data)] = format == .json
            ? [("tracker.json", TrackerExport.json(selected, library: library, at: TrackerClock.now()))]
            : TrackerExport.csv(selected)
        return (try TrackerExportFolder(path: folder, library: library).write(files), selected)
    }
}
