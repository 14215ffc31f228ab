import Foundation
import MetadataCore

/// A photo's companion file as listings show it: a Live Photo's movie, or a RAW+JPEG shot's raw
/// file (`Grouping` pairs them through `live_photo_of`). The one rule every front end lists them by.
public enum Companion: Sendable, Equatable {
    case liveVideo
    case rawFile

    /// What the companion at `path` is (by its extension: the pairing already checked content).
    public init(path: String) {
        self = MediaFormat.rawExtensions.contains((path as NSString).pathExtension.lowercased()) ? .rawFile : .liveVideo
    }

    /// Whether `asset` can have a companion at all (a HEIC or JPEG photo): others are not looked up.
    public static func canHave(_ asset: Asset) -> Bool {
        asset.format == .heic || asset.format == .jpeg
    }
}

extension Index {
    /// The companions (asset id → companion's path) of `page`'s photos; of every photo in the
    /// library when `page` is nil (a whole listing: one query beats a lookup per photo).
    public func companions(of page: [Asset]?) throws -> [AssetID: String] {
        guard let page else { return try allLiveVideos() }
        return try liveVideos(for: page.filter(Companion.canHave).map(\.id))
    }
}
