import Foundation

/// What an XMP sidecar file beside a photo (`IMG_0001.xmp` or `IMG_0001.CR2.xmp`, as digiKam,
/// darktable and Lightroom write them) adds to it. Stored in the photo's metadata with the
/// sidecar's size and modification time, so that a scan sees when the sidecar changed.
public struct XMPSidecar: Codable, Equatable, Sendable {
    /// The sidecar's path in the library.
    public var path: String
    public var size: Int64
    public var mtimeNS: Int64
    /// `xmp:Rating` (-1 rejected, 0…5 stars).
    public var rating: Int?
    /// `dc:subject`.
    public var keywords: [String]

    public init(path: String, size: Int64, mtimeNS: Int64, rating: Int? = nil, keywords: [String] = []) {
        self.path = path; self.size = size; self.mtimeNS = mtimeNS; self.rating = rating; self.keywords = keywords
    }

    /// The largest sidecar read: the XMP parser's own limit.
    public static var maximumSize: Int { XMP.maximumSize }

    /// Names a sidecar of `photo` (a path) may have, most specific first: darktable's and digiKam's
    /// `IMG_0001.CR2.xmp`, then Lightroom's `IMG_0001.xmp`, each in both cases.
    public static func candidates(for photo: String) -> [String] {
        let stem = (photo as NSString).deletingPathExtension
        return [photo + ".xmp", photo + ".XMP", stem + ".xmp", stem + ".XMP"]
    }

    /// True for a name that is an XMP sidecar (`.xmp`, any case).
    public static func isSidecarName(_ path: String) -> Bool {
        path.utf8.count > 4 && path.lowercased().hasSuffix(".xmp")
    }

    /// Merges the sidecar `packet` into `m`: the photo's own capture date and position win; the
    /// sidecar's people (names and face regions) are added, its place fills in or replaces the
    /// file's (a sidecar is where a user's edits go), its rating and keywords are kept.
    /// Returns false when the packet is not XMP Shoebox reads (nothing merged).
    public static func merge(_ packet: [UInt8], into m: inout MediaMetadata, stamp: XMPSidecar) -> Bool {
        guard let props = XMP.properties(packet) else { return false }
        let f = XMP.fields(props)
        m.takenAt = m.takenAt.flatMap { $0.source == .filename || $0.source == .mtime ? nil : $0 } ?? f.takenAt ?? m.takenAt
        m.gps = m.gps ?? f.gps
        m.persons = XMP.deduplicated(m.persons + f.persons)
        m.faces += f.faces.filter { !m.faces.contains($0) }
        if f.city != nil || f.country != nil { m.city = f.city; m.country = f.country }
        var s = stamp
        s.rating = f.rating
        s.keywords = f.keywords
        m.xmpSidecar = s
        return true
    }
}
