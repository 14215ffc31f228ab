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
    func recover(into index: Index, sidecars: SidecarStore) throws {
        guard let data = try? library.files.contents(of: LibraryLayout.stateFolder + "/" + Self.name) else { return }
        let ids = (try? JSONDecoder().decode([AssetID].self, from: data)) ?? []
        var assets: [Asset] = []
        for id in ids {
            if let sidecar = try? sidecars.read(id) { assets.append(sidecar.asset) }
        }
        try index.save(assets)
        end()
    }
}
