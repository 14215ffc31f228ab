import Foundation
import TestSupport
import XCTest

/// A small library of photos made for the composer's tests, with `compose` run through the built
/// binary, and references built independently by ImageMagick (`-auto-orient`, fill-crop, `-append`).
struct Composing {
    let root: URL
    let cli: ShoeboxCLI
    /// Where exports go (outside the library).
    let out: URL

    static let convert = "/usr/bin/convert"
    static let compare = "/usr/bin/compare"

    /// The repository's photos, 1440 px on their long side, made into the cases a user has: a
    /// landscape JPEG, JPEGs stored turned with EXIF orientation 6, 8 and 3 (upright they are
    /// landscape), a portrait PNG, and a HEIC from heif-enc. `init` and `scan` run on them.
    static func library() throws -> Composing {
        let dir = Scratch.root.appendingPathComponent("shoebox-compose-\(UUID().uuidString)")
        let root = dir.appendingPathComponent("library"), out = dir.appendingPathComponent("out")
        for d in [root, out] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        let photos = TestRoll.repositoryRoot.appendingPathComponent("test-data/photos")
        func source(_ name: String) -> String { photos.appendingPathComponent(name).path }
        func im(_ args: [String]) throws { try TestRoll.run(convert, args) }
        try im([source("kite.jpg"), "-resize", "1440x1440", "-quality", "92", root.appendingPathComponent("wide.jpg").path])
        // Stored turned the other way round, so the tag turns them back upright.
        for (name, turn, tag) in [("r6.jpg", "-90", 6), ("r8.jpg", "90", 8), ("r3.jpg", "180", 3)] {
            let file = root.appendingPathComponent(name)
            let from = ["r6.jpg": "colorfulcups.jpg", "r8.jpg": "path.jpg", "r3.jpg": "eveningglow.jpg"][name]!
            try im([source(from), "-resize", "1440x1440", "-rotate", turn, "-quality", "92", file.path])
            try ExiftoolFiles.write(["-n", "-Orientation=\(tag)"], to: file)
        }
        try im([source("bythewater.jpg"), "-resize", "x1440", "-gravity", "center", "-crop", "960x1440+0+0", "+repage",
                root.appendingPathComponent("tall.png").path])
        let png = dir.appendingPathComponent("heic-source.png")
        try im([source("summer_1am.jpg"), "-resize", "1440x1440", png.path])
        try TestRoll.run("/usr/bin/heif-enc", ["-q", "90", png.path, "-o", root.appendingPathComponent("photo.heic").path])
        let cli = ShoeboxCLI(library: root)
        for step in [["init"], ["scan"]] {
            let r = try cli.run(step)
            guard r.status == 0 else { throw Failure("shoebox \(step) failed: \(r.stderr)") }
        }
        return Composing(root: root, cli: cli, out: out)
    }

    func file(_ name: String) -> URL { root.appendingPathComponent(name) }

    /// `compose …` that must succeed.
    @discardableResult
    func ok(_ args: [String]) throws -> ShoeboxCLI.Result {
        let r = try cli.run(["compose"] + args)
        guard r.status == 0 else { throw Failure("compose \(args) failed (\(r.status)): \(r.stderr)") }
        return r
    }

    /// `compose list --json`.
    func draft() throws -> [[String: Any]] {
        guard let items = try cli.json(["compose", "list"]) as? [[String: Any]] else { throw Failure("compose list --json is not an array") }
        return items
    }

    func draftPaths() throws -> [String] { try draft().map { $0["path"] as! String } }

    /// Exports the draft to `name` in `out`; returns the file.
    func export(_ name: String, extra: [String] = []) throws -> URL {
        let file = out.appendingPathComponent(name)
        try ok(["export", "-o", file.path] + extra)
        return file
    }

    /// The story decoded by libheif's own tool, as a PNG beside it.
    static func decoded(_ heic: URL) throws -> URL {
        let png = heic.deletingPathExtension().appendingPathExtension("decoded.png")
        try TestRoll.run("/usr/bin/heif-convert", [heic.path, png.path])
        return png
    }

    /// ImageMagick's fill crop of `source` into a `width`×`height` band: upright by its EXIF
    /// orientation, scaled to cover the band, the surplus cut at `gravity`.
    static func reference(_ source: URL, width: Int, height: Int, gravity: String = "center", to png: URL) throws {
        try TestRoll.run(convert, [source.path, "-auto-orient", "-resize", "\(width)x\(height)^", "-gravity", gravity,
                                   "-extent", "\(width)x\(height)", "+repage", png.path])
    }

    /// Band `i` of `n` (rows i·1920/n ..< (i+1)·1920/n) of the decoded story.
    static func band(_ story: URL, _ i: Int, of n: Int, to png: URL) throws {
        let top = i * 1920 / n, height = (i + 1) * 1920 / n - top
        try TestRoll.run(convert, [story.path, "-crop", "1080x\(height)+0+\(top)", "+repage", png.path])
    }

    /// ImageMagick's PSNR of `a` against `b` in dB (identical images: infinity).
    static func psnr(_ a: URL, _ b: URL) throws -> Double {
        // `compare` exits 1 when the images differ, and writes the metric on stderr.
        let r = try TestRoll.run(compare, ["-metric", "PSNR", a.path, b.path, "null:"], allowFailure: true)
        let text = r.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        if text == "inf" { return .infinity }
        guard let value = Double(text.split(separator: " ").first ?? "") else { throw Failure("compare printed \(text)") }
        return value
    }

    /// Each band of `story` against ImageMagick's reference from its photo: the PSNRs, top first.
    static func bandPSNRs(_ story: URL, sources: [URL]) throws -> [Double] {
        let decoded = try decoded(story)
        let n = sources.count
        return try sources.enumerated().map { i, source in
            let height = (i + 1) * 1920 / n - i * 1920 / n
            let ref = story.deletingLastPathComponent().appendingPathComponent("ref-\(n)-\(i).png")
            let band = story.deletingLastPathComponent().appendingPathComponent("band-\(n)-\(i).png")
            try reference(source, width: 1080, height: height, to: ref)
            try Composing.band(decoded, i, of: n, to: band)
            return try psnr(band, ref)
        }
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
