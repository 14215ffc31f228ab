import Foundation
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// The folder `tracker export -o DIR` writes into: outside the library (inside, the export
/// would sit among the user's photos), made when missing (its parent must exist), and written
/// only relative to its descriptor (`OutsideFolder`). No file there is replaced and no link
/// followed: every name is checked free first, each file is written whole under a hidden
/// temporary name and renamed into place without replacing. A failure leaves the folder as it
/// was: what this export wrote goes, and the folder too when the export made it.
struct TrackerExportFolder {
    let path: String
    let library: Library

    /// Writes `files` into the folder; returns their absolute paths.
    func write(_ files: [(name: String, data: Data)]) throws -> [String] {
        let folder = try OutsideFolder.make(path, library: library, inside: {
            ShoeboxError(.invalidArgument, "\($0) is inside the library; export to a folder outside \(library.root.path)")
        }, failure: failure)
        do {
            for f in files where folder.holds(f.name) {
                throw ShoeboxError(.alreadyExists, "\(path)/\(f.name) already exists; nothing was exported (choose an empty folder, or move it away)")
            }
            for f in files {
                guard try folder.create(f.data, named: f.name) else { throw failure(path + "/" + f.name, EEXIST) }
            }
            try folder.sync()
        } catch {
            folder.undo()
            throw error
        }
        return files.map { path + "/" + $0.name }
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
        let (files, selected) = try exportFiles(project: project, format: format)
        return (try TrackerExportFolder(path: folder, library: library).write(files), selected)
    }

    /// The files an export of everything (or of `project`) holds, named as `export` writes them
    /// (`tracker.json`, or one CSV per entity), for a front end that hands them over itself (the
    /// web app's download), with what the export holds.
    public func exportFiles(project: String?, format: TrackerExport.Format) throws -> (files: [(name: String, data: Data)], data: TrackerData) {
        let selected = try TrackerExport.selection(try read(), project: project)
        let files: [(name: String, data: Data)] = format == .json
            ? [("tracker.json", TrackerExport.json(selected, library: library, at: TrackerClock.now()))]
            : TrackerExport.csv(selected)
        return (files, selected)
    }
}
