import PhotoLibrary

/// Every analysed face of the library in memory, by key and by person: what assigning new faces
/// and naming people need to see at once (a person's name comes from evidence on any of its
/// faces, in any photo). Loaded once per run from the index; kept current as batches commit.
public struct PeopleBook: Sendable {
    private(set) var faces: [FaceKey: DetectedFace] = [:]
    private(set) var keysByPerson: [String: Set<FaceKey>] = [:]

    /// The faces of `assets` (their analysis, current or stale: a stale record's people and
    /// names still stand until the file is analysed again).
    public init(assets: [Asset]) {
        for a in assets { replaceFaces(of: a.id, with: a.analysis?.faces ?? []) }
    }

    public var allFaces: [FaceKey: DetectedFace] { faces }

    /// A new assigner that knows every face already in a person.
    public func assigner() -> PersonAssigner {
        PersonAssigner(known: faces.keys.sorted().compactMap { key in
            let f = faces[key]!
            guard !f.isForgotten, let person = f.person, let d = f.descriptor else { return nil }
            return PersonAssigner.Known(descriptor: d, person: person, photo: key.assetID, trusted: FaceGate.admits(f.quality))
        })
    }

    /// Replaces what the book holds of `asset`'s faces.
    public mutating func replaceFaces(of asset: AssetID, with newFaces: [DetectedFace]) {
        for key in faces.keys where key.assetID == asset { remove(key) }
        for (i, f) in newFaces.enumerated() { set(FaceKey(assetID: asset, index: i), f) }
    }

    public mutating func set(_ key: FaceKey, _ face: DetectedFace) {
        remove(key)
        faces[key] = face
        if let p = face.person { keysByPerson[p, default: []].insert(key) }
    }

    private mutating func remove(_ key: FaceKey) {
        guard let old = faces.removeValue(forKey: key) else { return }
        if let p = old.person {
            keysByPerson[p]?.remove(key)
            if keysByPerson[p]?.isEmpty == true { keysByPerson[p] = nil }
        }
    }

    public func faces(of person: String) -> [FaceKey] { (keysByPerson[person] ?? []).sorted() }

    public var persons: [String] { keysByPerson.keys.sorted() }

    /// The names of these persons from their faces' evidence (`PersonNaming`).
    public func names(of persons: Set<String>) -> [String: String?] {
        PersonNaming.names(of: persons.flatMap { p in (keysByPerson[p] ?? []).compactMap { faces[$0] } })
    }

    /// The assets holding faces of these persons.
    public func assets(of persons: Set<String>) -> Set<AssetID> {
        Set(persons.flatMap { keysByPerson[$0] ?? [] }.map(\.assetID))
    }
}
