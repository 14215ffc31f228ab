import Foundation
import Metadata

/// The public JSON shape of an asset (`list --json`, `show --json`): the contract in SPEC.md.
/// Field names are snake_case and never renamed; new fields may be added.
public struct AssetJSON: Encodable, Sendable {
    public struct Coordinate: Encodable, Sendable { var lat: Double; var lon: Double }
    public struct PlaceJSON: Encodable, Sendable { var city: String?; var country: String? }
    public struct Face: Encodable, Sendable { var x, y, w, h: Double; var name: String? }

    var id: String
    var path: String
    var kind: String
    var format: String
    var size: Int64
    var width: Int
    var height: Int
    var taken_at: String?
    var taken_at_source: String?
    var year: Int?
    var gps: Coordinate?
    var place: PlaceJSON?
    var persons: [String]
    var faces: [Face]
    var score: Double?
    var is_utility: Bool
    var sha256: String
    var similar_group: String?
    var duplicate_of: String?
    var live_video: String?
    var state: String
    var orientation: Int
    var make: String?
    var model: String?
    var duration: Double?
    var mtime: String
    var first_seen: String
    /// Trashed assets: the name in `Recently Deleted/files/` and when it went there.
    var trash_name: String?
    var deletion_date: String?

    public init(_ a: Asset, liveVideo: String?) {
        id = a.id.rawValue
        path = a.path
        kind = a.kind.rawValue
        format = a.format.rawValue
        size = a.size
        width = a.width
        height = a.height
        taken_at = a.takenAt?.iso8601
        taken_at_source = a.takenAt?.source.rawValue
        year = a.year
        gps = a.metadata.gps.map { Coordinate(lat: $0.lat, lon: $0.lon) }
        place = a.place.map { PlaceJSON(city: $0.city, country: $0.country) }
        persons = a.persons
        faces = a.metadata.faces.map { Face(x: $0.x, y: $0.y, w: $0.w, h: $0.h, name: $0.name) }
        score = a.score
        is_utility = a.isUtility
        sha256 = a.sha256
        similar_group = a.similarGroup
        duplicate_of = a.duplicateOf?.rawValue
        live_video = liveVideo
        state = a.state.rawValue
        orientation = a.metadata.orientation
        make = a.metadata.make
        model = a.metadata.model
        duration = a.metadata.duration
        mtime = ShoeboxClock.localISO8601(Date(timeIntervalSince1970: Double(a.mtimeNS) / 1e9))
        first_seen = ShoeboxClock.localISO8601(a.firstSeen)
        trash_name = a.trash?.name
        deletion_date = a.trash.map { ShoeboxClock.localISO8601($0.deletedAt) }
    }

    // Explicit nulls: scripts can rely on every field being present.
    enum CodingKeys: String, CodingKey {
        case id, path, kind, format, size, width, height, taken_at, taken_at_source, year, gps, place, persons, faces
        case score, is_utility, sha256, similar_group, duplicate_of, live_video, state, orientation, make, model
        case duration, mtime, first_seen, trash_name, deletion_date
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(path, forKey: .path)
        try c.encode(kind, forKey: .kind)
        try c.encode(format, forKey: .format)
        try c.encode(size, forKey: .size)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(taken_at, forKey: .taken_at)
        try c.encode(taken_at_source, forKey: .taken_at_source)
        try c.encode(year, forKey: .year)
        try c.encode(gps, forKey: .gps)
        try c.encode(place, forKey: .place)
        try c.encode(persons, forKey: .persons)
        try c.encode(faces, forKey: .faces)
        try c.encode(score, forKey: .score)
        try c.encode(is_utility, forKey: .is_utility)
        try c.encode(sha256, forKey: .sha256)
        try c.encode(similar_group, forKey: .similar_group)
        try c.encode(duplicate_of, forKey: .duplicate_of)
        try c.encode(live_video, forKey: .live_video)
        try c.encode(state, forKey: .state)
        try c.encode(orientation, forKey: .orientation)
        try c.encode(make, forKey: .make)
        try c.encode(model, forKey: .model)
        try c.encode(duration, forKey: .duration)
        try c.encode(mtime, forKey: .mtime)
        try c.encode(first_seen, forKey: .first_seen)
        try c.encode(trash_name, forKey: .trash_name)
        try c.encode(deletion_date, forKey: .deletion_date)
    }
}
