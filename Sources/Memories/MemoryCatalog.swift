import Foundation
import Imaging
import Metadata
import PhotoLibrary

/// A photo a memory can hold, with what selection and cropping need from its record.
package struct MemoryPhoto: Sendable {
    package var asset: Asset
    /// Seconds since 1970 of the capture time after every fallback; nil when unknown.
    package var time: Double?
    /// The faces the crop keeps whole: the person's own for a person's memory, else every face.
    package var faces: [FaceBox]
    /// The person's largest face as a share of the image's area (a person's memory only).
    package var personFaceArea: Double?
}

/// A face box normalised to the upright image, x/y its top-left corner (with its sharpness once
/// measured on the decoded pixels): the crop rule's own type, shared with the story's bands.
public typealias FaceBox = FaceCrop.Face

/// The sources the picker offers, each with its number of photos.
public struct MemorySources: Sendable {
    public struct Year: Sendable { public var year: Int; public var count: Int }
    public struct PlaceCount: Sendable {
        public var city: String?
        public var country: String?
        public var count: Int
        var label: String { Place(city: city, country: country).label }
    }
    public struct Person: Sendable { public var id: String; public var name: String; public var count: Int }
    public var years: [Year]
    public var places: [PlaceCount]
    /// Only people with at least 10 photos (the brief's picker rule).
    public var people: [Person]
}

/// Reads the memories' photos from the index: present photos that are not screenshots,
/// documents (utility), byte-identical copies, damaged files or saved collages, in the range.
/// People are the analysis pipeline's (named or not): a person's photos are those where the
/// person's face was found.
package struct MemoryCatalog: Sendable {
    let index: Index
    let now: Date

    package init(index: Index, now: Date = ShoeboxClock.now()) {
        self.index = index
        self.now = now
    }

    /// Calls `body` with each photo a memory may use in `range`, narrowed by `query`'s filters.
    func forEachEligible(_ range: MemoryRange, _ query: AssetQuery = AssetQuery(), _ body: (Asset) throws -> Void) throws {
        try index.forEachAsset(matching: eligible(range, query)) { asset in
            if Self.isCollage(asset.path) { return }
            try body(asset)
        }
    }

    /// `query` narrowed to the photos a memory may use in `range` (the saved collages aside).
    func eligible(_ range: MemoryRange, _ query: AssetQuery = AssetQuery()) -> AssetQuery {
        var q = query
        q.kind = .photo
        q.isUtility = false
        q.isDuplicate = false
        q.isDamaged = false
        q.takenFrom = range.start(now: now)
        return q
    }

    /// A collage of collages is not a memory.
    static func isCollage(_ path: String) -> Bool { path.hasPrefix(LibraryLayout.collagesFolder + "/") }

    /// Years (latest first), places and people (most photos first) with their counts.
    package func sources(range: MemoryRange) throws -> MemorySources {
        var years: [Int: Int] = [:]
        var places: [String: (Place, Int)] = [:]
        var people: [String: (name: String?, count: Int)] = [:]
        // Tallies, not assets: counting needs no photo's metadata decoded (seconds at 100,000).
        try index.forEachTally(matching: eligible(range)) { asset in
            if Self.isCollage(asset.path) { return }
            if let y = asset.year { years[y, default: 0] += 1 }
            if let p = asset.place, !p.label.isEmpty { places[p.label, default: (p, 0)].1 += 1 }
            let faces = Self.faces(in: asset.analysis)
            for person in Set(faces.compactMap(\.person)) {
                people[person, default: (nil, 0)].count += 1
            }
            for face in faces { if let p = face.person, let n = face.name { people[p]?.name = n } }
        }
        let peopleList = people.filter { $0.value.count >= MemoriesError.minimumPersonPhotos }
            .map { MemorySources.Person(id: $0.key, name: $0.value.name ?? $0.key, count: $0.value.count) }
            .sorted { ($0.count, $1.name, $1.id) > ($1.count, $0.name, $0.id) }
        return MemorySources(
            years: years.map { MemorySources.Year(year: $0.key, count: $0.value) }.sorted { $0.year > $1.year },
            places: places.values.map { MemorySources.PlaceCount(city: $0.0.city, country: $0.0.country, count: $0.1) }
                .sorted { ($0.count, $1.label) > ($1.count, $0.label) },
            people: peopleList)
    }

    /// The photos of `source` in `range`, each with the faces to keep whole. A person is matched
    /// by name (case and accents ignored; several people of one name are one) or by id, and
    /// needs at least 10 photos. Throws the empty state when there is nothing.
    package func photos(of source: MemorySource, range: MemoryRange) throws -> [MemoryPhoto] {
        var out: [MemoryPhoto] = []
        var q = AssetQuery()
        switch source {
        case .year(let y):
            q.year = y
            try forEachEligible(range, q) { out.append(Self.photo($0, faces: Self.boxes(Self.allFaces(of: $0)))) }
        case .place(let p):
            let key = NameKey.of(p)
            try forEachEligible(range, q) { asset in
                guard let place = asset.place, Self.matches(place, key) else { return }
                out.append(Self.photo(asset, faces: Self.boxes(Self.allFaces(of: asset))))
            }
        case .person(let p):
            q.hasFaces = true
            let key = NameKey.of(p)
            try forEachEligible(range, q) { asset in
                let faces = Self.faces(of: asset)
                let persons = Set(faces.compactMap { f in f.person.flatMap { f.person == p || f.name.map(NameKey.of) == key ? $0 : nil } })
                let own = faces.filter { $0.person.map(persons.contains) ?? false }
                guard !own.isEmpty else { return }
                var photo = Self.photo(asset, faces: Self.boxes(own))
                photo.personFaceArea = photo.faces.map(\.area).max()
                out.append(photo)
            }
            if out.count < MemoriesError.minimumPersonPhotos { throw MemoriesError.noPhotos(source, range) }
        }
        if out.isEmpty { throw MemoriesError.noPhotos(source, range) }
        return out
    }

    static func matches(_ place: Place, _ key: String) -> Bool {
        let city = place.city.map(NameKey.of), country = place.country.map(NameKey.of)
        return key == city || key == country || (city != nil && country != nil && key == city! + "," + country!)
    }

    /// The faces the analysis found and the user did not forget.
    static func faces(of asset: Asset) -> [DetectedFace] { faces(in: asset.analysis) }

    static func faces(in analysis: AssetAnalysis?) -> [DetectedFace] {
        (analysis?.faces ?? []).filter { !$0.isForgotten }
    }

    /// Every face a crop should keep: found ones and the file's own tagged regions.
    static func allFaces(of asset: Asset) -> [AssetFace] { asset.faces }

    static func boxes(_ faces: [DetectedFace]) -> [FaceBox] { faces.map { FaceBox(x: $0.x, y: $0.y, w: $0.w, h: $0.h) } }
    static func boxes(_ faces: [AssetFace]) -> [FaceBox] { faces.map { FaceBox(x: $0.x, y: $0.y, w: $0.w, h: $0.h) } }

    static func photo(_ asset: Asset, faces: [FaceBox]) -> MemoryPhoto {
        MemoryPhoto(asset: asset, time: asset.takenAt.map { $0.date.timeIntervalSince1970 }, faces: faces, personFaceArea: nil)
    }
}
