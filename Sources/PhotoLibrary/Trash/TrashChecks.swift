import Foundation

/// `recently deleted`: each file of `Recently Deleted/files/` with its `.trashinfo`, and each
/// trashed asset with its file. What a scan puts right (its reconcile) is a problem with the scan
/// as fix; items that cannot say where they came from, which only the user can place, a warning.
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
        // An asset's .trashinfo the reconcile writes again from the index.
        let badInfo = infos.intersection(claimed).filter { (try? trash.readInfo($0)) == nil }.count
        let stuck = try trash.items().filter { $0.problem != nil }
        let foreign = files.subtracting(claimed).count
        if orphanInfos + lostAssets + badInfo > 0 {
            return [.problem("recently deleted",
                             "\(orphanInfos) .trashinfo files without their file, \(lostAssets) trashed assets whose file is gone, \(badInfo) unreadable .trashinfo files"
                                + (stuck.isEmpty ? "" : "; \(Self.describe(stuck))"),
                             fix: context.scanCommand)]
        }
        if !stuck.isEmpty {
            return [.warning("recently deleted", Self.describe(stuck) + "; they are purged in their time like the others",
                             fix: keepCommand(stuck, library: library, scan: context.scanCommand))]
        }
        return [.ok("recently deleted", counted(claimed.count, "item") + (foreign > 0 ? ", \(foreign) put there by other tools" : ""))]
    }

    static func describe(_ stuck: [TrashItem]) -> String {
        "\(stuck.count) item\(stuck.count == 1 ? "" : "s") `restore` cannot put back: "
            + stuck.prefix(3).map { "\(displayPath($0.name)): \($0.problem ?? "")" }.joined(separator: "; ")
            + (stuck.count > 3 ? "; …" : "")
    }

    /// To keep them: each moved to the library's top folder (never over a file), then the scan
    /// that indexes them and clears their `.trashinfo` files.
    private func keepCommand(_ stuck: [TrashItem], library: Library, scan: String) -> String {
        let files = stuck.map { shellQuote(library.root.path + "/" + RecentlyDeleted.fileRelative($0.name)) }
        return "mv -n -t \(shellQuote(library.root.path)) -- \(files.joined(separator: " ")) && \(scan)"
    }
}
