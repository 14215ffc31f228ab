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
    /// A named sidecar that is not even JSON (empty, cut short, zeros) and whose asset the index
    /// does not know is a new one a power cut caught before the batch's one flush
    /// (`AtomicFile.writeDurably`): it stands for nothing (its file is found again, as new, by
    /// the next scan) and is removed, or that file would get a second id beside it. Any other
    /// sidecar that cannot be read (a newer schema, one the index knows) is left for `doctor`.
    func recover(into index: Index, sidecars: SidecarStore) throws {
        guard let data = try? library.files.contents(of: LibraryLayout.stateFolder + "/" + Self.name) else { return }
        let ids = (try? JSONDecoder().decode([AssetID].self, from: data)) ?? []
        var assets: [Asset] = []
        var torn: [AssetID] = []
        for id in ids {
            if let sidecar = try? sidecars.read(id) {
                assets.append(sidecar.asset)
            } else if let bytes = try? library.files.contents(of: SidecarStore.path(of: id)),
                      (try? JSONSerialization.jsonObject(with: bytes)) == nil {
                torn.append(id)
            }
        }
        let known = Set(try index.fileRecords(ids: torn).map(\.id))
        try library.files.removeFiles(torn.filter { !known.contains($0) }.map(SidecarStore.fileName(of:)),
                                      inFolder: LibraryLayout.sidecarsFolder)
        try index.save(assets)
        end()
    }
}
