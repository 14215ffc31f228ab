import Foundation

extension RecentlyDeleted {
    /// The trashed assets and the other tools' items `references` name, for `restore`: a name in
    /// `files/` (with or without `Recently Deleted/files/`), an id, or an original path. One
    /// error naming the first reference that is none of these.
    public func restoreTargets(_ references: [String]) throws -> (assets: [Asset], foreign: [TrashItem]) {
        let listed = try items()
        let byName = Dictionary(listed.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let prefix = RecentlyDeleted.folderName + "/files/"
        var assets: [Asset] = []
        var foreign: [TrashItem] = []
        for ref in references {
            let name = ref.hasPrefix(prefix) ? String(ref.dropFirst(prefix.count)) : ref
            let item = byName[name] ?? listed.first { $0.id == nil && $0.originalPath == ref }
            if let item, item.id == nil {
                foreign.append(item)
            } else if let id = item?.id, let asset = try index.asset(id: id) {
                assets.append(asset)
            } else {
                assets.append(try index.resolve(ref, preferring: .trashed))
            }
        }
        return (assets, foreign)
    }
}

extension LibrarySession {
    /// Recently Deleted as it is (read without the writer lock); `problem` hears of items that
    /// cannot be listed whole.
    public func trashItems(problem: (String) -> Void = { _ in }) throws -> [TrashItem] {
        try RecentlyDeleted(library: library, index: index, retentionDays: try settings.trashRetentionDays, writer: writer)
            .items(problem: problem)
    }
}
