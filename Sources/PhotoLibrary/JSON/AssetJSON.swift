import Foundation
import MetadataCore

/// The public JSON shape of an asset (`list --json`, `show --json`): public contract (SPEC.md).
/// Field names are snake_case and never renamed; new fields may be added.
public struct AssetJSON: PublicJSONShape, Sendable {
    public struct Coordinate: Encodable, Sendable { var lat: Double; var lon: Double }
    public struct PlaceJSON: Encodable, Sendable { var city: String?; var country: String? }
    /// `source` is `detected` (the analysis found it; `person` its person) or `xmp` (tagged in the file).
    public struct Face: Encodable, Sendable { var x, y, w, h: Double; var name: String?; var person: String?; var source: String }

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
    /// What the score is made of: components, measurements, words (null before analysis).
    var score_detail: ScoreDetailJSON?
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
    /// From an XMP sidecar file beside the photo: its path, `xmp:Rating` and `dc:subject`.
    var xmp_sidecar: String?
    var rating: Int?
    var keywords: [String]
    /// A camera raw file: its kind (`dng`, `cr3` …); a JPEG/HEIC of a RAW+JPEG shot: the raw file's path.
    var raw_type: String?
    var raw_file: String?
    /// Analysis: has it run on the present content; the image data could not be decoded whole;
    /// the perceptual hash (16 hex digits) for similar shots.
    var analyzed: Bool
    var damaged: Bool
    var phash: String?

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
        faces = a.faces.map { Face(x: $0.x, y: $0.y, w: $0.w, h: $0.h, name: $0.name, person: $0.person, source: $0.source.rawValue) }
        score = a.score
        is_utility = a.isUtility
        score_detail = a.analysis.flatMap { $0.sha256 == a.sha256 ? $0.score : nil }.map(ScoreDetailJSON.init)
        sha256 = a.sha256
        similar_group = a.similarGroup
        duplicate_of = a.duplicateOf?.rawValue
        // The companion of a photo is its Live Photo movie or, for a RAW+JPEG shot, its raw file.
        let companionIsRaw = liveVideo.map { MediaFormat.rawExtensions.contains(($0 as NSString).pathExtension.lowercased()) } ?? false
        live_video = companionIsRaw ? nil : liveVideo
        raw_file = companionIsRaw ? liveVideo : nil
        raw_type = a.metadata.rawType
        state = a.state.rawValue
        orientation = a.metadata.orientation
        make = a.metadata.make
        model = a.metadata.model
        duration = a.metadata.duration
        mtime = ShoeboxClock.localISO8601(Date(timeIntervalSince1970: Double(a.mtimeNS) / 1e9))
        first_seen = ShoeboxClock.localISO8601(a.firstSeen)
        trash_name = a.trash?.name
        deletion_date = a.trash.map { ShoeboxClock.localISO8601($0.deletedAt) }
        xmp_sidecar = a.metadata.xmpSidecar?.path
        rating = a.metadata.xmpSidecar?.rating
        keywords = a.keywords
        let analysis = a.analysis.flatMap { $0.sha256 == a.sha256 ? $0 : nil }
        analyzed = analysis?.isCurrent(for: a) ?? false
        damaged = analysis?.damaged ?? false
        phash = analysis?.perceptualHash
    }

    // Explicit nulls: scripts can rely on every field being present.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, path, kind, format, size, width, height, taken_at, taken_at_source, year, gps, place, persons, faces
        case score, is_utility, score_detail, sha256, similar_group, duplicate_of, live_video, state, orientation, make, model
        case duration, mtime, first_seen, trash_name, deletion_date, xmp_sidecar, rating, keywords, raw_type, raw_file
        case analyzed, damaged, phash
    }

    public func encode(to encoder: any Encoder) throws {
        if let node = encoder as? JSONStreamNode { return try writeMembers(node) }
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
        try c.encode(score_detail, forKey: .score_detail)
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
        try c.encode(xmp_sidecar, forKey: .xmp_sidecar)
        try c.encode(rating, forKey: .rating)
        try c.encode(keywords, forKey: .keywords)
        try c.encode(raw_type, forKey: .raw_type)
        try c.encode(raw_file, forKey: .raw_file)
        try c.encode(analyzed, forKey: .analyzed)
        try c.encode(damaged, forKey: .damaged)
        try c.encode(phash, forKey: .phash)
    }
}
