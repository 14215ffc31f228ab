import Foundation
import MetadataCore
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
    /// 6: a place a person wrote (XMP/IPTC City and Country, in the file or its sidecar) wins
    /// over the gazetteer's guess from GPS; IPTC and XMP read from TIFF-based raw files (NEF …)
    /// and from an AFCP trailer, so present files' metadata is read again (headers only).
    public static let version = "6"

    /// Indexes made before this version hold metadata today's reader would read differently.
    static let metadataVersion = 6

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

    /// A place a person wrote wins (issue 32), as Lightroom and digiKam show it: the city and
    /// country the file or its XMP sidecar states (the sidecar's, then XMP, then IPTC-IIM:
    /// `XMPSidecar.merge`, `MetadataReader.merge`) over the gazetteer's guess from GPS — a
    /// phone's position can be a town away, or the photo's subject not where the camera was.
    /// The guess only completes what was written when it agrees: the country of a written city
    /// it also finds, the city of a written country it is in. No writing: the guess.
    static func place(of m: MediaMetadata) -> Place? {
        let guess = m.gps.flatMap { Gazetteer.shared.place(near: $0.lat, lon: $0.lon) }
        let city = m.city.flatMap { $0.isEmpty ? nil : $0 }, country = m.country.flatMap { $0.isEmpty ? nil : $0 }
        switch (city, country) {
        case (nil, nil):
            return guess.map { Place(city: $0.city, country: $0.country) }
        case (let city?, let country):
            let agrees = guess.map { sameName($0.city, city) } ?? false
            return Place(city: city, country: country ?? (agrees ? guess?.country : nil))
        case (nil, let country?):
            if let guess, sameName(guess.country, country) { return Place(city: guess.city, country: country) }
            return Place(city: nil, country: country)
        }
    }

    /// Names compared as people type them: case and accents aside ("Torshavn" is "Tórshavn").
    static func sameName(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame
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
