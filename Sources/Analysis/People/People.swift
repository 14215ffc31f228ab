import Foundation
import PhotoLibrary

/// The people of the library (`shoebox people …`): faces the analysis grouped by person, named
/// by the user or the files' XMP. Every change goes through the writer into the sidecars — the
/// names live there, never in the photos — and the index, and the People albums follow.
///
/// Front ends call the entry points on a session (`People.list(session)`, `name`, `merge`,
/// `forget`): reads take no lock, changes run inside `session.write`.
public struct People {
    /// One person as `people list` shows it.
    public struct Person: Sendable {
        public var id: String
        public var name: String?
        /// Present photos (and videos) in which the person's face was found.
        public var photoCount: Int
        public var faceCount: Int
        /// The person's largest face in a present photo: the one to show.
        public var representative: FaceKey
        public var representativeBox: DetectedFace
    }

    let writer: AssetWriter

    /// People changed through `writer`; the caller holds the writer lock.
    package init(writer: AssetWriter) { self.writer = writer }

    // MARK: Entry points

    /// `people list`: every person with at least one face in a present asset, most photos first.
    public static func list(_ session: LibrarySession) throws -> [Person] {
        try session.read { try list(index: $0) }
    }

    /// `people name`: see `name(_:as:)`.
    public static func name(_ target: String, as newName: String, in session: LibrarySession) throws -> Person {
        try session.write { try People(writer: $0.writer).name(target, as: newName) }
    }

    /// `people merge`: see `merge(_:_:)`.
    public static func merge(_ target: String, _ other: String, in session: LibrarySession) throws -> Person {
        try session.write { try People(writer: $0.writer).merge(target, other) }
    }

    /// `people forget`: see `forget(_:)`.
    public static func forget(_ face: String, in session: LibrarySession) throws -> FaceKey {
        try session.write { try People(writer: $0.writer).forget(face) }
    }

    // MARK: Changes, with the lock held

    /// Every person with at least one face in a present asset, most photos first.
    package static func list(index: Index) throws -> [Person] {
        let assets = try assetsWithFaces(index)
        let present = Set(assets.filter { $0.state == .present }.map(\.id))
        let book = PeopleBook(assets: assets)
        var out: [Person] = []
        for person in book.persons {
            let keys = book.faces(of: person).filter { present.contains($0.assetID) }
            guard !keys.isEmpty else { continue }
            let faces = book.allFaces
            let best = keys.max { a, b in
                let fa = faces[a]!, fb = faces[b]!
                return fa.w * fa.h != fb.w * fb.h ? fa.w * fa.h < fb.w * fb.h : a > b
            }!
            let name = book.names(of: [person])[person] ?? nil
            out.append(Person(id: person, name: name, photoCount: Set(keys.map(\.assetID)).count,
                              faceCount: keys.count, representative: best, representativeBox: faces[best]!))
        }
        return out.sorted { $0.photoCount != $1.photoCount ? $0.photoCount > $1.photoCount : $0.id < $1.id }
    }

    /// Names a person (`p3`, or a person's present name) or the person of a face (`<asset id>#n`).
    /// A face not in a person yet (its descriptor was missing) becomes a person of its own.
    package func name(_ target: String, as newName: String) throws -> Person {
        let name = newName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, !name.contains("/"), name.count <= 200 else {
            throw ShoeboxError(.invalidArgument, "a person's name must be non-empty, at most 200 characters and without \"/\": \(newName.debugDescription)")
        }
        var book = PeopleBook(assets: try Self.assetsWithFaces(writer.index))
        let person = try resolvePerson(target, in: &book)
        try rewrite(persons: [person], in: book) { face in
            guard face.person == person else { return }
            face.name = name
            face.nameSource = .user
        }
        return try Self.list(index: writer.index).first { $0.id == person }
            ?? { throw ShoeboxError(.notFound, "person \(person) has no face in a present photo") }()
    }

    /// Moves every face of `other` into `person`; the merged person keeps `person`'s name, or
    /// takes `other`'s when it had none.
    package func merge(_ target: String, _ other: String) throws -> Person {
        var book = PeopleBook(assets: try Self.assetsWithFaces(writer.index))
        let a = try resolvePerson(target, in: &book), b = try resolvePerson(other, in: &book)
        guard a != b else { throw ShoeboxError(.invalidArgument, "\(target) and \(other) are the same person (\(a))") }
        let names = book.names(of: [a, b])
        let keptName = (names[a] ?? nil) ?? (names[b] ?? nil)
        try rewrite(persons: [a, b], in: book) { face in
            guard face.person == a || face.person == b else { return }
            if face.person == b { face.placed = true }  // the user said so: it stays with A
            face.person = a
            // The merged person is explicitly what A was called (or B, when A had no name).
            if let keptName { face.name = keptName; face.nameSource = .user }
        }
        return try Self.list(index: writer.index).first { $0.id == a }
            ?? { throw ShoeboxError(.notFound, "person \(a) has no face in a present photo") }()
    }

    /// Takes a face out of its person for good: not a person the user wants (a poster, a
    /// stranger, a false detection). It is never put into a person or named again.
    package func forget(_ face: String) throws -> FaceKey {
        let book = PeopleBook(assets: try Self.assetsWithFaces(writer.index))
        let key = try Self.resolveFace(face, in: book)
        let person = book.allFaces[key]?.person
        _ = try writer.update([key.assetID]) { asset in
            guard var analysis = asset.analysis, analysis.faces.indices.contains(key.index) else { return }
            analysis.faces[key.index].forgotten = true
            analysis.faces[key.index].person = nil
            analysis.faces[key.index].name = nil
            analysis.faces[key.index].nameSource = nil  // its xmpName stays, as evidence of nobody
            asset.analysis = analysis
        }
        try renameAll(persons: Set([person].compactMap { $0 }))
        try writer.afterChange(regroup: false)
        return key
    }

    // MARK: Pieces

    static func assetsWithFaces(_ index: Index) throws -> [Asset] {
        var q = AssetQuery()
        q.includeLiveVideos = true
        q.states = AssetState.allCases
        q.hasFaces = true
        return try index.assets(matching: q)
    }

    /// Applies `change` to every face of the assets holding `persons`, then
    /// works out those persons' names again and writes them to all their faces.
    private func rewrite(persons: Set<String>, in book: PeopleBook, _ change: (inout DetectedFace) -> Void) throws {
        try writer.update(book.assets(of: persons).sorted()) { asset in
            guard var analysis = asset.analysis else { return }
            for i in analysis.faces.indices { change(&analysis.faces[i]) }
            asset.analysis = analysis
        }
        try renameAll(persons: persons)
        try writer.afterChange(regroup: false)
    }

    /// Writes each of `persons`' name (from its faces' evidence, as it now stands) to all its faces.
    func renameAll(persons: Set<String>) throws {
        let book = PeopleBook(assets: try Self.assetsWithFaces(writer.index))
        let names = book.names(of: persons)
        try writer.update(book.assets(of: persons).sorted()) { asset in
            guard var analysis = asset.analysis else { return }
            PersonNaming.apply(names, to: &analysis.faces)
            asset.analysis = analysis
        }
    }

    /// A person id (`p3`), a person's name (exactly one person so named, any case) or a face
    /// (`<asset id or prefix>#n`, whose person it is; a face without one gets a new person).
    func resolvePerson(_ text: String, in book: inout PeopleBook) throws -> String {
        if FaceKey.parse(text) != nil {
            let key = try Self.resolveFace(text, in: book)
            guard let face = book.allFaces[key], !face.isForgotten else {
                throw ShoeboxError(.invalidArgument, "face \(key) was forgotten; it is not a person any more")
            }
            if let person = face.person { return person }
            var assigner = book.assigner()
            let person = assigner.newPerson()
            var updated = face
            updated.person = person
            updated.placed = true
            _ = try writer.update([key.assetID]) { asset in
                asset.analysis?.faces[key.index].person = person
                asset.analysis?.faces[key.index].placed = true
            }
            book.set(key, updated)
            return person
        }
        return try Self.lookUp(text, in: &book)
    }

    static func resolveFace(_ text: String, in book: PeopleBook) throws -> FaceKey {
        guard let (assetPart, index) = FaceKey.parse(text) else {
            throw ShoeboxError(.invalidArgument, "a face is written <asset id>#<n>, e.g. 3f2a9c10#1: \(text.debugDescription)")
        }
        let matches = Set(book.allFaces.keys.filter { $0.assetID.rawValue.hasPrefix(assetPart.lowercased()) }.map(\.assetID))
        guard matches.count == 1, let id = matches.first else {
            throw ShoeboxError(matches.isEmpty ? .notFound : .ambiguous,
                               matches.isEmpty ? "no analysed photo with faces has the id \(assetPart)" : "\(assetPart) is the start of \(matches.count) ids; give more of it")
        }
        let key = FaceKey(assetID: id, index: index)
        guard book.allFaces[key] != nil else {
            let count = book.allFaces.keys.filter { $0.assetID == id }.count
            throw ShoeboxError(.notFound, "photo \(id) has \(count) face\(count == 1 ? "" : "s"); there is no face #\(index + 1)")
        }
        return key
    }
}
