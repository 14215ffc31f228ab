import Foundation
#if canImport(Glibc)
import Glibc
#endif
import MetadataCore

public enum AssetKind: String, Codable, Sendable, CaseIterable {
    case photo, screenshot, video
}

public enum AssetState: String, Codable, Sendable, CaseIterable {
    /// The file is where `path` says.
    case present
    /// The file vanished; the asset (id, sidecar) waits for the same content to come back.
    case missing
    /// The file is in `Recently Deleted/`.
    case trashed
}

public struct Place: Codable, Equatable, Sendable {
    public var city: String?
    public var country: String?
    public init(city: String?, country: String?) { self.city = city; self.country = country }
    /// "Lisbon, Portugal", or whichever half is known.
    public var label: String { [city, country].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ") }
}

/// Where a trashed asset waits: its name in `Recently Deleted/files/` (and of its
/// `info/<name>.trashinfo`) and when it was deleted. The asset's `path` stays the original path,
/// where `restore` puts it back.
public struct TrashRecord: Codable, Equatable, Sendable {
    public var name: String
    public var deletedAt: Date
    public init(name: String, deletedAt: Date) { self.name = name; self.deletedAt = deletedAt }
    enum CodingKeys: String, CodingKey { case name, deletedAt = "deleted_at" }
}

/// One photo or video of the library: what the index holds and the sidecar keeps.
public struct Asset: Codable, Equatable, Sendable {
    public var id: AssetID
    /// Relative to the library root, `/`-separated.
    public var path: String
    public var state: AssetState
    public var size: Int64
    /// Modification time in nanoseconds since 1970, as `stat` reports it.
    public var mtimeNS: Int64
    public var inode: UInt64
    /// Lower-case hex SHA-256 of the whole file.
    public var sha256: String
    public var kind: AssetKind
    public var metadata: MediaMetadata
    public var place: Place?
    public var duplicateOf: AssetID?
    /// Set on the video half of a Live Photo: the id of its photo.
    public var livePhotoOf: AssetID?
    public var firstSeen: Date
    // Filled by analysis (scoring, similarity) in later stages; nil until then.
    public var score: Double?
    public var isUtility: Bool
    public var similarGroup: String?
    /// Set while the asset is in `Recently Deleted/` (state `trashed`).
    public var trash: TrashRecord? = nil
    /// Stored as "features" only when some feature set a field (older sidecars have none).
    var featureFields: FeatureFields? = nil
    /// What the analysis pipeline found in the pixels (faces, perceptual hash, damage); nil until
    /// analysed. Stale when its `sha256` is not the asset's (see `AssetAnalysis.isCurrent`).
    public var analysis: AssetAnalysis? = nil

    /// Fields that feature modules own (scores' parts, decisions…): set them through
    /// `AssetWriter.setFeature`, which journals the change and writes sidecar and index.
    public var features: FeatureFields {
        get { featureFields ?? FeatureFields() }
        set { featureFields = newValue.isEmpty ? nil : newValue }
    }

    public var format: MediaFormat { metadata.format }
    public var width: Int { metadata.uprightWidth }
    public var height: Int { metadata.uprightHeight }
    public var name: String { LibraryPath.leaf(path) }
    /// The folder part of `path` ("" at the root).
    public var folder: String { LibraryPath.parent(path) }
    public var stem: String { (name as NSString).deletingPathExtension }
    /// Names from the file's own XMP (`PersonInImage`, named regions), then the names of the people
    /// recognised in it, each once in that order. A file's name for a face whose person the user
    /// named otherwise (or forgot) gives way to the user's.
    public var persons: [String] {
        let faces = analysis?.faces ?? []
        let recognised = faces.compactMap { $0.isForgotten ? nil : $0.name }
        let overridden = Set(faces.compactMap { f in f.xmpName.flatMap { f.isForgotten || f.name != $0 ? $0 : nil } })
        guard !recognised.isEmpty || !overridden.isEmpty else { return metadata.persons }
        var seen = Set<String>()
        return (metadata.persons.filter { !overridden.contains($0) } + recognised).filter { seen.insert($0).inserted }
    }
    /// The faces to show: those the analysis found (with their people's names), then the file's
    /// own XMP face regions that stand for no found face (`FaceMatching`: a face the detector
    /// missed but the user tagged). Forgotten faces are left out.
    public var faces: [AssetFace] {
        let found = (analysis?.faces ?? []).filter { !$0.isForgotten }
        let tagged = metadata.faces.filter { r in FaceMatching.match(r, in: found) == nil }
        return found.map { AssetFace(x: $0.x, y: $0.y, w: $0.w, h: $0.h, name: $0.name, person: $0.person, source: .detected) }
            + tagged.map { AssetFace(x: $0.x, y: $0.y, w: $0.w, h: $0.h, name: $0.name, person: nil, source: .xmp) }
    }
    /// The file's own keywords (IPTC-IIM, embedded XMP), then its XMP sidecar's, each once in
    /// that order: a sidecar adds to what the camera or an earlier tool wrote, never hides it.
    public var keywords: [String] {
        var seen = Set<String>()
        return ((metadata.keywords ?? []) + (metadata.xmpSidecar?.keywords ?? [])).filter { seen.insert($0).inserted }
    }
    public var year: Int? { takenAt?.year }

    /// The capture time after every fallback: the file's metadata (EXIF, XMP, IPTC, container),
    /// else a date in its name, else EXIF's IFD0 `DateTime` (a modification date), else the file's
    /// modification time (a guess, and marked as one by its source) at this machine's UTC offset
    /// of that instant, so that it reads as the clock on the wall did.
    public var takenAt: CaptureDate? {
        if let t = metadata.takenAt, t.source != .filename { return t }
        if let t = FileNameDate.parse(name) { return t }
        if let t = metadata.modifiedAt { return t }
        let date = Date(timeIntervalSince1970: Double(mtimeNS) / 1e9)
        return CaptureDate(date: date, utcOffsetSeconds: Asset.localOffset(at: date), source: .mtime)
    }

    /// The local time zone's offset at `date` (TZ, else /etc/localtime; daylight saving as then).
    static func localOffset(at date: Date) -> Int {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var local = tm()
        guard localtime_r(&t, &local) != nil else { return 0 }
        return Int(local.tm_gmtoff)
    }

    enum CodingKeys: String, CodingKey {
        case id, path, state, size, mtimeNS = "mtime_ns", inode, sha256, kind, metadata
        case place, duplicateOf = "duplicate_of", livePhotoOf = "live_photo_of"
        case firstSeen = "first_seen", score, isUtility = "is_utility", similarGroup = "similar_group"
        case trash, featureFields = "features", analysis
    }
}
