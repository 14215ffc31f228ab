import Foundation
import Metadata

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

/// Writes a JSON array of assets exactly as `ShoeboxJSON.document` writes `[AssetJSON]` (JSONEncoder
/// with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`): the same bytes,
/// but one asset at a time into a small buffer handed to `output`, so that a listing of the whole
/// library is neither held as values nor as one document. JSONEncoder's rules, as followed here:
/// keys sorted by their UTF-8 bytes, `"key" : value`, two spaces per level, `,` + newline between
/// members, an empty array as `[`, two newlines, the indentation and `]`; nil optionals of
/// AssetJSON written as `null` (its `encode(to:)` says so), those of the nested places and faces
/// left out (synthesized `encodeIfPresent`); numbers as Swift's `description` with a trailing
/// `.0` cut; in strings `"` `\\` and control characters escaped (`\b \f \n \r \t`, else
/// `\u00xx`), everything else, `/` included, as is.
public struct AssetJSONArrayWriter {
    private var buffer: [UInt8] = []
    private var count = 0
    private let output: ([UInt8]) -> Void
    private static let sortedKeys = AssetJSON.CodingKeys.allCases.sorted {
        $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8)
    }

    public init(output: @escaping ([UInt8]) -> Void) {
        self.output = output
        buffer.reserveCapacity(1 << 16)
        buffer.append(UInt8(ascii: "["))
        buffer.append(0x0A)
    }

    public mutating func append(_ a: AssetJSON) throws {
        if count > 0 { buffer.append(UInt8(ascii: ",")); buffer.append(0x0A) }
        count += 1
        indent(1)
        try object(a)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Closes the array (the document ends with `]`, no newline) and hands out the rest.
    public mutating func finish() {
        // "[\n" + "\n]": an empty array is "[", two newlines, "]".
        buffer.append(0x0A)
        buffer.append(UInt8(ascii: "]"))
        flush()
    }

    private mutating func flush() {
        guard !buffer.isEmpty else { return }
        output(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    // MARK: One asset, at indentation level 1

    /// `,` (but before the first), newline, indentation and `"key" : ` of each member, in order.
    private static let memberPrefixes: [[UInt8]] = sortedKeys.enumerated().map { i, key in
        Array(((i == 0 ? "" : ",") + "\n    \"" + key.rawValue + "\" : ").utf8)
    }

    private mutating func object(_ a: AssetJSON) throws {
        buffer.append(UInt8(ascii: "{"))
        for (i, key) in AssetJSONArrayWriter.sortedKeys.enumerated() {
            buffer.append(contentsOf: AssetJSONArrayWriter.memberPrefixes[i])
            switch key {
            case .id: string(a.id)
            case .path: string(a.path)
            case .kind: string(a.kind)
            case .format: string(a.format)
            case .size: integer(a.size)
            case .width: integer(a.width)
            case .height: integer(a.height)
            case .taken_at: optionalString(a.taken_at)
            case .taken_at_source: optionalString(a.taken_at_source)
            case .year: if let y = a.year { integer(y) } else { null() }
            case .gps:
                if let g = a.gps {
                    buffer.append(UInt8(ascii: "{"))
                    var inner = true
                    member("lat", level: 3, first: &inner); try double(g.lat)
                    member("lon", level: 3, first: &inner); try double(g.lon)
                    close(UInt8(ascii: "}"), level: 2)
                } else { null() }
            case .place:
                if let p = a.place {
                    buffer.append(UInt8(ascii: "{"))
                    var inner = true
                    if let city = p.city { member("city", level: 3, first: &inner); string(city) }
                    if let country = p.country { member("country", level: 3, first: &inner); string(country) }
                    if inner { buffer.append(0x0A) }  // an empty object, as JSONEncoder writes one
                    close(UInt8(ascii: "}"), level: 2)
                } else { null() }
            case .persons: strings(a.persons)
            case .keywords: strings(a.keywords)
            case .xmp_sidecar: optionalString(a.xmp_sidecar)
            case .raw_type: optionalString(a.raw_type)
            case .raw_file: optionalString(a.raw_file)
            case .rating: if let r = a.rating { integer(r) } else { null() }
            case .faces:
                buffer.append(UInt8(ascii: "["))
                for (i, f) in a.faces.enumerated() {
                    if i > 0 { buffer.append(UInt8(ascii: ",")) }
                    buffer.append(0x0A)
                    indent(3)
                    buffer.append(UInt8(ascii: "{"))
                    var inner = true
                    member("h", level: 4, first: &inner); try double(f.h)
                    if let name = f.name { member("name", level: 4, first: &inner); string(name) }
                    if let person = f.person { member("person", level: 4, first: &inner); string(person) }
                    member("source", level: 4, first: &inner); string(f.source)
                    member("w", level: 4, first: &inner); try double(f.w)
                    member("x", level: 4, first: &inner); try double(f.x)
                    member("y", level: 4, first: &inner); try double(f.y)
                    close(UInt8(ascii: "}"), level: 3)
                }
                if a.faces.isEmpty { buffer.append(0x0A) }
                close(UInt8(ascii: "]"), level: 2)
            case .score: if let v = a.score { try double(v) } else { null() }
            case .is_utility: bytes(a.is_utility ? "true" : "false")
            case .score_detail: if let d = a.score_detail { buffer.append(contentsOf: try d.nestedBytes(level: 2)) } else { null() }
            case .analyzed: bytes(a.analyzed ? "true" : "false")
            case .damaged: bytes(a.damaged ? "true" : "false")
            case .phash: optionalString(a.phash)
            case .sha256: string(a.sha256)
            case .similar_group: optionalString(a.similar_group)
            case .duplicate_of: optionalString(a.duplicate_of)
            case .live_video: optionalString(a.live_video)
            case .state: string(a.state)
            case .orientation: integer(a.orientation)
            case .make: optionalString(a.make)
            case .model: optionalString(a.model)
            case .duration: if let v = a.duration { try double(v) } else { null() }
            case .mtime: string(a.mtime)
            case .first_seen: string(a.first_seen)
            case .trash_name: optionalString(a.trash_name)
            case .deletion_date: optionalString(a.deletion_date)
            }
        }
        close(UInt8(ascii: "}"), level: 1)
    }

    // MARK: Pieces

    /// An array of strings at level 2, as JSONEncoder writes `persons`.
    private mutating func strings(_ list: [String]) {
        buffer.append(UInt8(ascii: "["))
        for (i, name) in list.enumerated() {
            if i > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer.append(0x0A)
            indent(3)
            string(name)
        }
        if list.isEmpty { buffer.append(0x0A) }
        close(UInt8(ascii: "]"), level: 2)
    }

    /// `{` or `,` was written before: a newline (after a `,` for all but the first), the
    /// indentation and `"key" : ` (keys here need no escaping).
    private mutating func member(_ key: StaticString, level: Int, first: inout Bool) {
        if !first { buffer.append(UInt8(ascii: ",")) }
        first = false
        buffer.append(0x0A)
        indent(level)
        buffer.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { buffer.append(contentsOf: $0) }
        buffer.append(UInt8(ascii: "\""))
        buffer.append(contentsOf: AssetJSONArrayWriter.colon)
    }

    /// The bytes of `s` at once (a String's UTF-8 view is otherwise appended byte by byte).
    private mutating func bytes(_ s: String) {
        var s = s
        s.withUTF8 { buffer.append(contentsOf: $0) }
    }

    private static let colon: [UInt8] = Array(" : ".utf8)
    private static let indents: [[UInt8]] = (0...4).map { Array(repeating: UInt8(ascii: " "), count: 2 * $0) }

    /// The newline, the indentation of `level` and the closing bracket.
    private mutating func close(_ bracket: UInt8, level: Int) {
        buffer.append(0x0A)
        indent(level)
        buffer.append(bracket)
    }

    private mutating func indent(_ level: Int) {
        buffer.append(contentsOf: AssetJSONArrayWriter.indents[level])
    }

    private mutating func null() { bytes("null") }

    private mutating func optionalString(_ s: String?) {
        if let s { string(s) } else { null() }
    }

    private mutating func integer<T: BinaryInteger>(_ v: T) {
        bytes(String(v))
    }

    private mutating func double(_ v: Double) throws {
        guard v.isFinite else {
            throw EncodingError.invalidValue(v, .init(codingPath: [], debugDescription: "Unable to encode Double.\(v) directly in JSON."))
        }
        var text = v.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes(text)
    }

    private mutating func string(_ s: String) {
        buffer.append(UInt8(ascii: "\""))
        // Nearly every string needs no escape: copied at once.
        var text = s
        let plain = text.withUTF8 { u -> Bool in
            for c in u where c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { return false }
            buffer.append(contentsOf: u)
            return true
        }
        if plain {
            buffer.append(UInt8(ascii: "\""))
            return
        }
        for c in s.utf8 {
            switch c {
            case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\\")); buffer.append(c)
            case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\")); buffer.append(c)
            case 0x08: buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "b"))
            case 0x0C: buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "f"))
            case 0x0A: buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "n"))
            case 0x0D: buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "r"))
            case 0x09: buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                           hex[Int(c >> 4)], hex[Int(c & 15)]])
            default: buffer.append(c)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
