import Foundation

extension Index {
    /// Finds the asset a user means by `reference`: a full id, a unique id prefix (at least four
    /// characters, as `git` takes commit prefixes), or a path — relative to the library, or to
    /// the current folder, or absolute.
    public func resolve(_ reference: String, currentDirectory: String = FileManager.default.currentDirectoryPath) throws -> Asset {
        if let id = AssetID(reference), let asset = try asset(id: id) { return asset }
        if let asset = try asset(path: reference) { return asset }
        let absolute = reference.hasPrefix("/") ? URL(fileURLWithPath: reference)
            : URL(fileURLWithPath: currentDirectory, isDirectory: true).appendingPathComponent(reference)
        if let rel = library.relativePath(of: absolute), let asset = try asset(path: rel) { return asset }
        if AssetID.isPrefixCandidate(reference) {
            let matches = try assets(idPrefix: reference)
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 {
                throw ShoeboxError(.ambiguous, "\(reference) matches several assets (\(matches.prefix(3).map { $0.id.rawValue.prefix(12) + "…" }.joined(separator: ", "))); give more of the id")
            }
        }
        throw ShoeboxError(.notFound, "no asset \(displayPath(reference)) in \(library.root.path) (not an id or an indexed path; run `shoebox scan` if it is new)")
    }
}
