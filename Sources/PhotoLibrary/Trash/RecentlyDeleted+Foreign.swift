import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Items other tools put into `Recently Deleted/` (trash-cli's `trash-put --trash-dir`, a file
// manager, a script): where their `.trashinfo` says they came from, and putting them back.

extension RecentlyDeleted {
    /// Where a `Path=` another tool wrote puts the file in the library, or why it does not (one
    /// line, the path escaped). The specification takes a relative path as relative to the
    /// folder that holds the trash — the library; trash-cli takes it as relative to the mount
    /// point that holds it, and writes an absolute one when that is `/`. An absolute path counts
    /// when it is inside the library; a relative one that starts with the library's folder as
    /// seen from its mount point is read trash-cli's way, unless only the library-relative
    /// reading names a folder that exists.
    func placeForeign(_ path: String) -> (path: String?, problem: String?) {
        if path.hasPrefix("/") {
            guard let placed = try? TrashInfo.place(path, roots: roots) else {
                return (nil, "its .trashinfo names \(displayPath(path)), outside the library; Shoebox restores only into the library")
            }
            return (placed, nil)
        }
        let prefix = mountPrefix
        if !prefix.isEmpty, path.hasPrefix(prefix + "/") {
            let stripped = String(path.dropFirst(prefix.count + 1))
            if LibraryPath.isValid(stripped), folderExists(LibraryPath.parent(stripped)) || !folderExists(LibraryPath.parent(path)) {
                return (stripped, nil)
            }
        }
        guard LibraryPath.isValid(path) else {
            return (nil, "its .trashinfo names \(displayPath(path)), which is not a plain path inside the library")
        }
        return (path, nil)
    }

    /// The library's folder relative to the mount point that holds it ("" when it is the top of
    /// its file system): the nearest folder up whose device differs from its parent's.
    var mountPrefix: String {
        let root = roots.last ?? library.root.path
        var path = root
        while path != "/" && !path.isEmpty {
            var st = stat(), parent = stat()
            let up = (path as NSString).deletingLastPathComponent
            guard stat(path, &st) == 0, stat(up, &parent) == 0 else { return "" }
            if st.st_dev != parent.st_dev { break }
            path = up
        }
        if path == root { return "" }
        return String(root.dropFirst(path == "/" ? 1 : path.count + 1))
    }

    private func folderExists(_ relative: String) -> Bool {
        relative.isEmpty || ((try? library.files.lstat(relative))??.isDirectory ?? false)
    }

    /// Puts back items another tool put here, at the path their `.trashinfo` names inside the
    /// library — as `restore` does Shoebox's own (never over a file, a folder that is gone made
    /// again) — then indexes them as `watch` indexes an arrival (a photo whose content the
    /// index knows as missing gets its id back). An item that cannot say where it came from is
    /// reported through `failed` with why, and left where it is.
    public func restoreForeign(_ items: [TrashItem], failed: (ShoeboxError) -> Void) throws -> [Restored] {
        var back: [(path: String, note: String?, isFolder: Bool, name: String)] = []
        for item in items {
            let shown = displayPath(RecentlyDeleted.displayName(item.name))
            guard let original = item.originalPath, item.problem == nil else {
                failed(ShoeboxError(.invalidArgument, "\(shown) cannot be restored: \(item.problem ?? "nothing says where it came from"); to keep it, move it out of \(RecentlyDeleted.folderName)/files/ by hand"))
                continue
            }
            do {
                let isFolder = try library.files.lstat(RecentlyDeleted.fileRelative(item.name))?.isDirectory ?? false
                let (path, note) = try putBack(item.name, to: original)
                back.append((path, note, isFolder, item.name))
            } catch {
                failed(ShoeboxError(about: "\(shown)", error))
            }
        }
        guard !back.isEmpty else { return [] }
        try AtomicFile.syncFileSystem(containing: library.root.path)
        for b in back { try? library.files.remove(RecentlyDeleted.infoRelative(b.name)) }
        AtomicFile.syncDirectory(infoFolder)
        var options = LiveUpdater.Options()
        options.trashRetentionDays = retentionDays
        let report = try LiveUpdater(library: library, index: index, options: options)
            .apply(back.map { $0.isFolder ? .folderArrived($0.path) : .arrived($0.path) })
        var ids: [String: AssetID] = [:]
        for entry in report.entries {
            switch entry {
            case .added(let id, let path), .updated(let id, let path), .returned(let id, let path, _): ids[path] = id
            default: break
            }
        }
        return back.map { Restored(id: ids[$0.path], path: $0.path, note: $0.note) }
    }
}
