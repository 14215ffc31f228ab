import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `.shoebox/journal.json`: the ids whose sidecars a batch is rewriting. Sidecars are written
/// before the index; if the process dies between the two, the journal says which index rows
/// to refresh from their sidecars, so the index never disagrees with the truth on disk.
struct ScanJournal {
    let library: Library
    var url: URL { library.stateFolder.appendingPathComponent(Self.name) }
    static let name = "journal.json"

    func begin(_ ids: [AssetID]) throws {
        let data = try JSONEncoder().encode(ids)
        try library.files.writeDurably([(data: data, name: Self.name)], inFolder: LibraryLayout.stateFolder)
    }

    func end() {
        try? library.files.removeFiles([Self.name], inFolder: LibraryLayout.stateFolder)
    }

    /// Replays an unfinished batch: each named sidecar that exists goes into the index as it is.
    ///
    /// A named sidecar whose bytes are not the batch's asset — not even JSON (empty, cut short,
    /// zeros), or another asset's whole sidecar (blocks a deleted one had, which ext4 without a
    /// journal can hand a new name after a power cut) — and whose id the index does not know is
    /// a new one a power cut caught before the batch's one flush (`AtomicFile.writeDurably`): it
    /// stands for nothing (its file is found again, as new, by the next scan) and is removed, or
    /// that file would get a second id beside it. Any other sidecar that cannot be read (a newer
    /// schema, one the index knows) is left for `doctor`.
    ///
    /// After a `kill -9` the batch's new sidecars may be whole in the page cache and not yet on
    /// disk (the one flush had not run): they are flushed before the index names them, as
    /// `AssetWriter.commit` does, or a power cut after the replay could take back a sidecar
    /// whose row the index holds.
    func recover(into index: Index, sidecars: SidecarStore) throws {
        guard let data = try? library.files.contents(of: LibraryLayout.statePath(Self.name)) else { return }
        let ids = (try? JSONDecoder().decode([AssetID].self, from: data)) ?? []
        var assets: [Asset] = []
        var notWritten: [AssetID] = []
        for id in ids {
            if let sidecar = try? sidecars.read(id) {
                if sidecar.asset.id == id { assets.append(sidecar.asset) } else { notWritten.append(id) }
            } else if let bytes = try? library.files.contents(of: SidecarStore.path(of: id)),
                      (try? JSONSerialization.jsonObject(with: bytes)) == nil {
                notWritten.append(id)
            }
        }
        let known = Set(try index.fileRecords(ids: notWritten).map(\.id))
        try library.files.removeFiles(notWritten.filter { !known.contains($0) }.map(SidecarStore.fileName(of:)),
                                      inFolder: LibraryLayout.sidecarsFolder)
        try library.files.syncFileSystem(of: LibraryLayout.sidecarsFolder)
        try index.save(assets)
        end()
    }
}
