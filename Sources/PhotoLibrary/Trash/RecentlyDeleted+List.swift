import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One item of `Recently Deleted/` (`trash list`).
public struct TrashItem: Sendable {
    /// The asset it is; nil for a file another tool put there.
    public var id: AssetID?
    /// Its name in `files/` (what `restore NAME` takes).
    public var name: String
    /// Where it came from, relative to the library; nil when nothing says (its `.trashinfo`
    /// cannot be read, is missing, or names a place outside the library).
    public var originalPath: String?
    public var deletionDate: Date
    public var size: Int64
    public var daysLeft: Int
    /// Why `restore` cannot put it back (one line); nil when it can.
    public var problem: String?
    /// The `Path=` its `.trashinfo` states, decoded, when there is one (for the purge log).
    var statedPath: String?
}

extension RecentlyDeleted {
    /// Every file in `files/`, oldest deletion first. A trashed asset's item says what the index
    /// knows of it (its path), whatever its `.trashinfo` says; another tool's item what its
    /// `.trashinfo` says — or, when that says nothing usable, why (`problem`), dated by the info
    /// file or the file itself so that it is still purged in its time. `problem` hears of an
    /// asset's `.trashinfo` that cannot be read (the next writing command writes it again).
    public func items(problem: (String) -> Void = { _ in }) throws -> [TrashItem] {
        var trashed: [String: Asset] = [:]
        for a in try index.assets(state: .trashed) { if let name = a.trash?.name { trashed[name] = a } }
        var out: [TrashItem] = []
        for name in directoryNames(filesFolder) {
            guard let st = FileStat.lstat(filePath(name)) else { continue }
            if let asset = trashed[name] {
                out.append(ownItem(asset, name: name, st, problem: problem))
            } else {
                out.append(foreignItem(name, st))
            }
        }
        return out.sorted { ($0.deletionDate, $0.name) < ($1.deletionDate, $1.name) }
    }

    /// A trashed asset's item: where it came from as the index knows it; when as its
    /// `.trashinfo` says (a user or a tool may edit it), else as the index recorded.
    func ownItem(_ a: Asset, name: String, _ st: FileStat, problem: (String) -> Void) -> TrashItem {
        var date = a.trash?.deletedAt ?? now
        if FileStat.lstat(infoPath(name)) != nil {
            do { date = try readStated(name).deletionDate } catch {
                problem("\(RecentlyDeleted.infoRelative(displayPath(name))) \(error); the index knows where it came from (the next scan writes it again)")
            }
        }
        return TrashItem(id: a.id, name: name, originalPath: a.path, deletionDate: date, size: st.size,
                         daysLeft: daysLeft(date), problem: nil, statedPath: nil)
    }

    /// Another tool's item (or one whose asset the index no longer has).
    func foreignItem(_ name: String, _ st: FileStat) -> TrashItem {
        var item = TrashItem(id: nil, name: name, originalPath: nil, deletionDate: now, size: st.size, daysLeft: 0)
        if FileStat.lstat(infoPath(name)) == nil {
            // Nothing says when: the rename into files/ set the file's status-change time.
            item.deletionDate = RecentlyDeleted.changeTime(filePath(name)) ?? now
            item.problem = "it has no .trashinfo, so nothing says where it came from"
        } else {
            do {
                let stated = try readStated(name)
                item.deletionDate = stated.deletionDate
                item.statedPath = stated.path
                (item.originalPath, item.problem) = placeForeign(stated.path)
            } catch {
                item.deletionDate = RecentlyDeleted.changeTime(infoPath(name)) ?? now
                item.problem = "its .trashinfo \(error), so nothing says where it came from"
            }
        }
        item.daysLeft = daysLeft(item.deletionDate)
        return item
    }

    /// `st_ctime`, the last change of the file's status (a rename sets it).
    static func changeTime(_ path: String) -> Date? {
        var st = stat()
        guard Glibc.lstat(path, &st) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(st.st_ctim.tv_sec))
    }
}
