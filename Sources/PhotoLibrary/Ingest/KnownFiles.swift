import Foundation

/// The index's file records in memory, by id, path and content: what ingest needs to decide what
/// a freshly read file is — the same asset edited, one moved or returning, or a new one — without
/// a query per file. The scanner builds one per scan; the live updater keeps one between batches
/// and follows its own commits, reloading when another process wrote the index.
struct KnownFiles {
    typealias Record = Index.FileRecord

    private(set) var byID: [AssetID: Record] = [:]
    private(set) var presentByPath: [String: AssetID] = [:]
    /// Every known asset with this content, most recently first seen first (then by id).
    private(set) var bySHA: [String: [AssetID]] = [:]

    init(_ records: [Record]) {
        byID.reserveCapacity(records.count)
        presentByPath.reserveCapacity(records.count)
        for r in records { insert(r) }
        for (sha, ids) in bySHA where ids.count > 1 { bySHA[sha] = newestFirst(ids) }
    }

    func present(at path: String) -> Record? { presentByPath[path].flatMap { byID[$0] } }

    /// Follows a committed batch: each asset's record replaces the one it had.
    mutating func update(with assets: [Asset]) {
        var touchedSHAs = Set<String>()
        for a in assets {
            remove(a.id)
            let r = Record(id: a.id, path: a.path, state: a.state, size: a.size, mtimeNS: a.mtimeNS, inode: a.inode,
                           sha256: a.sha256, firstSeen: a.firstSeen.timeIntervalSince1970)
            insert(r)
            touchedSHAs.insert(r.sha256)
        }
        for sha in touchedSHAs { if let ids = bySHA[sha], ids.count > 1 { bySHA[sha] = newestFirst(ids) } }
    }

    /// Assets forgotten for good (purged).
    mutating func forget(_ ids: [AssetID]) { ids.forEach { remove($0) } }

    private mutating func insert(_ r: Record) {
        byID[r.id] = r
        if r.state == .present { presentByPath[r.path] = r.id }
        bySHA[r.sha256, default: []].append(r.id)
    }

    private mutating func remove(_ id: AssetID) {
        guard let old = byID.removeValue(forKey: id) else { return }
        if presentByPath[old.path] == id { presentByPath[old.path] = nil }
        bySHA[old.sha256]?.removeAll { $0 == id }
        if bySHA[old.sha256]?.isEmpty == true { bySHA[old.sha256] = nil }
    }

    private func newestFirst(_ ids: [AssetID]) -> [AssetID] {
        ids.sorted { a, b in
            let fa = byID[a]?.firstSeen ?? 0, fb = byID[b]?.firstSeen ?? 0
            return fa != fb ? fa > fb : a.rawValue < b.rawValue
        }
    }
}

/// What a freshly read file is, decided from `KnownFiles` by the rules scan and watch share.
enum FileIdentity: Equatable {
    /// The asset at this path, with this content or edited in place: same id.
    case samePath(AssetID, edited: Bool)
    /// An asset whose file is gone, found again here by its content.
    case found(AssetID, was: Whereabouts)
    /// Content never seen (or every match already claimed): a new asset.
    case new

    /// Where a found asset was.
    enum Whereabouts: Equatable {
        /// Present in the index, but its file is no longer at its path: moved.
        case vanished
        /// Missing: its content came back.
        case missing
        /// In Recently Deleted: dragged back out.
        case trashed
    }

    /// Decides what the file at `path` with content `sha256` is.
    /// - `isGone`: whether a present record's file is no longer at its path.
    /// - `claimed`: assets already given a file in this run.
    /// - Returns the identity, and the asset at `path` that another file displaced (moved over
    ///   it), which becomes missing.
    static func resolve(path: String, sha256: String, in known: KnownFiles, claimed: Set<AssetID>,
                        allowTrashed: Bool, isGone: (Index.FileRecord) -> Bool) -> (FileIdentity, displaced: AssetID?) {
        let candidates = (known.bySHA[sha256] ?? []).compactMap { known.byID[$0] }.filter { !claimed.contains($0.id) }
        let vanished = candidates.first { $0.state == .present && $0.path != path && isGone($0) }
        var displaced: AssetID?
        if let here = known.present(at: path), !claimed.contains(here.id) {
            // Same path: an edit in place (or only a touch) keeps the id — unless the new content
            // is that of a file that vanished meanwhile: then that file was moved over this one.
            guard here.sha256 != sha256, vanished != nil else {
                return (.samePath(here.id, edited: here.sha256 != sha256), nil)
            }
            displaced = here.id
        }
        if let v = vanished { return (.found(v.id, was: .vanished), displaced) }
        if let m = candidates.first(where: { $0.state == .missing }) { return (.found(m.id, was: .missing), displaced) }
        if allowTrashed, let t = candidates.first(where: { $0.state == .trashed }) { return (.found(t.id, was: .trashed), displaced) }
        return (.new, displaced)
    }
}
