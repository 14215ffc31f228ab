import Foundation

/// One item of `Recently Deleted/` (`trash list`).
public struct TrashItem: Sendable {
    /// The asset it is; nil for a file another tool put there.
    public var id: AssetID?
    /// Its name in `files/` (what `restore NAME` takes).
    public var name: String
    public var originalPath: String
    public var deletionDate: Date
    public var size: Int64
    public var daysLeft: Int
}

extension RecentlyDeleted {
    /// Every item with a readable info file and its file, oldest deletion first.
    public func items(problem: (String) -> Void = { _ in }) throws -> [TrashItem] {
        let ids = try index.trashedIDsByName()
        var out: [TrashItem] = []
        for name in infoNames() {
            let info: TrashInfo
            do {
                info = try readInfo(name)
            } catch {
                problem("\(RecentlyDeleted.folderName)/info/\(name).trashinfo \(error)")
                continue
            }
            guard let st = FileStat.lstat(filePath(name)) else { continue }
            out.append(TrashItem(id: ids[name], name: name, originalPath: info.path, deletionDate: info.deletionDate,
                                 size: st.size, daysLeft: daysLeft(info.deletionDate)))
        }
        return out.sorted { ($0.deletionDate, $0.name) < ($1.deletionDate, $1.name) }
    }
}
