import Foundation
import Testing
import TestSupport

/// `shoebox` runs the commands that decode no photo without loading a pixel library, hands those
/// that read files' headers to `shoebox-readers` and every other command line to `shoebox-pixels`
/// beside it (docs/ARCHITECTURE.md, "Three executables").
@Suite struct TwoExecutablesTests {
    static let pixelLibraries = ["libopencv_", "libdlib", "libtesseract", "libavcodec", "libavformat"]

    static func sharedLibraries(_ binary: String) throws -> [String] {
        try TestRoll.run("/usr/bin/ldd", [binary]).stdout.split(separator: "\n").map {
            String($0.trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
    }

    /// The image codecs (and XML parser) behind Metadata's readers: `shoebox` reads no file's
    /// headers itself (it mapped 48 libraries before main with them, 23 without).
    static let codecLibraries = linkedCodecs + codecsOpenedOnFirstUse
    /// Linked into `shoebox-readers`: what nearly every photo needs.
    static let linkedCodecs = ["libturbojpeg", "libpng", "libxml2", "libexif", "libiptcdata"]
    /// libheif (with libde265), libtiff and LibRaw: opened by `CLazyCodecs` when the first HEIC,
    /// TIFF or camera raw file is read, not mapped at every start of the readers.
    static let codecsOpenedOnFirstUse = ["libheif", "libde265", "libtiff", "libraw"]
    /// Linked into `shoebox-pixels` for Imaging's decoders (LibRaw only through Metadata).
    static let pixelCodecs = linkedCodecs + ["libheif", "libde265", "libtiff"]

    static var pixels: String { (ShoeboxCLI.binary as NSString).deletingLastPathComponent + "/shoebox-pixels" }
    static var readers: String { (ShoeboxCLI.binary as NSString).deletingLastPathComponent + "/shoebox-readers" }

    /// The commands that read headers run in a binary with the codecs and no pixel library: a
    /// scan no longer starts OpenCV, dlib, Tesseract, FFmpeg and OpenBLAS's threads (issue 33).
    @Test func theReadersBinaryLoadsTheCodecsButNoPixelLibrary() throws {
        let readers = try Self.sharedLibraries(Self.readers)
        let full = try Self.sharedLibraries(Self.pixels)
        for prefix in Self.pixelLibraries + ["libopenblas", "libblas"] {
            #expect(!readers.contains { $0.hasPrefix(prefix) }, "shoebox-readers loads \(prefix)…: \(readers)")
        }
        for prefix in Self.linkedCodecs {
            #expect(readers.contains { $0.hasPrefix(prefix) }, "shoebox-readers should load \(prefix)…")
        }
        for prefix in Self.codecsOpenedOnFirstUse {
            #expect(!readers.contains { $0.hasPrefix(prefix) }, "shoebox-readers maps \(prefix)… at every start: \(readers)")
        }
        #expect(readers.count * 3 < full.count, "shoebox-readers \(readers.count) libraries, shoebox-pixels \(full.count)")
    }

    /// What the readers open on first use is opened when a file needs it: a HEIC (libheif) and a
    /// TIFF (libtiff) are read by `scan` as before (camera raw files through LibRaw: `RAWFileTests`).
    @Test func theCodecsOpenedOnFirstUseReadTheirFiles() throws {
        let made = try TestRoll.sampleCopy()
        let fm = FileManager.default
        let extra = made.root.appendingPathComponent("Lazy codecs")
        try fm.createDirectory(at: extra, withIntermediateDirectories: true)
        try fm.copyItem(atPath: TestRoll.repositoryRoot.appendingPathComponent("test-data/photos/coffee.tif").path,
                        toPath: extra.appendingPathComponent("coffee.tif").path)
        let cli = try ShoeboxCLI.scanned(made)
        let assets = try cli.assetsByPath()
        let heic = try #require(assets.first { $0.key.hasSuffix(".HEIC") }?.value, "no HEIC in the sample library")
        #expect((heic["width"] as? Int ?? 0) > 0 && (heic["height"] as? Int ?? 0) > 0, "\(heic)")
        #expect(heic["format"] as? String == "heic")
        let tiff = try #require(assets["Lazy codecs/coffee.tif"], "the TIFF was not indexed: \(assets.keys.sorted())")
        #expect(tiff["format"] as? String == "tiff")
        #expect(tiff["make"] as? String == "Nikon", "\(tiff)")
    }

    @Test func theCommandLinePeopleTypeLoadsNoPixelLibrary() throws {
        let light = try Self.sharedLibraries(ShoeboxCLI.binary)
        let full = try Self.sharedLibraries(Self.pixels)
        for prefix in Self.pixelLibraries {
            #expect(!light.contains { $0.hasPrefix(prefix) }, "shoebox loads \(prefix)…: \(light)")
            #expect(full.contains { $0.hasPrefix(prefix) }, "shoebox-pixels should load \(prefix)…")
        }
        #expect(light.count * 3 < full.count, "shoebox \(light.count) libraries, shoebox-pixels \(full.count)")
    }

    @Test func theCommandLinePeopleTypeLoadsNoImageCodec() throws {
        let light = try Self.sharedLibraries(ShoeboxCLI.binary)
        let full = try Self.sharedLibraries(Self.pixels)
        for prefix in Self.codecLibraries {
            #expect(!light.contains { $0.hasPrefix(prefix) }, "shoebox loads \(prefix)…: \(light)")
        }
        for prefix in Self.pixelCodecs {
            #expect(full.contains { $0.hasPrefix(prefix) }, "shoebox-pixels should load \(prefix)…")
        }
    }

    /// With `shoebox-pixels` out of reach, the everyday commands still run — in `shoebox` itself —
    /// and print what `shoebox-pixels` prints for them.
    @Test func everydayCommandsRunWithoutThePixelBinary() throws {
        var cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        let id = try #require((try cli.assetsByPath().values.first?["id"]) as? String)
        let everyday: [[String]] = [["list", "--json"], ["show", id, "--json"], ["album", "list", "--json"],
                                    ["trash", "list", "--json"], ["tidy", "status"], ["tidy", "next", "--json"],
                                    ["curate", "list", "--json"], ["tracker", "project", "list", "--json"]]
        let withPixels = try everyday.map { try cli.run($0) }
        #expect(withPixels.filter { $0.status == 0 }.count >= everyday.count - 1, "\(withPixels.map(\.stderr))")
        cli.environment["SHOEBOX_PIXELS"] = "/nonexistent/shoebox-pixels"
        for (args, expected) in zip(everyday, withPixels) {
            let r = try cli.run(args)
            #expect(r.status == expected.status, "\(args): \(r.stderr)")
            #expect(r.stdout == expected.stdout && r.stderr == expected.stderr, "\(args) printed otherwise in shoebox alone")
        }
        let direct = try TestRoll.run(Self.pixels, ["list", "--library", cli.library.path, "--json"])
        #expect(direct.stdout == withPixels[0].stdout, "shoebox-pixels run directly lists the same")
    }

    /// A command that needs the pixel stack, with `shoebox-pixels` missing: one line naming the
    /// file and the way out, exit 1, nothing changed.
    @Test func aPixelCommandWithoutThePixelBinarySaysWhichFileIsMissing() throws {
        var cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        let before = try cli.run(["list", "--json"]).stdout
        cli.environment["SHOEBOX_PIXELS"] = "/nonexistent/shoebox-pixels"
        for args in [["analyze"], ["curate", "add", "--year", "2017"], ["memories", "sources"], ["serve"]] {
            let r = try cli.run(args)
            #expect(r.status == 1, "\(args)")
            #expect(r.stderrLines.count == 1 && r.stderr.contains("/nonexistent/shoebox-pixels")
                    && r.stderr.contains("No such file") && r.stderr.contains("`shoebox \(args.prefix { !$0.hasPrefix("-") }.joined(separator: " "))`"), "\(r.stderr)")
        }
        cli.environment["SHOEBOX_PIXELS"] = nil
        #expect(try cli.run(["list", "--json"]).stdout == before)
    }

    /// Help, an unknown word and `curate` alone go to `shoebox-pixels`, which knows every command.
    @Test func helpAndUnknownWordsAreAnsweredWithEveryCommand() throws {
        let help = try TestRoll.run(ShoeboxCLI.binary, ["--help"])
        for command in ["watch", "analyze", "people", "memories", "compose", "serve", "tidy", "tracker"] {
            #expect(help.stdout.contains("\n  \(command) "), "`shoebox --help` lacks \(command)")
        }
        let curate = try TestRoll.run(ShoeboxCLI.binary, ["curate", "--help"])
        #expect(curate.stdout.contains("\n  add ") && curate.stdout.contains("\n  list "), "\(curate.stdout)")
        let typo = try TestRoll.run(ShoeboxCLI.binary, ["analyse"], allowFailure: true)
        #expect(typo.status == 2 && typo.stderr.contains("analyse"), "\(typo.stderr)")
        #expect(try TestRoll.run(ShoeboxCLI.binary, ["--version"]).stdout
                == (try TestRoll.run(Self.pixels, ["--version"]).stdout))
    }

    /// The commands that read a file's headers (scan, rebuild, doctor, a tracker photo, a file put
    /// in Recently Deleted by hand) run in `shoebox-readers`, which has the readers: without it
    /// (named by `$SHOEBOX_READERS`), one line naming it, exit 1, nothing changed; with it and no
    /// `shoebox-pixels` at all, they run as before.
    @Test func commandsThatReadAFilesHeadersRunInTheReadersBinary() throws {
        var cli = try ShoeboxCLI.scanned(try TestRoll.sampleCopy())
        let project = try #require(try cli.json(["tracker", "project", "add", "--game-system", "40k", "--army", "Orks"]) as? [String: Any])
        let projectID = try #require(project["id"] as? String)
        let mini = try #require(try cli.json(["tracker", "mini", "add", projectID, "--name", "Boy", "--type", "troop"]) as? [String: Any])
        let miniID = try #require(mini["id"] as? String)
        let photo = try #require(try cli.assetsByPath().first { $0.key.lowercased().hasSuffix(".jpg") }?.key)
        try ForeignTrashItemTests.put(try TrashInfoTrustTests.aPhoto() + Data("by hand".utf8), as: "by hand.jpg",
                                      path: "Imported/by hand.jpg", in: cli.library.appendingPathComponent("Recently Deleted"))
        let headerReading: [(args: [String], words: String)] = [
            (["scan"], "scan"), (["rebuild"], "rebuild"), (["doctor"], "doctor"),
            (["tracker", "photo", "add", miniID, photo], "tracker photo add"), (["restore", "by hand.jpg"], "restore"),
        ]
        let before = try cli.run(["list", "--json"]).stdout
        let photosBefore = try cli.run(["tracker", "photo", "list", miniID, "--json"]).stdout
        cli.environment["SHOEBOX_READERS"] = "/nonexistent/shoebox-readers"
        for (args, words) in headerReading {
            let r = try cli.run(args)
            #expect(r.status == 1 && r.stdout.isEmpty, "\(args): \(r.stdout)")
            #expect(r.stderrLines.count == 1 && r.stderr.contains("/nonexistent/shoebox-readers: No such file")
                    && r.stderr.contains("`shoebox \(words)` runs in shoebox-readers"), "\(args): \(r.stderr)")
        }
        #expect(try cli.run(["list", "--json"]).stdout == before)
        #expect(try cli.run(["tracker", "photo", "list", miniID, "--json"]).stdout == photosBefore)
        #expect(FileManager.default.fileExists(atPath: cli.library.appendingPathComponent("Recently Deleted/files/by hand.jpg").path))
        cli.environment["SHOEBOX_READERS"] = nil
        cli.environment["SHOEBOX_PIXELS"] = "/nonexistent/shoebox-pixels"
        for args in [["scan"], ["rebuild"], ["doctor"]] {
            let r = try cli.run(args)
            #expect(!r.stderr.contains("shoebox-pixels") && (args == ["doctor"] || r.status == 0), "\(args): \(r.stderr)")
        }
        let added = try #require(try cli.json(["tracker", "photo", "add", miniID, photo, "--json"]) as? [String: Any])
        #expect(added["sha256"] is String && added["mini_id"] as? String == miniID, "\(added)")
        let restored = try #require(try cli.json(["restore", "by hand.jpg", "--json"]) as? [[String: Any]])
        #expect(restored.first?["path"] as? String == "Imported/by hand.jpg" && restored.first?["id"] is String, "\(restored)")
    }

    /// An install from before `shoebox-readers` existed (`shoebox` and `shoebox-pixels` only):
    /// the commands that read headers still run, in `shoebox-pixels`, which has the readers too.
    @Test func withoutTheReadersBinaryHeaderCommandsRunInThePixelBinary() throws {
        let made = try TestRoll.sampleCopy()
        let bin = made.root.deletingLastPathComponent().appendingPathComponent("bin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: bin) }
        try ShoeboxCLI.placeBinaries(in: bin, readers: false)
        #expect(!FileManager.default.fileExists(atPath: bin.appendingPathComponent("shoebox-readers").path))
        let shoebox = bin.appendingPathComponent("shoebox").path
        _ = try TestRoll.run(shoebox, ["init", made.root.path])
        let scan = try TestRoll.run(shoebox, ["scan", "--library", made.root.path, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(scan.stdout.utf8)) as? [String: Any])
        #expect((report["added"] as? Int ?? 0) > 0 && scan.status == 0, "\(scan.stderr)")
        let direct = try TestRoll.run(Self.readers, ["list", "--library", made.root.path, "--json"])
        #expect(direct.stdout == (try TestRoll.run(shoebox, ["list", "--library", made.root.path, "--json"])).stdout,
                "shoebox-readers run directly lists the same")
    }
}
