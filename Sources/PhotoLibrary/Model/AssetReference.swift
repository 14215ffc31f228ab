import Foundation
import GRDB

extension Index {
    /// Finds the asset a user means by `reference`: a full id, a unique id prefix (at least four
    /// characters, as `git` takes commit prefixes), or a path — relative to the library, or to
    /// the current folder, or absolute.
    /// `preferring` picks, among assets that lived at the same path, one in that state (`restore
    /// 2024/IMG_0412.HEIC` means the trashed one even when a new file took its place).
    public func resolve(_ reference: String, preferring state: AssetState? = nil,
                        currentDirectory: String = FileManager.default.currentDirectoryPath) throws -> Asset {
        if let id = AssetID(reference), let asset = try asset(id: id) { return asset }
        let absolute = reference.hasPrefix("/") ? URL(fileURLWithPath: reference)
            : URL(fileURLWithPath: currentDirectory, isDirectory: true).appendingPathComponent(reference)
        let relative = library.relativePath(of: absolute)
        for path in [reference, relative].compactMap({ $0 }) {
            if let state, let asset = try asset(path: path, state: state) { return asset }
        }
        if let asset = try asset(path: reference) { return asset }
        if let rel = relative, let asset = try asset(path: rel) { return asset }
        if AssetID.isPrefixCandidate(reference) {
            let matches = try assets(idPrefix: reference)
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 {
                throw ShoeboxError(.ambiguous, "\(reference) matches several assets (\(matches.prefix(3).map { $0.id.rawValue.prefix(12) + "…" }.joined(separator: ", "))); give more of the id")
            }
        }
        throw ShoeboxError(.notFound, "no asset \(displayPath(reference)) in \(library.root.path) (not an id or an indexed path)", remedy: LibraryRemedy.scanIfNew)
    }
}

extension Index {
    func asset(path: String, state: AssetState) throws -> Asset? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT \(Index.columns) FROM asset WHERE path = ? AND state = ? ORDER BY first_seen DESC LIMIT 1",
                             arguments: [path, state.rawValue]).map(Index.asset(from:))
        }
    }
}
