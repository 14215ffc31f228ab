import Foundation
import PhotoLibrary

/// One photo of the curation list (`curate list|add|select|deselect|top|remove|clear --json`,
/// an array best first). Public contract: every field of the asset shape (`AssetJSON`: `id`,
/// `path`, `score`, `is_utility`, `taken_at`, … `live_video`) plus `rank` (from 1, best first)
/// and `selected` (true or false), in one object.
public struct CurationItemJSON: PublicJSONShape, Sendable {
    var asset: AssetJSON
    var rank: Int
    var selected: Bool

    public init(_ e: CurationEntry) {
        asset = AssetJSON(e.asset, liveVideo: e.companion)
        rank = e.rank
        selected = e.selected
    }

    enum CodingKeys: String, CodingKey { case rank, selected }

    public func encode(to encoder: any Encoder) throws {
        try asset.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rank, forKey: .rank)
        try c.encode(selected, forKey: .selected)
    }
}

/// What `curate share --to DIR --json` wrote. Public contract: `to` (DIR, absolute) and `files`,
/// one per file in rank order (a Live Photo's movie right after its photo): `id` (the asset
/// shared; a companion has its own), `source` (the original, relative to the library),
/// `name` (in DIR), `path` (absolute), `method` (`link`: a hard link to the original; `copy`;
/// `already-there`: DIR held the same bytes under that name, nothing written), `size` (bytes),
/// `companion` (true for a Live Photo's movie or a RAW+JPEG shot's raw file).
public struct ShareJSON: PublicJSONShape, Sendable {
    struct File: Encodable, Sendable {
        var id: String
        var source: String
        var name: String
        var path: String
        var method: String
        var size: Int64
        var companion: Bool
    }
    var to: String
    var files: [File]

    public init(to folder: String, placed: [CurationShare.Placed]) {
        to = folder
        files = placed.map {
            File(id: $0.id.rawValue, source: $0.source, name: $0.name, path: folder + "/" + $0.name,
                 method: $0.method.rawValue, size: $0.size, companion: $0.isCompanion)
        }
    }
}
