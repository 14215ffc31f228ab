import PhotoLibrary

/// `people list --json`, one per person (public contract: names are never renamed):
/// `{"id", "name" (null when unnamed), "photos", "faces", "face": {"id", "asset_id", "x", "y", "w", "h"}}`,
/// the face being the person's largest in a present photo, normalised to the upright image.
public struct PersonJSON: PublicJSONShape, Sendable {
    public struct FaceJSON: Encodable, Sendable {
        var id: String
        var asset_id: String
        var x, y, w, h: Double
    }

    var id: String
    var name: String?
    var photos: Int
    var faces: Int
    var face: FaceJSON

    public init(_ p: People.Person) {
        id = p.id
        name = p.name
        photos = p.photoCount
        faces = p.faceCount
        let b = p.representativeBox
        face = FaceJSON(id: p.representative.description, asset_id: p.representative.assetID.rawValue,
                        x: b.x, y: b.y, w: b.w, h: b.h)
    }

    enum CodingKeys: String, CodingKey { case id, name, photos, faces, face }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)  // null, not absent: scripts rely on every field
        try c.encode(photos, forKey: .photos)
        try c.encode(faces, forKey: .faces)
        try c.encode(face, forKey: .face)
    }
}

/// `people show --json`: the person as `people list --json` gives it, with `faces` the list of its
/// faces (largest first, each with its photo's path) instead of their count, as the web's
/// `GET /api/people/ID` has it.
public struct PersonFacesJSON: PublicJSONShape, Sendable {
    struct FaceJSON: Encodable, Sendable {
        var id: String
        var asset_id: String
        var path: String
        var x, y, w, h: Double
    }
    var person: PersonJSON
    var faces: [FaceJSON]

    public init(_ p: People.Person, _ faces: [People.Face]) {
        person = PersonJSON(p)
        self.faces = faces.map { FaceJSON(id: $0.key.description, asset_id: $0.key.assetID.rawValue, path: $0.path,
                                          x: $0.box.x, y: $0.box.y, w: $0.box.w, h: $0.box.h) }
    }

    enum CodingKeys: String, CodingKey { case id, name, photos, faces, face }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(person.id, forKey: .id)
        try c.encode(person.name, forKey: .name)
        try c.encode(person.photos, forKey: .photos)
        try c.encode(faces, forKey: .faces)
        try c.encode(person.face, forKey: .face)
    }
}

/// `analyze --json`: what one run did.
public struct AnalyzeReportJSON: PublicJSONShape, Sendable {
    var analyzed: Int
    var damaged: Int
    var faces: Int
    var left: Int
    var problems: [FileProblemJSON]

    /// `reason`: how the front end words a file's not being analysed (the CLI adds its remedy).
    public init(_ r: AnalysisRunner.Report, reason: (ShoeboxError) -> String = { $0.description }) {
        analyzed = r.analysed; damaged = r.damaged; faces = r.faces; left = r.left
        problems = (r.problems + r.notAnalysed.map { FileProblem(path: $0.path, reason: reason($0.error)) }).map(FileProblemJSON.init)
    }
}
