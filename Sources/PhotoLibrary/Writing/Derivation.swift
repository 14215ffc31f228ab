import Foundation
import Metadata
import Places

/// What Shoebox computes from a file's metadata and name rather than reads: its kind, its place
/// and whether it is a utility image. Recomputed whenever the name or the metadata changes, and
/// for every asset when these rules change (`version`).
public enum Derivation {
    /// Bumped when the rules change; an index made under older rules is re-derived once by the
    /// next scan, without hashing a file. 2: places from the gazetteer. 3: Live Photos paired
    /// only with evidence (regrouped once). 4: the metadata reader learnt IPTC-IIM, XMP in
    /// UTF-16/32, exposure EXIF, Apple's content identifier and a date order that puts IFD0
    /// `DateTime` after the file name, so present files' metadata is read again (headers only).
    /// 5: keywords from the file itself (IPTC-IIM, embedded XMP), read again the same way.
    public static let version = "5"

    /// Indexes made before this version hold metadata today's reader would read differently.
    static let metadataVersion = 5

    /// Loads what the first derivation would otherwise wait for (the gazetteer, ~0.1 s), so that a
    /// long-running watcher's first arrival is indexed as fast as the rest.
    public static func preload() { _ = Gazetteer.shared }

    /// Sets the fields derived from `asset`'s name and metadata.
    public static func refresh(_ asset: inout Asset) {
        let m = asset.metadata
        asset.kind = AssetClassifier.kind(of: m, name: asset.name)
        asset.place = place(of: m)
        asset.applyAnalysisScore()
    }

    /// The GPS position through the bundled gazetteer first (where the camera was); else the
    /// city and country the file states (XMP, then IPTC-IIM: `MetadataReader.merge`).
    static func place(of m: MediaMetadata) -> Place? {
        if let gps = m.gps, let p = Gazetteer.shared.place(near: gps.lat, lon: gps.lon) {
            return Place(city: p.city, country: p.country)
        }
        if m.city != nil || m.country != nil { return Place(city: m.city, country: m.country) }
        return nil
    }

    /// True when the index was derived (and grouped) under older rules.
    static func isOutdated(_ index: Index) throws -> Bool { try index.meta("derivation") != version }

    /// Assets indexed under older rules get today's kind and place, in batches through `writer`;
    /// under rules older than `metadataVersion`, present files' metadata is read again first.
    static func rederiveIfOutdated(writer: AssetWriter, batchSize: Int, now: Date) throws {
        let index = writer.index
        let stored = try index.meta("derivation")
        guard stored != version else { return }
        let reread = (stored.flatMap { Int($0) } ?? 0) < metadataVersion
        let probe = FileProbe(library: writer.library, now: now)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 64)
        defer { buffer.deallocate() }
        var changed: [Asset] = []
        for var asset in try index.allAssets() {
            let before = asset
            if reread, asset.state == .present { rereadMetadata(&asset, probe: probe, buffer: buffer) }
            refresh(&asset)
            // An mtime date now carries the local offset: the index's copy of it must be rewritten.
            if asset != before || (reread && asset.takenAt?.source == .mtime) { changed.append(asset) }
            if changed.count >= batchSize {
                try writer.commit(changed)
                changed.removeAll(keepingCapacity: true)
            }
        }
        try writer.commit(changed)
        try index.setMeta("derivation", version)
    }

    /// The file's headers read again when it is still the file the index holds (same size and
    /// modification time); its hash is not computed again.
    private static func rereadMetadata(_ asset: inout Asset, probe: FileProbe, buffer: UnsafeMutableRawBufferPointer) {
        guard case .indexed(let r) = probe.probe(asset.path, buffer: buffer, hashing: false),
              r.stat.size == asset.size, r.stat.mtimeNS == asset.mtimeNS else { return }
        asset.metadata = r.metadata
    }
}
