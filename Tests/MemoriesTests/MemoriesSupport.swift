import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The roll the memories tests share: a few hundred photos over ten years and fourteen places,
/// 40 % of them portraits of Ana and Tom (named in their files' XMP), scanned and analysed once
/// per test process (faces, people, scores, previews: ~1 min). Tests that only read use it as
/// it is; a test that writes gets its own copy (`writableCopy`).
struct MemoryRoll: Sendable {
    let made: TestRoll.Made
    let cli: ShoeboxCLI

    static let shared: Result<MemoryRoll, Failure> = {
        do {
            let made = try TestRoll.make(seed: 41, count: 240, arguments: ["--portraits", "0.4", "--long-side", "1024"])
            let cli = try ShoeboxCLI.scanned(made)
            let r = try cli.run(["analyze"])
            guard r.status == 0 else { throw Failure("analyze failed: \(r.stderr)") }
            return .success(MemoryRoll(made: made, cli: cli))
        } catch {
            return .failure(Failure("the memories roll: \(error)"))
        }
    }()

    static func get() throws -> MemoryRoll { try shared.get() }

    var root: URL { made.root }

    /// A copy a test may write to: the originals hard-linked (same inode, size and date, so the
    /// index still describes them), `.shoebox/` and album links copied. SQLite's `-wal` and
    /// `-shm` files are left behind: other tests' readers open and close them meanwhile, and the
    /// analysis that wrote the index checkpointed everything into it.
    func writableCopy() throws -> MemoryRoll {
        let fm = FileManager.default
        let copy = Scratch.root.appendingPathComponent("shoebox-memories-\(UUID().uuidString)/roll")
        try fm.createDirectory(at: copy, withIntermediateDirectories: true)
        let walk = fm.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey, .isSymbolicLinkKey])!
        while let url = walk.nextObject() as? URL {
            let rel = String(url.path.dropFirst(root.path.count + 1))
            if rel.hasPrefix(".shoebox/index.sqlite-") { continue }
            let values = try url.resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey])
            let target = copy.appendingPathComponent(rel)
            if values.isSymbolicLink == true || rel.hasPrefix(".shoebox/") {
                if values.isDirectory == true && values.isSymbolicLink != true { try fm.createDirectory(at: target, withIntermediateDirectories: true) }
                else { try fm.copyItem(at: url, to: target) }
            } else if values.isDirectory == true {
                try fm.createDirectory(at: target, withIntermediateDirectories: true)
            } else {
                try fm.linkItem(at: url, to: target)
            }
        }
        return MemoryRoll(made: TestRoll.Made(root: copy, entries: made.entries), cli: ShoeboxCLI(library: copy))
    }

    /// Photos a memory may use, by the manifest: photos (not screenshots or documents), not
    /// byte-identical copies.
    var eligible: [RollEntry] { made.entries.filter { $0.kind == "photo" && $0.duplicate_of == nil && !$0.is_utility } }

    /// `memories collage … --json`, which must succeed.
    func collage(_ args: [String], env: [String: String] = [:]) throws -> [String: Any] {
        let r = try cli.run(["memories", "collage"] + args + ["--json"], extraEnvironment: env)
        guard r.status == 0 else { throw Failure("memories collage \(args) failed (\(r.status)): \(r.stderr)") }
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
    }

    /// The cells of a collage's JSON: path and crop (x, y, w, h).
    static func cells(_ json: [String: Any]) -> [(path: String, id: String, crop: [Double])] {
        (json["cells"] as? [[String: Any]] ?? []).map { c in
            let crop = c["crop"] as! [String: Any]
            return (c["path"] as! String, c["asset_id"] as! String, ["x", "y", "w", "h"].map { (crop[$0] as! NSNumber).doubleValue })
        }
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// A scratch folder outside any library.
func scratchFolder() throws -> URL {
    let url = Scratch.root.appendingPathComponent("shoebox-memories-out-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Every file under `root` (relative paths), `.shoebox/` aside.
func files(under root: URL) -> Set<String> {
    var out = Set<String>()
    let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    while let url = e?.nextObject() as? URL {
        let rel = String(url.path.dropFirst(root.path.count + 1))
        if !rel.hasPrefix(".shoebox") { out.insert(rel) }
    }
    return out
}

/// Raw 8-bit RGB through ImageMagick: `arguments` applied to `file`, then written as `rgb:`.
func magickRGB(_ file: String, _ arguments: [String]) throws -> [UInt8] {
    let raw = Scratch.root.appendingPathComponent("shoebox-memories-\(UUID().uuidString).rgb")
    defer { try? FileManager.default.removeItem(at: raw) }
    try TestRoll.run("/usr/bin/convert", [file] + arguments + ["-depth", "8", "rgb:" + raw.path])
    return [UInt8](try Data(contentsOf: raw))
}
