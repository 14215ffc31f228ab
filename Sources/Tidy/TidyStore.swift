import Foundation
import PhotoLibrary

/// Where a session lives: `.shoebox/tidy.json` (the state) and `.shoebox/tidy-<session>.list`
/// (its frozen items), read and written through the library's confined files (no link
/// followed), each replaced whole (`AtomicFile`). A new session writes its list first, then the
/// state naming it, then removes the old list: a kill leaves the old session or the new one.
package struct TidyStore: Sendable {
    package static let statePath = LibraryLayout.statePath("tidy.json")
    /// Far more than a session writes (`TidyState.undoDepth` changes, a done `empty` without its
    /// marks: under a megabyte unless its groups are huge; an `empty` in progress holds ~25,000
    /// marks); a larger file is refused as damaged instead of costing seconds and hundreds of
    /// MB on every tidy command (reading this much still takes ~0.5 s).
    static let stateLimit = 8 << 20

    let library: Library
    package init(library: Library) { self.library = library }

    static func listName(_ session: String) -> String { "tidy-\(session).list" }
    static func listPath(_ session: String) -> String { LibraryLayout.statePath(listName(session)) }

    /// The session on disk, or nil when none was started.
    package func loadState() throws -> TidyState? {
        guard let data = try read(Self.statePath, limit: Self.stateLimit) else { return nil }
        return try TidyState.decode(data)
    }

    /// The list `state` goes through, checked against it.
    package func loadList(of state: TidyState) throws -> TidyList {
        let path = Self.listPath(state.session)
        guard let data = try read(path, limit: TidyList.maximumBytes) else {
            throw TidyError.damaged(path, "the session's list is missing")
        }
        guard let list = TidyList(data), list.session == state.session else {
            throw TidyError.damaged(path, "not a list Shoebox wrote for session \(state.session)")
        }
        guard list.count == state.items else {
            throw TidyError.damaged(path, "\(list.count) items where the session counts \(state.items)")
        }
        return list
    }

    package func save(_ state: TidyState) throws {
        try library.files.writeAtomically(state.encoded(), to: Self.statePath)
    }

    /// Starts `state` with its `items`: the list first, then the state, then the old list goes.
    func start(_ state: TidyState, items: [TidyItem]) throws {
        try library.files.writeAtomically(TidyList.encode(items, session: state.session), to: Self.listPath(state.session))
        try save(state)
        removeLeftoverLists(keeping: state.session)
    }

    /// Lists of sessions no state names (a replaced session's, or a kill's leftover).
    func removeLeftoverLists(keeping session: String) {
        var stale: [String] = []
        _ = try? library.files.forEachEntry(in: LibraryLayout.stateFolder) { entry, _ in
            if let name = entry.name, name.hasPrefix("tidy-"), name.hasSuffix(".list"), name != Self.listName(session) {
                stale.append(name)
            }
        }
        try? library.files.removeFiles(stale, inFolder: LibraryLayout.stateFolder)
    }

    private func read(_ path: String, limit: Int) throws -> Data? {
        do {
            return try library.files.contents(of: path, limit: limit)
        } catch let e as ShoeboxError where e.code == .io || e.code == .unsafeLayout {
            throw TidyError.damaged(path, e.message.replacingOccurrences(of: library.root.path + "/", with: ""))
        }
    }
}
