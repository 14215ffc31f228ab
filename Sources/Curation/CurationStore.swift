import Foundation
import PhotoLibrary

/// Where the curation list lives: `.shoebox/curation.json`, read and written through the
/// library's confined files (no link followed), replaced whole (`AtomicFile`: a kill leaves the
/// old list or the new one, never half of one).
package struct CurationStore: Sendable {
    package static let path = LibraryLayout.statePath("curation.json")
    /// Far more than 100,000 ids take: a bigger file is not one Shoebox wrote.
    static let limit = 8 << 20

    let library: Library
    package init(library: Library) { self.library = library }

    /// The list on disk (empty when there is none yet).
    package func load() throws -> CurationState {
        let data: Data?
        do {
            data = try library.files.contents(of: Self.path, limit: Self.limit)
        } catch let e as ShoeboxError where e.code == .io || e.code == .unsafeLayout {
            throw CurationError.damaged(e.message.replacingOccurrences(of: library.root.path + "/", with: ""))
        }
        guard let data else { return CurationState() }
        return try CurationState.decode(data)
    }

    package func save(_ state: CurationState) throws {
        if state.isEmpty { return try erase() }
        try library.files.writeAtomically(state.encoded(), to: Self.path)
    }

    /// No list any more (`clear`): the file goes, whatever it held.
    package func erase() throws {
        try library.files.removeFiles(["curation.json"], inFolder: LibraryLayout.stateFolder)
    }
}
