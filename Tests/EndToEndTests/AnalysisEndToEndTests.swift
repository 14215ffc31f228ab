import Foundation
import Testing
import TestSupport

/// `shoebox analyze` on a generated roll, through the command line as a user runs it: every
/// file gets upright thumbnails and a perceptual hash; the faces found match the roll's ground
/// truth; damage is said in one line and flagged; an interrupted run resumes; `cache clear`.
@Suite(.serialized) struct AnalysisEndToEndTests {
    /// The standard roll, scanned and analysed once for the tests that only read.
    nonisolated(unsafe) static let analysed: Result<(TestRoll.Made, ShoeboxCLI, [String: Any]), any Error> = Result {
        let made = try TestRoll.standard()
        let cli = try ShoeboxCLI.scanned(made)
        let report = try cli.json(["analyze"]) as! [String: Any]
        return (made, cli, report)
    }

    @Test func everyFileGetsUprightThumbnailsAndAPerceptualHash() throws {
        let (_, cli, report) = try Self.analysed.get()
        let assets = try cli.assetsByPath()
        #expect(report["analyzed"] as? Int ?? 0 >= assets.count)
        #expect(report["left"] as? Int == 0)
        for (path, a) in assets {
            #expect(a["analyzed"] as? Bool == true, "\(path) not analysed")
            let phash = a["phash"] as? String ?? ""
            #expect(phash.count == 16 && phash.allSatisfy(\.isHexDigit), "\(path): phash \(phash)")
            let id = a["id"] as! String, sha = a["sha256"] as! String
            let w = a["width"] as! Int, h = a["height"] as! Int
            for size in [256, 1024] {
                let thumb = cli.library.appendingPathComponent(".shoebox/thumbs/\(id.prefix(2))/\(id).\(sha.prefix(16)).\(size).jpg")
                let dims = try Self.imageSize(thumb)
                // At most `size`; the larger may be a little smaller (a camera JPEG decoded at 1/4 by the DCT).
                let long = max(dims.w, dims.h), wanted = min(size, max(w, h))
                #expect(long <= wanted && Double(long) >= 0.93 * Double(wanted), "\(path) \(size): \(dims)")
                // Upright: the thumbnail's shape is the asset's upright shape (a turned one would swap them).
                if w != h { #expect((dims.w > dims.h) == (w > h), "\(path) \(size): \(dims) for \(w)×\(h)") }
            }
        }
    }

    @Test func facesFoundMatchTheRollsGroundTruth() throws {
        let made = try TestRoll.make(seed: 22, count: 60, arguments: ["--portraits", "0.5"])
        let cli = try ShoeboxCLI.scanned(made)
        _ = try cli.json(["analyze"])
        let assets = try cli.assetsByPath()
        // Photos a person would call clear: the roll's heavy degradations (blur, noise or a flat
        // exposure at level 2–3) make faces that no detector is asked to find here.
        var truths = 0, found = 0, matched = 0
        for entry in made.entries where entry.kind == "photo" && (entry.degradation?.level ?? 0) <= 1 {
            guard let a = assets[entry.path] else { continue }
            let detected = (a["faces"] as? [[String: Any]] ?? []).filter { $0["source"] as? String == "detected" }
            let truth = entry.persons.map { p in (p.box[0] - p.box[2] / 2, p.box[1] - p.box[3] / 2, p.box[2], p.box[3]) }
            truths += truth.count
            found += detected.count
            for t in truth where detected.contains(where: { Self.iou(t, Self.box($0)) >= 0.5 }) { matched += 1 }
        }
        #expect(truths >= 10, "the roll should hold portraits")
        let recall = Double(matched) / Double(max(1, truths)), precision = Double(matched) / Double(max(1, found))
        #expect(recall >= 0.9, "recall \(recall): \(matched) of \(truths)")
        #expect(precision >= 0.9, "precision \(precision): \(matched) of \(found) found")
    }

    @Test func aDamagedPhotoIsFlaggedInOneLineAndTheRestGoesOn() throws {
        let made = try TestRoll.make(seed: 31, count: 6, arguments: ["--no-heic"])
        let cli = try ShoeboxCLI.scanned(made)
        let jpeg = made.entries.first { $0.format == "jpeg" && $0.kind == "photo" }!
        // Corrupt the entropy-coded data (the middle of the file), keeping size and headers.
        let url = made.root.appendingPathComponent(jpeg.path)
        var bytes = [UInt8](try Data(contentsOf: url))
        for i in stride(from: bytes.count / 2, to: bytes.count / 2 + 4000, by: 7) { bytes[i] = 0xFF; bytes[i + 1] = 0xD9 &- UInt8(i % 3) }
        try Data(bytes).write(to: url)
        #expect(try cli.run(["scan"]).status == 0)
        let r = try cli.run(["analyze"])
        #expect(r.status == 0)
        let lines = r.stderrLines.filter { $0.contains(jpeg.path) }
        #expect(lines.count == 1, "\(r.stderr)")
        let a = try cli.assetsByPath()[jpeg.path]!
        #expect(a["damaged"] as? Bool == true)
        #expect(a["analyzed"] as? Bool == true)
        let others = try cli.assetsByPath().filter { $0.key != jpeg.path }
        #expect(others.values.allSatisfy { $0["analyzed"] as? Bool == true && $0["damaged"] as? Bool == false })
    }

    @Test func anInterruptedRunResumesWithWhatIsLeft() throws {
        let made = try TestRoll.make(seed: 32, count: 60, arguments: ["--no-heic"])
        let cli = try ShoeboxCLI.scanned(made)
        let total = try cli.assetsByPath().count
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ShoeboxCLI.binary)
        p.arguments = ["analyze", "--library", cli.library.path]
        p.standardError = FileHandle.nullDevice
        try p.run()
        var analysed = 0
        let deadline = Date().addingTimeInterval(120)
        while analysed == 0 && Date() < deadline {
            usleep(50_000)
            analysed = try cli.assetsByPath().values.filter { $0["analyzed"] as? Bool == true }.count
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        analysed = try cli.assetsByPath().values.filter { $0["analyzed"] as? Bool == true }.count
        #expect(analysed > 0)
        withKnownIssue("the killed run finished before the kill landed", isIntermittent: true) {
            #expect(analysed < total)
        }
        let second = try cli.json(["analyze"]) as! [String: Any]
        #expect(second["analyzed"] as? Int ?? -1 <= total - analysed + 2)  // the rest (a live half or two aside)
        #expect(try cli.assetsByPath().values.allSatisfy { $0["analyzed"] as? Bool == true })
        let third = try cli.json(["analyze"]) as! [String: Any]
        #expect(third["analyzed"] as? Int == 0)
    }

    /// Issue 28: every long-running face stops within a second of SIGINT/SIGTERM. Ctrl-C in
    /// `analyze` once killed it outright (the finished files in memory lost, nothing said); now
    /// it stores what is done, says so, and exits 130 as an interrupted command does.
    @Test func ctrlCStoresWhatIsDoneAndStopsAtOnce() throws {
        let cli = try ShoeboxCLI.scanned(try TestRoll.standard())
        defer { try? FileManager.default.removeItem(at: cli.library.deletingLastPathComponent()) }
        let out = cli.library.deletingLastPathComponent().appendingPathComponent("analyze.json")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ShoeboxCLI.binary)
        p.arguments = ["analyze", "--json", "--library", cli.library.path]
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(120)
        while try cli.assetsByPath().values.allSatisfy({ $0["analyzed"] as? Bool != true }) && Date() < deadline {
            usleep(50_000)
        }
        let asked = Date()
        kill(p.processIdentifier, SIGINT)
        while p.isRunning && Date().timeIntervalSince(asked) < 60 { usleep(20_000) }
        let took = Date().timeIntervalSince(asked)
        #expect(!p.isRunning && took < 5, "analyze took \(String(format: "%.1f", took)) s to stop after SIGINT")
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == 130, "\(p.terminationReason.rawValue) \(p.terminationStatus)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [String: Any]
        let assets = try cli.assetsByPath().values
        let analysed = assets.filter { $0["analyzed"] as? Bool == true }.count
        #expect((report?["analyzed"] as? Int ?? 0) > 0, "the interrupted run said nothing of what it stored: \(report ?? [:])")
        #expect((report?["left"] as? Int ?? 0) > 0 && analysed < assets.count, "everything was analysed before the stop")
        #expect(try cli.run(["analyze"]).status == 0)
        #expect(try cli.assetsByPath().values.allSatisfy { $0["analyzed"] as? Bool == true })
    }

    /// A file changed since the last scan, and a fifo put in a photo's place (nothing is
    /// watching): `analyze --wait` analyses the rest, names each of the two in one line and
    /// returns — it once waited for them forever, and a fifo held a worker in `open`.
    @Test func waitReturnsWithFilesItCannotAnalyseNamed() throws {
        let made = try TestRoll.make(seed: 34, count: 6, arguments: ["--no-heic"])
        let cli = try ShoeboxCLI.scanned(made)
        let photos = made.entries.filter { $0.kind == "photo" && $0.format == "jpeg" }.map(\.path)
        let changed = photos[0], fifo = photos[1]
        let handle = try FileHandle(forWritingTo: made.root.appendingPathComponent(changed))
        handle.seekToEndOfFile()
        handle.write(Data(repeating: 0, count: 100))
        try handle.close()
        try FileManager.default.removeItem(at: made.root.appendingPathComponent(fifo))
        #expect(mkfifo(made.root.appendingPathComponent(fifo).path, 0o644) == 0)
        let started = Date()
        let r = try TestRoll.run("/usr/bin/timeout", ["120", ShoeboxCLI.binary, "analyze", "--wait", "--json", "--library", cli.library.path],
                                 environment: ProcessInfo.processInfo.environment.filter { $0.key != "SHOEBOX_LIBRARY" }, allowFailure: true)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Date().timeIntervalSince(started) < 60, "analyze --wait took \(Date().timeIntervalSince(started)) s")
        for path in [changed, fifo] {
            let lines = r.stderr.split(separator: "\n").filter { $0.contains(path) }
            #expect(lines.count == 1 && lines.allSatisfy { $0.contains("not analysed") }, "\(path): \(r.stderr)")
        }
        let report = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect(report["left"] as? Int == 2)
        #expect((report["problems"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }.sorted() == [changed, fifo].sorted())
        let assets = try cli.assetsByPath()
        #expect(assets.filter { $0.value["analyzed"] as? Bool != true }.keys.sorted() == [changed, fifo].sorted())
        // After a scan the changed file is analysed; the fifo is no longer a photo of the library.
        #expect(try cli.run(["scan"]).status == 0)
        let again = try cli.json(["analyze", "--wait"]) as! [String: Any]
        #expect(again["left"] as? Int == 0)
        #expect(try cli.assetsByPath()[changed]?["analyzed"] as? Bool == true)
    }

    @Test func cacheClearEmptiesTheThumbnailsAndTheyAreMadeAgainOnDemand() throws {
        let made = try TestRoll.make(seed: 33, count: 5, arguments: ["--no-heic"])
        let cli = try ShoeboxCLI.scanned(made)
        _ = try cli.json(["analyze"])
        let thumbs = cli.library.appendingPathComponent(".shoebox/thumbs")
        #expect(try Self.files(under: thumbs).count >= 10)
        let r = try cli.run(["cache", "clear"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Removed"))
        #expect(try Self.files(under: thumbs).isEmpty)
        // The analysis itself stays: faces and hashes are in the sidecars and the index.
        #expect(try cli.assetsByPath().values.allSatisfy { $0["analyzed"] as? Bool == true })
        // On demand: the path of a thumbnail, made again when asked for.
        let some = try cli.assetsByPath().values.first!
        let asked = try cli.run(["cache", "thumbnail", some["id"] as! String, "--size", "1024"])
        #expect(asked.status == 0, "\(asked.stderr)")
        let path = asked.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(path.hasSuffix(".1024.jpg") && FileManager.default.fileExists(atPath: path))
        #expect(try Self.files(under: thumbs).count == 2)  // both sizes from the one decode
        #expect(try cli.run(["cache", "thumbnail", some["id"] as! String, "--size", "300"]).status == 1)
    }

    // MARK: Helpers

    static func box(_ f: [String: Any]) -> (Double, Double, Double, Double) {
        (f["x"] as! Double, f["y"] as! Double, f["w"] as! Double, f["h"] as! Double)
    }

    static func iou(_ a: (Double, Double, Double, Double), _ b: (Double, Double, Double, Double)) -> Double {
        let ix = max(0, min(a.0 + a.2, b.0 + b.2) - max(a.0, b.0)), iy = max(0, min(a.1 + a.3, b.1 + b.3) - max(a.1, b.1))
        let inter = ix * iy
        return inter / (a.2 * a.3 + b.2 * b.3 - inter)
    }

    /// Width and height of an image file, as ImageMagick's `identify` reads them.
    static func imageSize(_ url: URL) throws -> (w: Int, h: Int) {
        let r = try TestRoll.run("/usr/bin/identify", ["-format", "%w %h", url.path])
        let parts = r.stdout.split(separator: " ").compactMap { Int($0) }
        return (parts[0], parts[1])
    }

    static func files(under url: URL) throws -> [String] {
        guard let e = FileManager.default.enumerator(atPath: url.path) else { return [] }
        return e.compactMap { $0 as? String }.filter { $0.hasSuffix(".jpg") }
    }
}
