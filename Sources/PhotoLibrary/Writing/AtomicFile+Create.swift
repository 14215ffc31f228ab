import CShoeboxSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// New files that never replace anything (a saved collage, an exported image): written whole
/// under a hidden temporary name, flushed, then given their name by `renameat2(RENAME_NOREPLACE)`,
/// which fails instead of replacing whatever holds the name — a file, or a link planted there,
/// which is never followed. A kill leaves at most a hidden `.NAME.PID.RANDOM.tmp`
/// (`removeTemporariesOfDeadWriters` clears it), never half a file under the name.
extension AtomicFile {
    /// Creates `name` in the open folder `folderFD` holding `data`, durable on return. False when
    /// the name is taken (nothing is written there).
    public static func create(_ data: Data, named name: String, inFolder folderFD: Int32, shownAs folder: String) throws -> Bool {
        let temporary = try Temporary(name, in: folderFD, shownAs: folder, holding: data)
        defer { temporary.discard() }
        try temporary.flushData()
        guard try temporary.renameNoReplace() else { return false }
        fsync(folderFD)
        return true
    }

    /// `create` of the file at `url`, outside a library (its folder is followed as given; the
    /// name itself never is).
    public static func create(_ data: Data, at url: URL) throws -> Bool {
        let folder = url.deletingLastPathComponent().path
        return try withFolder(folder) { try create(data, named: url.lastPathComponent, inFolder: $0, shownAs: folder) }
    }
}

extension AtomicFile.Temporary {
    /// Puts the temporary in the target's place unless something has that name: false then
    /// (the temporary stays, for `discard`).
    func renameNoReplace() throws -> Bool {
        if shoebox_renameat_noreplace(folderFD, temporaryName, folderFD, name) == 0 {
            markRenamed()
            return true
        }
        if errno == EEXIST { return false }
        throw failed()
    }
}

extension LibraryFiles {
    /// Creates the file `relative` holding `data` (its folders made when missing, none reached
    /// through a link), never replacing anything: false when the name is taken.
    public func create(_ data: Data, at relative: String) throws -> Bool {
        try withFolder(LibraryPath.parent(relative), creating: true) { folder in
            try AtomicFile.create(data, named: LibraryPath.leaf(relative), inFolder: folder, shownAs: shown(LibraryPath.parent(relative)))
        }
    }
}
