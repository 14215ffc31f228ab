import Foundation

/// Small photos made the way a user's tools make them: ImageMagick draws the pixels, exiftool
/// writes the metadata (EXIF, XMP, IPTC-IIM), so tests read what real writers produce.
public enum ExiftoolFiles {
    public static let exiftool = ["/usr/bin/exiftool", "/usr/local/bin/exiftool"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    static let convert = ["/usr/bin/convert", "/usr/local/bin/convert"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    public static var available: Bool { exiftool != nil && convert != nil }

    /// A fresh folder for a test's files.
    public static func folder() throws -> URL {
        let dir = Scratch.root.appendingPathComponent("shoebox-exiftool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A grey JPEG of `width`×`height` at `url` with `tags` (exiftool assignments such as
    /// `-IPTC:City=Lyon`) written by exiftool; none when `tags` is empty.
    @discardableResult
    public static func jpeg(_ url: URL, width: Int = 64, height: Int = 48, tags: [String]) throws -> URL {
        try TestRoll.run(convert!, ["-size", "\(width)x\(height)", "xc:gray", url.path])
        if !tags.isEmpty { try write(tags, to: url) }
        return url
    }

    /// exiftool's assignments written in place (no `_original` copy left beside the file).
    public static func write(_ tags: [String], to url: URL) throws {
        try TestRoll.run(exiftool!, ["-q", "-overwrite_original", "-P"] + tags + [url.path],
                         environment: ["TZ": "UTC", "PATH": "/usr/bin:/bin"])
    }
}
