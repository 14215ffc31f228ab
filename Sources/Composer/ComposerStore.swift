import Foundation
import PhotoLibrary

/// Where the draft lives: `.shoebox/composer.json`, read and written through the library's
/// confined files (no link followed), replaced whole (`AtomicFile`: a kill leaves the old draft
/// or the new one, never half of one).
public struct ComposerStore: Sendable {
    public static let path = LibraryLayout.statePath("composer.json")
    /// Four ids take a few hundred bytes: a bigger file is not one Shoebox wrote.
    static let limit = 64 << 10

    let library: Library
    public init(library: Library) { self.library = library }

    /// The draft on disk (empty when there is none yet).
    public func load() throws -> ComposerDraft {
        let data: Data?
        do {
            data = try library.files.contents(of: Self.path, limit: Self.limit)
        } catch let e as ShoeboxError where e.code == .io || e.code == .unsafeLayout {
            throw ComposerError.damaged(e.message.replacingOccurrences(of: library.root.path + "/", with: ""))
        }
        guard let data else { return ComposerDraft() }
        return try ComposerDraft.decode(data)
    }

    /// Writes `draft` (an empty one removes the file).
    public func save(_ draft: ComposerDraft) throws {
        if draft.isEmpty { return try erase() }
        try library.files.writeAtomically(draft.encoded(), to: Self.path)
    }

    /// No draft any more (`clear`, a finished export): the file goes, whatever it held.
    public func erase() throws {
        try library.files.removeFiles(["composer.json"], inFolder: LibraryLayout.stateFolder)
    }
}
