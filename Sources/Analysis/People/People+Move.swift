import Foundation
import PhotoLibrary

extension People {
    /// What `people move` did: the face, the person it left (nil: it had none) and the person
    /// it is now in, as that person now stands.
    public struct Move: Sendable {
        public var face: FaceKey
        public var from: String?
        public var to: Person
    }

    /// `people show PERSON`: the person (an id, a present name, or one of its faces) and its
    /// faces in present photos, largest first, each with its photo's path.
    public static func show(_ target: String, in session: LibrarySession) throws -> (Person, [Face]) {
        let id = try session.read { index -> String in
            var book = PeopleBook(assets: try assetsWithFaces(index))
            return try People.lookUp(target, in: &book)
        }
        return try faces(of: id, in: session)
    }

    /// The person `target` names (an id, a present name, or a face in a person) as it stands,
    /// read without a lock; nil for a face without a person. What a front end says before a
    /// change that reaches every face of the person (`people name FACE`).
    public static func person(_ target: String, in session: LibrarySession) throws -> Person? {
        try session.read { index in
            var book = PeopleBook(assets: try assetsWithFaces(index))
            if FaceKey.parse(target) != nil {
                let key = try People.resolveFace(target, in: book)
                guard let p = book.allFaces[key]?.person else { return nil }
                return try list(index: index).first { $0.id == p }
            }
            let id = try People.lookUp(target, in: &book)
            return try list(index: index).first { $0.id == id }
        }
    }

    /// `people move FACE PERSON|new`: see `move(_:to:)`.
    public static func move(_ face: String, to target: String, in session: LibrarySession) throws -> Move {
        try session.write { try People(writer: $0.writer).move(face, to: target) }
    }

    /// Puts a face into `target` (an id, a present name, or `new` for a person of its own): how a
    /// person is split, and how a face the gate left without a person (small, blurred, turned)
    /// is given one. The face is placed: it stays there whatever the clustering rules say, and a
    /// forgotten face is remembered again. Both persons' names are worked out again.
    package func move(_ face: String, to target: String) throws -> Move {
        var book = PeopleBook(assets: try Self.assetsWithFaces(writer.index))
        let key = try Self.resolveFace(face, in: book)
        let from = book.allFaces[key]?.person
        let to: String
        if target.lowercased() == "new" {
            var assigner = book.assigner()
            to = assigner.newPerson()
        } else {
            to = try Self.lookUp(target, in: &book)
        }
        if from == to { throw ShoeboxError(.invalidArgument, "face \(key) is already in \(to)") }
        _ = try writer.update([key.assetID]) { asset in
            guard var analysis = asset.analysis, analysis.faces.indices.contains(key.index) else { return }
            analysis.faces[key.index].person = to
            analysis.faces[key.index].placed = true
            analysis.faces[key.index].forgotten = nil
            // A name the user gave the old person is no evidence for the new one.
            if analysis.faces[key.index].nameSource == .user {
                analysis.faces[key.index].nameSource = nil
                analysis.faces[key.index].name = nil
            }
            asset.analysis = analysis
        }
        try renameAll(persons: Set([from, to].compactMap { $0 }))
        try writer.afterChange(regroup: false)
        guard let person = try Self.list(index: writer.index).first(where: { $0.id == to }) else {
            throw ShoeboxError(.notFound, "person \(to) has no face in a present photo")
        }
        return Move(face: key, from: from, to: person)
    }

    /// A person id (`p3`) or a person's present name (exactly one person so named, any case).
    static func lookUp(_ text: String, in book: inout PeopleBook) throws -> String {
        if FaceKey.parse(text) != nil {
            let key = try resolveFace(text, in: book)
            guard let person = book.allFaces[key]?.person else {
                throw ShoeboxError(.invalidArgument, "face \(key) is in no person")
            }
            return person
        }
        if book.persons.contains(text) { return text }
        let named = book.persons.filter { p in (book.names(of: [p])[p] ?? nil)?.caseInsensitiveCompare(text) == .orderedSame }
        if named.count == 1 { return named[0] }
        if named.count > 1 { throw ShoeboxError(.invalidArgument, "\(named.count) people are named \(text) (\(named.joined(separator: ", "))): give the person's id") }
        throw ShoeboxError(.notFound, "no person \(text.debugDescription)", remedy: LibraryRemedy.listPeople)
    }
}
