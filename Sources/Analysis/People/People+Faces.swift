import Foundation
import PhotoLibrary

extension People {
    /// One face of a person, with what a page needs to draw it from the asset's thumbnail.
    public struct Face: Sendable {
        public var key: FaceKey
        public var box: DetectedFace
        /// The asset's content hash (its thumbnail's version).
        public var sha256: String
        /// The photo's path in the library.
        public var path: String = ""
    }

    /// The faces of `person` (an id such as `p3`) in present assets, largest first; 404-worthy
    /// `notFound` when the person has none.
    public static func faces(of person: String, in session: LibrarySession) throws -> (Person, [Face]) {
        try session.read { index in
            guard let found = try list(index: index).first(where: { $0.id == person }) else {
                throw ShoeboxError(.notFound, "no person \(person)", remedy: LibraryRemedy.listPeople)
            }
            let assets = try assetsWithFaces(index).filter { $0.state == .present }
            let hashes = Dictionary(assets.map { ($0.id, $0.sha256) }, uniquingKeysWith: { a, _ in a })
            let paths = Dictionary(assets.map { ($0.id, $0.path) }, uniquingKeysWith: { a, _ in a })
            let book = PeopleBook(assets: assets)
            let all = book.allFaces
            let faces = book.faces(of: person).compactMap { key -> Face? in
                guard let box = all[key], let sha = hashes[key.assetID] else { return nil }
                return Face(key: key, box: box, sha256: sha, path: paths[key.assetID] ?? "")
            }
            return (found, faces.sorted { $0.box.w * $0.box.h != $1.box.w * $1.box.h ? $0.box.w * $0.box.h > $1.box.w * $1.box.h : $0.key < $1.key })
        }
    }
}
