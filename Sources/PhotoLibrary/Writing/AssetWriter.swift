import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The library's one write path for asset records. A scan, a live update, a trash or restore, a
/// grouping pass and a feature setting its own field all change assets through `commit`:
/// the batch is journaled, the sidecars (the truth) are written durably, then the index (a cache)
/// in one transaction, then the journal is cleared. A crash between any two steps is repaired by
/// `recoverUnfinishedBatch`, which `LibrarySession.write` runs first and which every `commit`
/// runs before it starts its own journal: no caller can overwrite a killed batch's replay record.
///
/// The caller holds the library's writer lock (`LibraryLock`) while it writes.
public final class AssetWriter {
    public let library: Library
    public let index: Index
    let sidecars: SidecarStore
    private let journal: ScanJournal
    /// Called with every batch after it is in the index, and with every forgotten id, for
    /// in-memory views that follow the index (the live updater's `KnownFiles`).
    var didCommit: (([Asset]) -> Void)?
    var didForget: (([AssetID]) -> Void)?
    /// The index's generation after this writer's last write: when the index still has it, no
    /// other process wrote since, and views that followed this writer are current. Nil when
    /// another process had written just before this writer's last write (a view that followed
    /// only this writer's commits would miss that one: it must read the index again).
    private(set) var generationAfterLastWrite: String?

    package init(library: Library, index: Index) {
        self.library = library
        self.index = index
        self.sidecars = SidecarStore(library: library)
        self.journal = ScanJournal(library: library)
    }

    /// Writes `assets` as one durable batch: journal, sidecars, index, end of journal.
    public func commit(_ assets: [Asset]) throws {
        guard !assets.isEmpty else { return }
        // A journal still there is a batch a kill interrupted (this writer ends its own): replayed
        // before this batch's journal replaces it.
        try recoverUnfinishedBatch()
        let before = try index.generation()
        try journal.begin(assets.map(\.id))
        try sidecars.writeBatch(assets, journaled: true)
        try index.save(assets)
        journal.end()
        noteOwnWrite(after: before)
        didCommit?(assets)
    }

    /// Changes the assets with these ids through `change` and commits those that changed.
    /// Returns the changed assets. Unknown ids are skipped.
    @discardableResult
    public func update(_ ids: [AssetID], _ change: (inout Asset) throws -> Void) throws -> [Asset] {
        var changed: [Asset] = []
        for id in ids {
            guard var asset = try index.asset(id: id) else { continue }
            let before = asset
            try change(&asset)
            if asset != before { changed.append(asset) }
        }
        try commit(changed)
        return changed
    }

    /// Sets (or, with nil, removes) one feature's fields on an asset: the way a feature module
    /// stores per-asset data (see `FeatureFields`). Returns false when the asset is unknown.
    @discardableResult
    public func setFeature<Value: Codable>(_ feature: String, _ value: Value?, on id: AssetID) throws -> Bool {
        try !update([id]) { asset in try asset.features.set(feature, value) }.isEmpty
            || index.asset(id: id) != nil
    }

    /// Stores records in a feature's own table (see `FeatureTable`), replacing those with the same keys.
    public func put<Value: Codable & Sendable>(_ records: [FeatureRecord<Value>], in table: FeatureTable) throws {
        guard !records.isEmpty else { return }
        try index.putRecords(records, in: table, now: ShoeboxClock.now())
    }

    /// Removes records from a feature's own table; unknown keys are ignored.
    public func remove(_ keys: [String], from table: FeatureTable) throws {
        guard !keys.isEmpty else { return }
        try index.removeRecords(keys, in: table)
    }

    /// Forgets assets for good (a purged trash item): sidecars, then index rows. A kill between
    /// the two leaves index rows without sidecars, which the next trash reconcile finishes; the
    /// other order would leave sidecars that nothing in the index claims, for good.
    func forget(_ ids: [AssetID]) throws {
        guard !ids.isEmpty else { return }
        try library.files.removeFiles(ids.map(SidecarStore.fileName(of:)), inFolder: LibraryLayout.sidecarsFolder)
        let before = try index.generation()
        try index.delete(ids)
        noteOwnWrite(after: before)
        // A cache: what a failure here leaves is only disk space, which `cache clear` returns.
        try? ThumbnailStore(library: library).removeAll(of: ids)
        didForget?(ids)
    }

    /// Keeps `generationAfterLastWrite` only while this writer's writes follow each other with
    /// nobody else's between (e.g. the watcher's background analysis storing results after a
    /// `shoebox trash` from the command line).
    private func noteOwnWrite(after before: String) {
        let after = try? index.generation()
        generationAfterLastWrite = before == generationAfterLastWrite ? after : nil
    }

    /// A view that follows this writer (the live updater's file records) was just read whole from
    /// the index at `generation`: from there on, this writer's own commits keep it current.
    func viewRead(atGeneration generation: String) {
        generationAfterLastWrite = generation
    }

    /// Replays a batch a crash interrupted: every sidecar the journal names goes into the index as it is.
    public func recoverUnfinishedBatch() throws {
        try journal.recover(into: index, sidecars: sidecars)
    }
}
