import Foundation

// `reconcile`: the index brought in line with what `Recently Deleted/` holds.

extension RecentlyDeleted {
    /// What `reconcile` found and changed.
    public struct Reconciled: Sendable {
        /// Assets whose files were put into `files/` by hand (or by a trash a crash interrupted).
        public var trashed: [(id: AssetID, path: String)] = []
        public var changed = false
    }

    /// Brings the index in line with `Recently Deleted/` after a crash, another tool, or a user
    /// who dragged files in or out with a file manager.
    @discardableResult
    public func reconcile() throws -> Reconciled {
        var result = Reconciled()
        let files = Set(directoryNames(filesFolder))
        let infos = Set(infoNames())
        // Info files may have to be written below: `info/` may be gone (deleted by hand or by a tool).
        if !files.isEmpty { try makeFolders() }
        var changed: [Asset] = []
        var forget: [AssetID] = []

        removeInfosWithoutFiles(infos.subtracting(files))
        let trashedByName = try reconcileTrashedAssets(files: files, infos: infos, changed: &changed, forget: &forget)
        result.trashed = try adoptUnclaimedFiles(files.filter { trashedByName[$0] == nil }.sorted(), infos: infos,
                                                 changed: &changed)
        guard !changed.isEmpty || !forget.isEmpty else { return result }
        try writer.commit(changed)
        try self.forget(forget)
        result.changed = true
        return result
    }

    /// An info file without its file: a trash interrupted before its move, a restore after its
    /// move, or a file dragged back out. The specification calls it void.
    func removeInfosWithoutFiles(_ names: Set<String>) {
        for name in names { try? library.files.remove(RecentlyDeleted.infoRelative(name)) }
    }

    /// Each trashed asset against `files/` and `info/`. Returns those whose file is there, by name.
    func reconcileTrashedAssets(files: Set<String>, infos: Set<String>, changed: inout [Asset],
                                forget: inout [AssetID]) throws -> [String: Asset] {
        var trashedByName: [String: Asset] = [:]
        for a in try index.assets(state: .trashed) {
            guard let record = a.trash, files.contains(record.name) else {
                settleTrashedAssetWithoutFile(a, changed: &changed, forget: &forget)
                continue
            }
            trashedByName[record.name] = a
            guard infos.contains(record.name), let info = try? readInfo(record.name) else {
                // Its .trashinfo was deleted or damaged (by hand, or by a tool): the index still
                // knows what it said, and other tools need it to list the file.
                try writeInfo(TrashInfo(path: a.path, deletionDate: record.deletedAt), as: record.name)
                continue
            }
            if Int64(info.deletionDate.timeIntervalSince1970) != Int64(record.deletedAt.timeIntervalSince1970) {
                // The .trashinfo is the truth about when it was deleted (a user or a tool may edit it).
                var m = a
                m.trash?.deletedAt = info.deletionDate
                changed.append(m)
            }
        }
        return trashedByName
    }

    /// A trashed asset whose file left `files/`: back in the library, a purge that stopped
    /// half-way, or dragged out somewhere else.
    func settleTrashedAssetWithoutFile(_ a: Asset, changed: inout [Asset], forget: inout [AssetID]) {
        if let st = FileStat.lstat(library.url(for: a.path).path), st.inode == a.inode, st.isRegular {
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
    }

    /// Files in the trash that no trashed asset claims: a trash interrupted after its move, or a
    /// file dragged in by hand (then without an info file). Each is matched by inode to the asset
    /// that was at its original path, which becomes trashed. Returns those assets.
    func adoptUnclaimedFiles(_ names: [String], infos: Set<String>,
                             changed: inout [Asset]) throws -> [(id: AssetID, path: String)] {
        var adopted: [(id: AssetID, path: String)] = []
        var candidatesByInode: [UInt64: [Asset]]? = nil
        for name in names {
            guard let st = FileStat.lstat(filePath(name)), st.isRegular else { continue }
            if candidatesByInode == nil {
                candidatesByInode = [:]
                for a in try index.assets(state: .present) + index.assets(state: .missing) { candidatesByInode![a.inode, default: []].append(a) }
            }
            guard var a = owner(of: st, among: candidatesByInode![st.inode] ?? []) else { continue }
            let deleted = try deletionDateOfAdopted(name, originalPath: a.path, hasInfo: infos.contains(name))
            candidatesByInode![st.inode]?.removeAll { $0.id == a.id }
            a.state = .trashed
            a.trash = TrashRecord(name: name, deletedAt: Date(timeIntervalSince1970: deleted.timeIntervalSince1970.rounded(.down)))
            changed.append(a)
            adopted.append((a.id, a.path))
        }
        return adopted
    }

    /// The asset a file in the trash is, among those that name its inode. Several may: a missing
    /// asset keeps the inode its file had, and the file system gives freed inodes to new files.
    /// Present ones first (their inodes are current), then an exact mtime (a move keeps it),
    /// then any of the same size.
    func owner(of file: FileStat, among candidates: [Asset]) -> Asset? {
        let sameFile = candidates.filter { c in
            guard c.size == file.size else { return false }
            // The asset's own file is still in the library: this is a copy, not it.
            return !(c.state == .present && FileStat.lstat(library.url(for: c.path).path)?.inode == file.inode)
        }
        return sameFile.first(where: { $0.state == .present }) ?? sameFile.first(where: { $0.mtimeNS == file.mtimeNS })
            ?? sameFile.first
    }

    /// When an adopted file was deleted: its info file says, else now. Writes the info file
    /// that a file manager did not, or corrects the path another tool wrote.
    func deletionDateOfAdopted(_ name: String, originalPath: String, hasInfo: Bool) throws -> Date {
        if hasInfo, let info = try? readInfo(name) {
            if info.path != originalPath {
                // Another tool's idea of the original path (trash-cli writes it relative to the
                // mount point, not to the folder that holds the trash): the index knows better.
                try writeInfo(TrashInfo(path: originalPath, deletionDate: info.deletionDate), as: name)
            }
            return info.deletionDate
        }
        // Dragged in by hand: write the info file the file manager did not.
        try writeInfo(TrashInfo(path: originalPath, deletionDate: now), as: name)
        return now
    }
}

extension RecentlyDeleted {
    /// `reconcile`, unless nothing it looks at changed since the last one: `files/` and `info/`
    /// (an item moved in or out, by Shoebox, another tool or a file manager, changes the folder's
    /// modification time) and the index (its generation). A session runs this before every change,
    /// so a swipe in Tidy costs a few `lstat`s instead of reading every `.trashinfo`; a scan still
    /// reconciles in full (a `.trashinfo` edited in place is seen there). True when the reconcile
    /// changed the index.
    @discardableResult
    public func reconcileIfChanged() throws -> Bool {
        let key = "trash_reconciled_at"
        let stamp = { [self] in
            let folders = ["files", "info"].map { (try? library.files.lstat("\(RecentlyDeleted.folderName)/\($0)")) ?? nil }
            return folders.map { $0.map { "\($0.inode).\($0.mtimeNS)" } ?? "-" }.joined(separator: ":") + ":" + (try index.generation())
        }
        if try index.meta(key) == stamp() { return false }
        let changed = try reconcile().changed
        try index.setMeta(key, try stamp())
        return changed
    }
}
