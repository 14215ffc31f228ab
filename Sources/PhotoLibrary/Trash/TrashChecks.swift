import Foundation

/// `recently deleted`: each file of `Recently Deleted/files/` with its `.trashinfo`, and each
/// trashed asset with its file.
struct RecentlyDeletedCheck: DoctorCheck {
    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] {
        let library = context.library
        let trash = RecentlyDeleted(library: library, index: context.index,
                                    retentionDays: (try? LibrarySettings.load(library))?.trashRetentionDays ?? 30)
        let files = Set(directoryNames(trash.filesFolder))
        let infos = Set(trash.infoNames())
        let trashedAssets = try context.index.assets(state: .trashed)
        let claimed = Set(trashedAssets.compactMap { $0.trash?.name })
        let orphanInfos = infos.subtracting(files).count
        let lostAssets = trashedAssets.filter { !files.contains($0.trash?.name ?? "") }.count
        let foreign = files.subtracting(claimed).count
        var badInfo = 0
        for name in infos.intersection(files) where (try? trash.readInfo(name)) == nil { badInfo += 1 }
        if orphanInfos + lostAssets + badInfo == 0 {
            return [.ok("recently deleted", "\(claimed.count) items" + (foreign > 0 ? ", \(foreign) put there by other tools" : ""))]
        }
        return [.problem("recently deleted",
                         "\(orphanInfos) .trashinfo files without their file, \(lostAssets) trashed assets whose file is gone, \(badInfo) unreadable .trashinfo files",
                         fix: context.scanCommand)]
    }
}
