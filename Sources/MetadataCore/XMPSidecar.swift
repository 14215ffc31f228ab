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
}
