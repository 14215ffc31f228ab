import Foundation
import Testing
import TestSupport

/// The score as a user sees it after `analyze`, on real photographs the scorer was not built on
/// (test-data/scoring, SOURCES.md there) and the sample library's photographed receipt (issue 32):
/// a thumbnail is not a photo to share, a receipt is utility, open eyes are not called closed.
@Suite(.serialized) struct RealPhotoScoreTests {
    static let scoring = TestRoll.repositoryRoot.appendingPathComponent("test-data/scoring")

    struct Scored { var score: Double; var utility: Bool; var words: [String] }

    /// A library of `files` (copied), analysed by the built `shoebox`; each file's score by name.
    static func analysed(_ files: [URL]) throws -> [String: Scored] {
        let root = Scratch.root.appendingPathComponent("shoebox-realscore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for f in files { try FileManager.default.copyItem(at: f, to: root.appendingPathComponent(f.lastPathComponent)) }
        let cli = ShoeboxCLI(library: root)
        for step in [["init"], ["scan"], ["analyze"]] {
            let r = try cli.run(step)
            #expect(r.status == 0, "shoebox \(step[0]): \(r.stderr)")
        }
        let list = try cli.run(["list", "--json"])
        let assets = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
        var out: [String: Scored] = [:]
        for a in assets {
            guard let path = a["path"] as? String, let score = a["score"] as? Double else { continue }
            let words = (a["score_detail"] as? [String: Any])?["words"] as? [String] ?? []
            out[(path as NSString).lastPathComponent] = Scored(score: score, utility: a["is_utility"] as? Bool ?? false, words: words)
        }
        return out
    }

    static func scoringFile(_ name: String) -> URL { scoring.appendingPathComponent(name) }

    /// A copy of a test-data/scoring photograph spoilt by ImageMagick (`-seed` fixed), as a JPEG.
    static func spoilt(_ source: String, _ name: String, _ ops: [String], quality: Int = 92) throws -> URL {
        let dir = Scratch.root.appendingPathComponent("shoebox-realscore-src-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let out = dir.appendingPathComponent("\((source as NSString).deletingPathExtension)--\(name).jpg")
        if !FileManager.default.fileExists(atPath: out.path) {
            try TestRoll.run("/usr/bin/convert", [scoringFile(source).path, "-seed", "5"] + ops + ["-strip", "-quality", "\(quality)", out.path])
        }
        return out
    }

    @Test func aThumbnailOrATinyDrawingNeverOutranksPhotosOfNormalSize() throws {
        let photos = ["kpa-donna.jpg", "kpa-skagen.jpg", "mate-storm.jpg", "ocv-home.jpg", "ocv-stuff.jpg", "ski-motorcycle.jpg"]
        let scored = try Self.analysed((photos + ["tiny-fish.jpg", "tiny-thumb.jpg"]).map(Self.scoringFile))
        let photoScores = photos.compactMap { scored[$0]?.score }
        #expect(photoScores.count == photos.count)
        let lowest = try #require(photoScores.min())
        for tiny in ["tiny-fish.jpg", "tiny-thumb.jpg"] {
            let s = try #require(scored[tiny])
            #expect(s.score < lowest, "\(tiny) scores \(s.score), a photo of normal size \(lowest)")
        }
        // Seen at a screen's size, a blurred 100×75 thumbnail is not sharp.
        let thumb = try #require(scored["tiny-thumb.jpg"])
        #expect(!thumb.words.contains("sharp"), "\(thumb.words)")
        #expect(thumb.words.contains { $0.hasPrefix("too small") }, "\(thumb.words)")
    }

    @Test func aPhotographedReceiptOrPageIsUtilityAndPhotosAreNot() throws {
        let receipt = TestRoll.repositoryRoot.appendingPathComponent("sample-library/Documents/IMG_0495.JPG")
        let photos = ["kpa-spiff_2.jpg", "ocv-board.jpg", "ocv-messi5.jpg", "ocv-right.jpg"]
        let scored = try Self.analysed([receipt, Self.scoringFile("ski-page.png")] + photos.map(Self.scoringFile))
        #expect(scored["IMG_0495.JPG"]?.utility == true, "the sample's receipt: \(String(describing: scored["IMG_0495.JPG"]))")
        #expect(scored["ski-page.png"]?.utility == true, "a photographed page: \(String(describing: scored["ski-page.png"]))")
        // Print in a photo (a beer crate's label, books' covers, a stadium's boards) is not a document.
        for p in photos { #expect(scored[p]?.utility == false, "\(p) called utility") }
    }

    @Test func openEyesAreNotCalledClosed() throws {
        // Portraits and group photos whose every judged face has its eyes open.
        let faces = TestRoll.repositoryRoot.appendingPathComponent("test-data/faces")
        let files = ["anne_helene.jpg", "bar55_2.jpg", "new_wave_2.jpg", "tesla2_lg.jpg", "tesla4_lg.jpg", "qt-logo.jpg"]
            .map { faces.appendingPathComponent($0) } + ["kpa-jesper.jpg", "kpa-jesper_2.jpg", "kpa-donna_2.jpg"].map(Self.scoringFile)
        let scored = try Self.analysed(files)
        for f in files {
            let words = scored[f.lastPathComponent]?.words ?? []
            #expect(!words.contains("eyes closed"), "\(f.lastPathComponent): \(words)")
        }
    }

    @Test func noiseLostContrastAndCompressionAlwaysLowerTheScore() throws {
        let sources = ["kpa-snow.jpg", "mate-dune.jpg", "ocv-fruits.jpg", "kpa-sunset.jpg"]
        let spoilers: [(String, [String], Int)] = [
            ("noise", ["-attenuate", "0.4", "+noise", "Gaussian"], 92),
            ("flat", ["+level", "15%,85%"], 92),
            ("jpeg", [], 10),
            ("pixelate", ["-scale", "25%", "-scale", "400%"], 92),
        ]
        var files: [URL] = []
        for s in sources {
            files.append(try Self.spoilt(s, "clean", []))
            for (name, ops, q) in spoilers { files.append(try Self.spoilt(s, name, ops, quality: q)) }
        }
        let scored = try Self.analysed(files)
        for s in sources {
            let stem = (s as NSString).deletingPathExtension
            let clean = try #require(scored["\(stem)--clean.jpg"]).score
            for (name, _, _) in spoilers {
                let spoilt = try #require(scored["\(stem)--\(name).jpg"]).score
                #expect(spoilt < clean, "\(s): clean \(clean), \(name) \(spoilt)")
            }
        }
    }
}
