import Foundation
import PhotoLibrary

/// One photo of the composer draft (`compose list|add|move|replace|remove|clear --json`, an
/// array top to bottom). Public contract: every field of the asset shape (`AssetJSON`: `id`,
/// `path`, `width`, `height`, `faces`, … `state`) plus `position` (from 1, top of the story
/// first), in one object.
public struct ComposerItemJSON: PublicJSONShape, Sendable {
    var asset: AssetJSON
    var position: Int

    public init(_ e: ComposerEntry) {
        asset = AssetJSON(e.asset, liveVideo: nil)
        position = e.position
    }

    enum CodingKeys: String, CodingKey { case position }

    public func encode(to encoder: any Encoder) throws {
        try asset.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(position, forKey: .position)
    }
}

/// What `compose export --json` made. Public contract: `file` (the absolute path of the HEIC
/// written outside the library, or null with `--save` alone), `saved` (with `--save`, the new
/// photo of the library in the asset shape, with its `id` and `path` under `Collages/`; else
/// null), `width` 1080, `height` 1920, `size` (bytes of the HEIC), `photos` (the ids stacked,
/// top to bottom).
public struct ComposeExportJSON: PublicJSONShape, Sendable {
    var file: String?
    var saved: AssetJSON?
    var width: Int
    var height: Int
    var size: Int
    var photos: [String]

    public init(file: String?, saved: Asset?, size: Int, photos: [AssetID]) {
        self.file = file
        self.saved = saved.map { AssetJSON($0, liveVideo: nil) }
        width = StoryLayout.width
        height = StoryLayout.height
        self.size = size
        self.photos = photos.map(\.rawValue)
    }

    enum CodingKeys: String, CodingKey { case file, saved, width, height, size, photos }

    // Nulls written out (the synthesised encoder leaves nil keys out): the contract has every key.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(saved, forKey: .saved)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(size, forKey: .size)
        try c.encode(photos, forKey: .photos)
    }
}
