import Foundation
import PhotoLibrary
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A scanned roll with `curate` helpers: the built binary for every command, and scores given
/// in-process through the library's writer (the scores are curation's input; the scorer is
/// tested on its own).
struct Curating {
    let made: TestRoll.Made
    let cli: ShoeboxCLI

    /// The roll of the album tests: a Live Photo, videos, a byte-identical copy and an edited
    /// copy (each with its original's capture time), 800 px photos.
    static func roll() throws -> Curating {
        let made = try TestRoll.make(seed: 5, count: 24, arguments: ["--videos", "2", "--live", "1", "--portraits", "0.5", "--long-side", "800"])
        return Curating(made: made, cli: try ShoeboxCLI.scanned(made))
    }

    var root: URL { made.root }

    /// Assets of `list --json`, by path.
    func assets() throws -> [String: [String: Any]] { try cli.assetsByPath() }

    func id(_ path: String) throws -> String {
        guard let id = try assets()[path]?["id"] as? String else { throw Failure("\(path) is not listed") }
        return id
    }

    /// `curate list --json`.
    func list() throws -> [[String: Any]] {
        guard let items = try cli.json(["curate", "list"]) as? [[String: Any]] else { throw Failure("curate list --json is not an array") }
        return items
    }

    func listedIDs() throws -> [String] { try list().map { $0["id"] as! String } }
    func selectedIDs() throws -> Set<String> { Set(try list().filter { $0["selected"] as? Bool == true }.map { $0["id"] as! String }) }

    /// Sets scores (nil: none) through the library's writer, holding the writer lock.
    func setScores(_ scores: [String: Double?]) throws {
        let library = Library(root: root)
        let lock = try LibraryLock(library: library)
        try withExtendedLifetime(lock) {
            let writer = AssetWriter(library: library, index: try Index(library: library))
            let ids = scores.keys.compactMap(AssetID.init)
            try writer.update(ids) { a in a.score = scores[a.id.rawValue] ?? nil }
        }
    }

    /// `curate add` that must succeed.
    func add(_ refs: [String]) throws {
        let r = try cli.run(["curate", "add"] + refs)
        guard r.status == 0 else { throw Failure("curate add failed (\(r.status)): \(r.stderr)") }
    }

    /// Photos of the roll that stand for themselves (not a Live Photo's movie, not a video).
    var photos: [String] { made.entries.filter { $0.kind == "photo" && $0.live_photo_of == nil }.map(\.path) }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// The expected curation order, worked out from `list --json` fields: score descending (none
/// last), then capture time ascending, then id.
func expectedOrder(_ items: [[String: Any]]) -> [String] {
    func epoch(_ a: [String: Any]) -> Double? {
        // Capture times with sub-seconds ("…T10:15:03.25+01:00") need the fractional form.
        let plain = ISO8601DateFormatter(), fractional = ISO8601DateFormatter()
        fractional.formatOptions.insert(.withFractionalSeconds)
        return (a["taken_at"] as? String).flatMap { (plain.date(from: $0) ?? fractional.date(from: $0))?.timeIntervalSince1970 }
    }
    return items.sorted { a, b in
        let sa = a["score"] as? Double, sb = b["score"] as? Double
        if sa != sb {
            guard let sa else { return false }
            guard let sb else { return true }
            return sa > sb
        }
        let ta = epoch(a), tb = epoch(b)
        if ta != tb {
            guard let ta else { return false }
            guard let tb else { return true }
            return ta < tb
        }
        return (a["id"] as! String) < (b["id"] as! String)
    }.map { $0["id"] as! String }
}

func inode(_ url: URL) -> UInt64? {
    var st = stat()
    guard lstat(url.path, &st) == 0 else { return nil }
    return UInt64(st.st_ino)
}

func tempFolder(_ name: String) throws -> URL {
    let url = Scratch.root.appendingPathComponent("shoebox-curate-\(UUID().uuidString)/\(name)")
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    return url
}
