import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The bad-input catalogue of issue 5: every kind of hostile file in one folder. `scan` and
/// `watch` both finish, say something about each bad file exactly once (one line naming it),
/// index what is a photo after all, skip what is not a file quietly, and stay within bounded memory.
struct HostileCatalogue {
    enum Expect: Equatable {
        case oneLine          // truncated: one line; indexed when that line says "indexed anyway"
        case failed(String)   // one line with these words; not indexed
        case indexed          // a photo after all: indexed, nothing said
        case quiet            // not a regular file: skipped, nothing said
    }
    var entries: [(path: String, expect: Expect)] = []
    /// Truncated files written just now: `scan` says "not indexed until it is complete" at once;
    /// `watch` waits for them to settle (two minutes) before it judges them.
    var young: Set<String> = []

    static let sample = try! TestRoll.sampleLibrary()

    static func bytes(format: String, kind: String? = nil) throws -> [UInt8] {
        let e = sample.entries.first { $0.format == format && (kind == nil || $0.kind == kind) && $0.duplicate_of == nil }!
        return try [UInt8](Data(contentsOf: sample.root.appendingPathComponent(e.path)))
    }

    /// Writes the catalogue under `folder` (relative to `library`).
    static func write(into library: URL, folder: String = "Hostile") throws -> HostileCatalogue {
        let fm = FileManager.default
        let base = library.appendingPathComponent(folder)
        try fm.createDirectory(at: base, withIntermediateDirectories: true)
        var c = HostileCatalogue()
        let threeDaysAgo = Date().addingTimeInterval(-3 * 86400)
        func put(_ name: String, _ bytes: [UInt8], _ expect: Expect, old: Bool = true) throws {
            let url = base.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            if old { try fm.setAttributes([.modificationDate: threeDaysAgo], ofItemAtPath: url.path) }
            c.entries.append((folder + "/" + name, expect))
            if !old { c.young.insert(folder + "/" + name) }
        }
        let jpeg = try bytes(format: "jpeg", kind: "photo"), heic = try bytes(format: "heic")
        let png = try bytes(format: "png"), mov = try bytes(format: "mov")

        // Truncated at many offsets: inside the signature, the first box/segment, and at 10 %,
        // 50 %, 90 % and two bytes short of the end; settled (old) and just written (young).
        for (ext, whole) in [("jpg", jpeg), ("heic", heic), ("png", png), ("mov", mov)] {
            for cut in Set([1, 7, 64, whole.count / 10, whole.count / 2, whole.count * 9 / 10, whole.count - 2]).sorted() {
                try put("cut-\(ext)-\(cut)-old.\(ext)", Array(whole.prefix(cut)), .oneLine)
                try put("cut-\(ext)-\(cut)-young.\(ext)", Array(whole.prefix(cut)), .oneLine, old: false)
            }
        }
        try put("zero-bytes.jpg", [], .failed("empty"))
        // Wrong extensions: the content decides.
        try put("png-named.jpg", png, .indexed)
        try put("jpeg-named.heic", jpeg, .indexed)
        try put("movie-named.png", mov, .indexed)
        try put("text-named.jpg", Array("IMG_0001 — notes\nnot a photo\n".utf8), .failed("not a photo"))
        // Decompression bombs by header.
        try put("bomb-100000x100000.png", BadInputEndToEndTests.pngHeader(width: 100_000, height: 100_000), .failed("megapixel"))
        try put("bomb-65000x65000.jpg", BadInputEndToEndTests.jpegBomb(from: jpeg), .failed("megapixel"))
        // Metadata built to exhaust a parser: XMP nested 20,000 deep; an EXIF IFD claiming 65,535
        // entries, one of them 4 G values long. The photo is still a photo.
        try put("deep-xmp.jpg", withSegment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0".utf8)
            + Array(("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">" + String(repeating: "<a>", count: 20_000)).utf8).prefix(64_000), into: jpeg), .indexed)
        var tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0xFF, 0xFF]
        tiff += [0x01, 0x0F, 0, 2, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0x10]   // Make: ASCII × 4 G
        tiff += [0x87, 0x69, 0, 4, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0x08]   // Exif IFD pointing back at IFD0
        try put("huge-exif-counts.jpg", withSegment(0xE1, Array("Exif\0\0".utf8) + tiff + [UInt8](repeating: 0, count: 64), into: jpeg), .indexed)
        // Names: a newline, and bytes that are not UTF-8.
        try put("new\nline.jpg", jpeg, .indexed)
        var raw = Array(base.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".jpg\0".utf8)
        let fd = raw.withUnsafeMutableBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { open($0, O_CREAT | O_WRONLY | O_TRUNC, 0o644) }
        }
        _ = jpeg.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        c.entries.append((folder + "/caf\\xe9.jpg", .failed("UTF-8")))
        // Not regular files: link loops, a FIFO, a socket, a character device.
        try fm.createSymbolicLink(atPath: base.path + "/loop", withDestinationPath: ".")
        try fm.createSymbolicLink(atPath: base.path + "/ping.jpg", withDestinationPath: "pong.jpg")
        try fm.createSymbolicLink(atPath: base.path + "/pong.jpg", withDestinationPath: "ping.jpg")
        #expect(mkfifo(base.path + "/fifo.jpg", 0o644) == 0)
        c.entries += [(folder + "/loop", .quiet), (folder + "/ping.jpg", .quiet), (folder + "/pong.jpg", .quiet), (folder + "/fifo.jpg", .quiet)]
        let sock = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let sockPath = base.path + "/socket.jpg"
        if sockPath.utf8.count < MemoryLayout.size(ofValue: addr.sun_path) {
            withUnsafeMutableBytes(of: &addr.sun_path) { p in
                for (i, b) in sockPath.utf8.enumerated() { p[i] = b }
            }
            let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(sock, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            if bound == 0 { c.entries.append((folder + "/socket.jpg", .quiet)) }
        }
        close(sock)
        if geteuid() == 0, mknod(base.path + "/device.jpg", S_IFCHR | 0o644, makedev(1, 3)) == 0 {
            c.entries.append((folder + "/device.jpg", .quiet))
        }
        // Huge: 512 MiB, sparse, a JPEG start and no end. Streamed, never held in memory.
        let huge = base.appendingPathComponent("huge-sparse.jpg")
        try Data(jpeg.prefix(4096)).write(to: huge)
        #expect(truncate(huge.path, 512 << 20) == 0)
        try fm.setAttributes([.modificationDate: threeDaysAgo], ofItemAtPath: huge.path)
        c.entries.append((folder + "/huge-sparse.jpg", .oneLine))
        return c
    }

    static func makedev(_ major: UInt32, _ minor: UInt32) -> dev_t {
        dev_t((major & 0xfff) << 8 | (minor & 0xff) | ((minor & ~0xff) << 12))
    }

    /// `jpeg` with one more APPn segment right after SOI.
    static func withSegment(_ marker: UInt8, _ payload: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return Array(jpeg.prefix(2)) + [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + Array(jpeg.dropFirst(2))
    }

    /// The lines of `output` that name `path` as `path:`.
    static func lines(naming path: String, in output: [String]) -> [String] {
        let shown = path.replacingOccurrences(of: "\n", with: "\\n")
        return output.filter { $0.contains(shown + ":") }
    }

    /// Checks what was said and indexed against the catalogue; `judgingYoung` is false under
    /// `watch`, which holds young truncated files back without a word until they settle.
    func check(said output: [String], indexed: Set<String>, judgingYoung: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        for (path, expect) in entries {
            let hits = Self.lines(naming: path, in: output)
            let isIndexed = indexed.contains(path)
            switch expect {
            case .oneLine where young.contains(path) && !judgingYoung:
                #expect(hits.count <= 1 && !isIndexed, "\(path): held back while it may still be written, got \(hits)", sourceLocation: sourceLocation)
            case .oneLine:
                #expect(hits.count == 1, "\(path) should be named once, got \(hits)", sourceLocation: sourceLocation)
                let anyway = hits.first?.contains("indexed anyway") == true
                #expect(isIndexed == anyway, "\(path): indexed \(isIndexed), said \(hits)", sourceLocation: sourceLocation)
            case .failed(let words):
                #expect(hits.count == 1 && hits[0].contains(words), "\(path) should be named once saying \(words), got \(hits)", sourceLocation: sourceLocation)
                #expect(!isIndexed, "\(path) indexed", sourceLocation: sourceLocation)
            case .indexed:
                #expect(hits.isEmpty, "\(path): nothing to say, got \(hits)", sourceLocation: sourceLocation)
                #expect(isIndexed, "\(path) should be indexed", sourceLocation: sourceLocation)
            case .quiet:
                #expect(hits.isEmpty && !isIndexed, "\(path): skipped quietly, got \(hits)", sourceLocation: sourceLocation)
            }
        }
    }
}

@Suite(.serialized)
struct HostileCatalogueTests {
    static let memoryLimitKiB = 200 * 1024

    @Test func scanFinishesNamesEachBadFileOnceAndStaysSmall() throws {
        let sample = try TestRoll.sampleCopy()
        let cli = try ShoeboxCLI.scanned(sample)
        let before = try cli.assetsByPath().mapValues { $0["id"] as! String }
        let catalogue = try HostileCatalogue.write(into: sample.root)

        // One file keeps changing while the scan runs: it is indexed or named once, never twice.
        let changing = sample.root.appendingPathComponent("Hostile/changing.jpg")
        let jpeg = try HostileCatalogue.bytes(format: "jpeg", kind: "photo")
        try Data(jpeg).write(to: changing)
        let stop = StopFlag()
        let writer = Thread {
            var n = 0
            while !stop.isSet {
                if let h = try? FileHandle(forWritingTo: changing) {
                    try? h.seek(toOffset: UInt64(n % 4096 + 2))
                    try? h.write(contentsOf: Data([UInt8(n & 0xFF)]))
                    try? h.close()
                }
                n += 1
                usleep(200)
            }
        }
        writer.start()
        let r = try TestRoll.run("/usr/bin/time", ["-f", "peak-rss-kib %M", ShoeboxCLI.binary, "scan", "--library", sample.root.path, "--json"],
                                 allowFailure: true)
        stop.set()
        while !writer.isFinished { usleep(1000) }

        #expect(r.status == 0, "the scan finishes: \(r.stderr.suffix(2000))")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        let rss = lines.last { $0.hasPrefix("peak-rss-kib ") }.flatMap { Int($0.dropFirst(13)) } ?? Int.max
        #expect(rss < Self.memoryLimitKiB, "peak RSS \(rss) KiB")
        #expect(lines.allSatisfy { !$0.isEmpty })
        let indexed = try cli.assetsByPath()
        catalogue.check(said: lines, indexed: Set(indexed.keys), judgingYoung: true)
        #expect(HostileCatalogue.lines(naming: "Hostile/changing.jpg", in: lines).count <= 1, "\(lines.filter { $0.contains("changing") })")
        // Nothing outside the catalogue changed, and the good files keep their ids.
        for (path, id) in before { #expect(indexed[path]?["id"] as? String == id, "\(path)") }
        // A second scan says the same once more, and no more.
        let again = try cli.run(["scan"])
        #expect(again.status == 0)
        for (path, expect) in catalogue.entries where expect != .quiet && expect != .indexed && indexed[path] == nil {
            #expect(HostileCatalogue.lines(naming: path, in: again.stderrLines).count == 1, "\(path) on the second scan")
        }
        // `doctor` tells files that cannot be indexed from a stale index: only files that may still
        // be being written (the young truncated ones) count as not indexed.
        let doctor = try cli.run(["doctor"]).stdout.split(separator: "\n").map(String.init)
        func number(in line: String?, before words: String) -> Int? {
            guard let line, let r = line.range(of: words) else { return nil }
            return Int(line[..<r.lowerBound].split(separator: " ").last ?? "")
        }
        let notIndexed = number(in: doctor.first { $0.contains("index:") }, before: " files not indexed") ?? 0
        #expect(notIndexed <= catalogue.young.count, "\(doctor)")
        let failedCount = catalogue.entries.filter { if case .failed = $0.expect { return true } else { return false } }.count
        let unindexable = number(in: doctor.first { $0.hasPrefix("warning  unindexable") }, before: " file") ?? 0
        #expect(unindexable >= failedCount, "\(doctor)")
        try? FileManager.default.removeItem(at: sample.root.deletingLastPathComponent())
    }

    @Test(.timeLimit(.minutes(3)))
    func watchFinishesNamesEachBadFileOnceAndStaysSmall() throws {
        let sample = try TestRoll.sampleCopy()
        let cli = try ShoeboxCLI.scanned(sample)
        // Made beside the library, then moved in as one folder: the arrival `watch` sees.
        let staging = sample.root.deletingLastPathComponent().appendingPathComponent("staging")
        let catalogue = try HostileCatalogue.write(into: staging)
        let watch = try WatchProcess(cli)
        defer { watch.stop() }
        try watch.waitFor("watching")
        try FileManager.default.moveItem(at: staging.appendingPathComponent("Hostile"), to: sample.root.appendingPathComponent("Hostile"))
        // Settled when every photo among them is indexed and every settled bad file was named.
        let expectIndexed = catalogue.entries.filter { $0.expect == .indexed }.map(\.path)
        let deadline = Date().addingTimeInterval(60)
        var indexed: [String: [String: Any]] = [:]
        var said: [String] = []
        while Date() < deadline {
            indexed = try cli.assetsByPath()
            said = watch.text.split(separator: "\n").map(String.init)
            let named = catalogue.entries.filter { e in
                e.expect != .indexed && e.expect != .quiet && !catalogue.young.contains(e.path)
            }.allSatisfy { !HostileCatalogue.lines(naming: $0.path, in: said).isEmpty }
            if named && expectIndexed.allSatisfy({ indexed[$0] != nil }) { break }
            usleep(300_000)
        }
        usleep(1_500_000)   // a late second report would show now
        said = watch.text.split(separator: "\n").map(String.init)
        indexed = try cli.assetsByPath()
        let rss = watch.peakRSSKiB
        #expect(watch.isRunning, "watch still running: \(watch.text.suffix(2000))")
        #expect(watch.stop() == 0)
        catalogue.check(said: said, indexed: Set(indexed.keys), judgingYoung: false)
        #expect(rss > 0 && rss < Self.memoryLimitKiB, "peak RSS \(rss) KiB")
        try? FileManager.default.removeItem(at: sample.root.deletingLastPathComponent())
    }
}

final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

extension WatchProcess {
    /// VmHWM of the running process, in KiB (0 when it has exited).
    var peakRSSKiB: Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
}
