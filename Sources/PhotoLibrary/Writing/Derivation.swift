import Foundation
import Metadata
import Places

/// What Shoebox computes from a file's metadata and name rather than reads: its kind, its place
/// and whether it is a utility image. Recomputed whenever the name or the metadata changes, and
/// for every asset when these rules change (`version`).
public enum Derivation {
    /// Bumped when the rules change; an index made under older rules is re-derived once, from the
    /// metadata it holds, without reading a file. 2: places from the gazetteer. 3: Live Photos
    /// paired only with evidence (regrouped once).
    public static let version = "3"

    /// Loads what the first derivation would otherwise wait for (the gazetteer, ~0.1 s), so that a
    /// long-running watcher's first arrival is indexed as fast as the rest.
    public static func preload() { _ = Gazetteer.shared }

    /// Sets the fields derived from `asset`'s name and metadata.
    public static func refresh(_ asset: inout Asset) {
        let m = asset.metadata
        asset.kind = AssetClassifier.kind(of: m, name: asset.name)
        asset.place = place(of: m)
        asset.isUtility = asset.kind == .screenshot
    }

    /// XMP/IPTC city and country first; else the GPS position through the bundled gazetteer.
    static func place(of m: MediaMetadata) -> Place? {
        if m.city != nil || m.country != nil { return Place(city: m.city, country: m.country) }
        if let gps = m.gps, let p = Gazetteer.shared.place(near: gps.lat, lon: gps.lon) {
            return Place(city: p.city, country: p.country)
        }
        return nil
    }

    /// True when the index was derived (and grouped) under older rules.
    static func isOutdated(_ index: Index) throws -> Bool { try index.meta("derivation") != version }

    /// Assets indexed under older rules get today's kind and place, in batches through `writer`.
    static func rederiveIfOutdated(writer: AssetWriter, batchSize: Int) throws {
        let index = writer.index
        guard try isOutdated(index) else { return }
        var changed: [Asset] = []
        for var asset in try index.allAssets() {
            let before = asset
            refresh(&asset)
            if asset != before { changed.append(asset) }
            if changed.count >= batchSize {
                try writer.commit(changed)
                changed.removeAll(keepingCapacity: true)
            }
        }
        try writer.commit(changed)
        try index.setMeta("derivation", version)
    }
}
