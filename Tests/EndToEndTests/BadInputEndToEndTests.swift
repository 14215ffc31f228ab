import Foundation
import Testing
import TestSupport

/// Hostile and odd files: the scan finishes, each problem is one line naming the file,
/// good files are indexed, nothing outside the library is followed.
@Suite(.serialized)
struct BadInputEndToEndTests {
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)] }

    /// A PNG whose header claims width×height (a decompression bomb if anyone decoded it).
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func chunk(_ type: String, _ data: [UInt8]) {
            let body = Array(type.utf8) + data
            out += be32(UInt32(data.count)) + body + be32(crc32(body))
        }
        chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
        chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        chunk("IEND", [])
        return out
    }

    /// A real JPEG whose SOF claims 65000×65000 pixels.
    static func jpegBomb(from real: [UInt8]) -> [UInt8] {
        var b = real
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xFF else { break }
            let marker = b[i + 1]
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if (0xC0...0xC2).contains(marker) {
                b[i + 5] = 0xFD; b[i + 6] = 0xE8; b[i + 7] = 0xFD; b[i + 8] = 0xE8
                return b
            }
            i += 2 + length
        }
        return b
    }

    @Test func aScanFinishesAndNamesEveryBadFileOnce() throws {
        let sample = try TestRoll.sampleLibrary()
        let fm = FileManager.default
        let base = Scratch.root.appendingPathComponent("shoebox-bad-\(UUID().uuidString)")
        let lib = base.appendingPathComponent("library")
        try fm.createDirectory(at: lib.appendingPathComponent("Good"), withIntermediateDirectories: true)
        let goodJPEG = sample.entries.first { $0.format == "jpeg" && $0.kind == "photo" && $0.duplicate_of == nil }!
        let goodHEIC = sample.entries.first { $0.format == "heic" && $0.live_video == nil }!
        let jpeg = try [UInt8](Data(contentsOf: sample.root.appendingPathComponent(goodJPEG.path)))
        let heic = try [UInt8](Data(contentsOf: sample.root.appendingPathComponent(goodHEIC.path)))
        try Data(jpeg).write(to: lib.appendingPathComponent("Good/good.jpg"))
        try Data(heic).write(to: lib.appendingPathComponent("Good/good.heic"))

        // The catalogue of bad files, each with the words its error line must contain.
        var bad: [(name: String, words: String)] = []
        func put(_ name: String, _ bytes: [UInt8], _ words: String) throws {
            let url = lib.appendingPathComponent(name)
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
            bad.append((name, words))
        }
        try put("Bad/empty.jpg", [], "empty")
        try put("Bad/notes.jpg", Array("Shopping list\nmilk\neggs\n".utf8), "not a photo")
        try put("Bad/truncated-head.jpg", Array(jpeg.prefix(300)), "")
        try put("Bad/truncated-half.heic", Array(heic.prefix(heic.count / 2)), "")
        try put("Bad/bomb.png", Self.pngHeader(width: 100_000, height: 100_000), "megapixel")
        try put("Bad/bomb.jpg", Self.jpegBomb(from: jpeg), "megapixel")
        // Odd but good names are indexed.
        let odd = ["Odd/with space.jpg", "Odd/new\nline.jpg", "Odd/" + String(repeating: "é", count: 120) + ".jpg"]
        for name in odd {
            let url = lib.appendingPathComponent(name)
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(jpeg).write(to: url)
        }
        // A name that is not UTF-8: reported, not indexed under a mangled name.
        var latin1Bytes = Array(lib.path.utf8) + Array("/Odd/caf".utf8) + [0xE9] + Array(".jpg".utf8)
        latin1Bytes.append(0)
        let fd = latin1Bytes.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { open($0, O_CREAT | O_WRONLY, 0o644) }
        }
        #expect(fd >= 0)
        _ = jpeg.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        // Links are never followed: a loop, a link out of the library, a FIFO.
        try fm.createDirectory(atPath: lib.path + "/Links", withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: lib.path + "/Links/loop", withDestinationPath: "..")
        let outside = base.appendingPathComponent("outside")
        try fm.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data(jpeg).write(to: outside.appendingPathComponent("secret.jpg"))
        try fm.createSymbolicLink(atPath: lib.path + "/Links/outside", withDestinationPath: outside.path)
        try fm.createSymbolicLink(atPath: lib.path + "/Links/secret.jpg", withDestinationPath: outside.path + "/secret.jpg")
        #expect(mkfifo(lib.path + "/Links/pipe.jpg", 0o644) == 0)
        // Temporary names are not indexed and not complained about.
        try Data(jpeg).write(to: lib.appendingPathComponent("Good/download.jpg.part"))
        try Data(jpeg).write(to: lib.appendingPathComponent("Good/.hidden.jpg"))
        // An unreadable file (as root, the scan runs as nobody so that permissions apply).
        try put("Bad/locked.jpg", jpeg, "permission denied")
        let cli = ShoeboxCLI(library: lib)
        #expect(try cli.run(["init"]).status == 0)
        let asRoot = geteuid() == 0
        if asRoot {
            try TestRoll.run("/bin/chown", ["-R", "65534:65534", base.path])
            try TestRoll.run("/bin/chown", ["0:0", lib.path + "/Bad/locked.jpg"])
        }
        #expect(chmod(lib.path + "/Bad/locked.jpg", 0o000) == 0)

        let result = try runScan(cli, asNobody: asRoot)
        #expect(result.status == 0, "scan must finish: \(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(report["added"] as? Int == 2 + odd.count, "\(report)")
        let lines = result.stderrLines
        for b in bad {
            let shown = b.name.replacingOccurrences(of: "\n", with: "\\n")
            let hits = lines.filter { $0.contains(shown + ":") }
            #expect(hits.count == 1, "\(b.name) should be reported once, got \(hits) in \(lines)")
            if !b.words.isEmpty { #expect(hits.first?.contains(b.words) == true, "\(hits) should say \(b.words)") }
        }
        #expect(lines.filter { $0.contains("caf\\xe9.jpg") && $0.contains("UTF-8") }.count == 1, "\(lines)")
        #expect(lines.filter { $0.contains("pipe.jpg") }.isEmpty, "a FIFO is skipped quietly: \(lines)")
        #expect(lines.allSatisfy { !$0.isEmpty && !$0.contains("\n") })
        let listed = try cli.assetsByPath()
        #expect(listed.keys.allSatisfy { !$0.hasPrefix("Links/") && !$0.contains(".part") && !$0.contains(".hidden") })
        for name in odd { #expect(listed[name] != nil, "\(name) indexed") }
        #expect(listed.count == 2 + odd.count)
        // --verbose names each link and the FIFO as skipped.
        let verbose = try runScan(cli, asNobody: asRoot, extra: ["--verbose"])
        #expect(verbose.stderrLines.filter { $0.contains("skipped") && $0.contains("Links/") }.count == 4, "\(verbose.stderrLines)")
        try? fm.removeItem(at: base)
    }

    func runScan(_ cli: ShoeboxCLI, asNobody: Bool, extra: [String] = []) throws -> ShoeboxCLI.Result {
        guard asNobody else { return try cli.run(["scan", "--json"] + extra) }
        // The build folder may sit under a folder nobody cannot enter (/root): run a copy.
        let binary = cli.library.deletingLastPathComponent().appendingPathComponent("shoebox-bin")
        try ShoeboxCLI.placeBinaries(in: binary.deletingLastPathComponent(), name: binary.lastPathComponent)
        let r = try TestRoll.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                      binary.path, "scan", "--library", cli.library.path, "--json"] + extra,
                                 allowFailure: true)
        return ShoeboxCLI.Result(status: r.status, stdout: r.stdout, stderr: r.stderr)
    }

    @Test func anUnreadableFolderIsReportedNotTakenForDeleted() throws {
        let sample = try TestRoll.sampleCopy()
        let lib = sample.root
        let base = lib.deletingLastPathComponent()
        let cli = try ShoeboxCLI.scanned(sample)
        let before = try cli.assetsByPath()
        let asRoot = geteuid() == 0
        if asRoot { try TestRoll.run("/bin/chown", ["-R", "65534:65534", base.path]) }
        let folder = try #require(sample.entries.first { $0.path.hasPrefix("20") }.map { ($0.path as NSString).deletingLastPathComponent })
        #expect(chmod(lib.path + "/" + folder, 0o000) == 0)
        defer { chmod(lib.path + "/" + folder, 0o755) }
        let result = try runScan(cli, asNobody: asRoot)
        #expect(result.status == 0)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(report["removed"] as? Int == 0, "\(report)")
        #expect(result.stderrLines.filter { $0.contains(folder) && $0.contains("chmod") }.count == 1, "\(result.stderr)")
        #expect(try cli.assetsByPath().count == before.count)
    }

    @Test func aVanishedMountIsNotTakenForDeletedPhotos() throws {
        let roll = try TestRoll.standard()
        let cli = try ShoeboxCLI.scanned(roll)
        let before = try cli.assetsByPath()
        // Every year folder disappears at once, as when a disk is unmounted.
        let fm = FileManager.default
        let aside = roll.root.deletingLastPathComponent().appendingPathComponent("aside")
        try fm.createDirectory(at: aside, withIntermediateDirectories: true)
        let top = try fm.contentsOfDirectory(atPath: roll.root.path).filter { !$0.hasPrefix(".") }
        for name in top { try fm.moveItem(at: roll.root.appendingPathComponent(name), to: aside.appendingPathComponent(name)) }
        let refused = try cli.run(["scan"])
        #expect(refused.status == 1)
        #expect(refused.stderrLines.count == 1 && refused.stderr.contains("vanished"), "\(refused.stderr)")
        #expect(try cli.assetsByPath().count == before.count, "nothing marked missing")
        // Back again: nothing changed, same ids.
        for name in top { try fm.moveItem(at: aside.appendingPathComponent(name), to: roll.root.appendingPathComponent(name)) }
        let back = try cli.json(["scan"]) as! [String: Any]
        #expect(back["removed"] as? Int == 0)
        let after = try cli.assetsByPath()
        #expect(after.mapValues { $0["id"] as! String } == before.mapValues { $0["id"] as! String })
    }
}
