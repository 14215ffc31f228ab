import Foundation
import Imaging
import Metadata
import PhotoLibrary
import Testing
import TestSupport
@testable import Scoring

/// The scorer on real photographs (test-data/photos) and copies of them that ImageMagick spoils
/// the way a camera or a photographer does: what a person culling would notice.
@Suite(.serialized) struct ScorerTests {
    static let photos = TestRoll.repositoryRoot.appendingPathComponent("test-data/photos")
    static let work: URL = {
        let u = Scratch.root.appendingPathComponent("shoebox-scorer-\(getpid())")
        try? FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }()

    /// A crop of a repository photograph, with ImageMagick operators applied, as a JPEG.
    static func picture(_ source: String, _ name: String, _ ops: [String] = [], quality: Int = 92) throws -> URL {
        let out = work.appendingPathComponent("\(source)-\(name).jpg")
        if !FileManager.default.fileExists(atPath: out.path) {
            try TestRoll.run("/usr/bin/convert", [photos.appendingPathComponent("\(source).jpg").path,
                                                  "-gravity", "center", "-crop", "80%x80%+0+0", "+repage", "-resize", "1024x1024>",
                                                  "-seed", "3"] + ops + ["-strip", "-quality", "\(quality)", out.path])
        }
        return out
    }

    /// Decodes `url` as the analysis pipeline does (1024-px working image) and scores it.
    static func score(_ url: URL, camera: Bool = true, screenshotKind: Bool = false,
                      faces: [(x: Double, y: Double, w: Double, h: Double)] = []) throws -> AssetScore {
        let fd = open(url.path, O_RDONLY)
        defer { close(fd) }
        let format: MediaFormat = url.pathExtension.lowercased() == "png" ? .png : .jpeg
        let decoded = try ImageDecoder.decode(fileDescriptor: fd, name: url.lastPathComponent, format: format, minLongSide: 960)
        let working = Downsample.area(decoded.image, longSide: 1024)
        let period = format == .jpeg ? 8 * Double(working.width) / Double(decoded.fullWidth) : 0
        let m = try measurer.measure(working, faces: faces, blockPeriod: period)
        return ScoreModel.score(m, context: .init(hasCameraMetadata: camera, isScreenshotKind: screenshotKind))
    }

    static let measurer = try! PhotoMeasurer()

    @Test(arguments: ["kite", "coffee", "eveningglow"])
    func aCleanPhotoOutranksItsSpoiltCopies(_ source: String) throws {
        let clean = try Self.score(Self.picture(source, "clean"))
        let spoilt: [(String, [String], Int)] = [
            ("blurred", ["-gaussian-blur", "0x2.5"], 92),
            ("shaken", ["-motion-blur", "0x8+30"], 92),
            ("noisy", ["-attenuate", "1.2", "+noise", "Gaussian"], 92),
            ("dark", ["-evaluate", "multiply", "0.3"], 92),
            ("washed", ["-evaluate", "add", "40%"], 92),
            ("flat", ["+level", "25%,75%"], 92),
            ("blocky", [], 6),
        ]
        for (name, ops, q) in spoilt {
            let s = try Self.score(Self.picture(source, name, ops, quality: q))
            #expect(clean.base > s.base, "\(source): clean \(clean.base) vs \(name) \(s.base)")
        }
    }

    @Test func moreBlurScoresLower() throws {
        var last = try Self.score(Self.picture("coffee", "clean")).base
        for sigma in ["1", "2", "4"] {
            let s = try Self.score(Self.picture("coffee", "blur\(sigma)", ["-gaussian-blur", "0x\(sigma)"])).base
            #expect(s < last, "blur σ \(sigma): \(s) after \(last)")
            last = s
        }
    }

    @Test func theWordsSayWhatIsWrong() throws {
        let clean = try Self.score(Self.picture("kite", "clean"))
        #expect(ScoreWords.describe(clean).contains("sharp"), "\(ScoreWords.describe(clean))")
        let blurred = try Self.score(Self.picture("kite", "blur4", ["-gaussian-blur", "0x4"]))
        #expect(ScoreWords.describe(blurred).contains("blurry"), "\(ScoreWords.describe(blurred))")
        let dark = try Self.score(Self.picture("kite", "dark", ["-evaluate", "multiply", "0.3"]))
        #expect(ScoreWords.describe(dark).contains("under-exposed"), "\(ScoreWords.describe(dark))")
        let noisy = try Self.score(Self.picture("kite", "noisy", ["-attenuate", "1.2", "+noise", "Gaussian"]))
        #expect(ScoreWords.describe(noisy).contains("noisy"), "\(ScoreWords.describe(noisy))")
    }

    @Test func aShallowDepthOfFieldIsNotBlur() throws {
        // The middle sharp, everything around it blurred, as a wide aperture leaves it.
        let dof = try Self.picture("coffee", "dof", ["-write", "mpr:o", "+delete", "mpr:o", "-blur", "0x5", "mpr:o",
                                                     "(", "mpr:o", "-fill", "black", "-colorize", "100", "-fill", "white",
                                                     "-draw", "ellipse 410,260 150,120 0,360", "-blur", "0x12", ")", "-composite"])
        let s = try Self.score(dof)
        let words = ScoreWords.describe(s)
        #expect(!words.contains("blurry") && !words.contains("slightly soft"), "\(words)")
        let blurred = try Self.score(Self.picture("coffee", "blur5", ["-blur", "0x5"]))
        #expect(s.base > blurred.base)
    }

    @Test func theSameBytesGiveTheSameScore() throws {
        let url = try Self.picture("coffee", "clean")
        let a = try Self.score(url), b = try Self.score(url)
        #expect(a == b)
    }

    @Test func aScreenshotAndADocumentAreUtilityAndRankBelowPhotos() throws {
        let shot = Self.work.appendingPathComponent("screen.png")
        try TestRoll.run("/usr/bin/convert", ["-size", "1170x2532", "xc:#ffffff", "-fill", "#1e6fd9", "-draw", "rectangle 0,0 1170,253",
                                              "-fill", "#16161a", "-pointsize", "58", "-annotate", "+73+400",
                                              "Your table is booked for 19:30\\nGate B12 boarding 08:45\\nParcel delivered today\\nMeeting moved to Thursday\\nSee you at the station",
                                              "-strip", shot.path])
        let screenshot = try Self.score(shot, camera: false)
        #expect(screenshot.utility == .screenshot)
        let page = Self.work.appendingPathComponent("page.jpg")
        try TestRoll.run("/usr/bin/convert", ["-size", "1512x2016", "xc:#5b4636", "-fill", "#f3f1ea", "-draw", "rectangle 126,126 1386,1890",
                                              "-fill", "#222222", "-pointsize", "54", "-annotate", "+252+378",
                                              (0..<12).map { "Receipt no. \(1200 + $0 * 7) amount due \($0 + 3).50" }.joined(separator: "\\n"),
                                              "-distort", "SRT", "1.5", "-strip", "-quality", "88", page.path])
        let document = try Self.score(page)
        #expect(document.utility == .document)
        // The worst photo here (a blurred, dark one) still ranks above both.
        let poor = try Self.score(Self.picture("kite", "poor", ["-gaussian-blur", "0x4", "-evaluate", "multiply", "0.3"]))
        #expect(poor.utility == nil)
        #expect(poor.base > screenshot.base && poor.base > document.base)
    }

    @Test func photosAreNotUtility() throws {
        for source in ["kite", "coffee", "astronaut", "rocket", "chelsea"] {
            let s = try Self.score(Self.picture(source, "clean"), camera: false)
            #expect(s.utility == nil, "\(source): \(String(describing: s.utility))")
        }
    }

    /// A grey sea under a lighter sky, its horizon at `degrees` (clockwise, as an image's rows
    /// run) and anti-aliased as a lens draws it, with a little noise so that it is not a drawing.
    static func horizon(degrees: Double) -> RGBImage {
        let w = 1024, h = 768, slope = tan(degrees * .pi / 180), across = cos(atan(slope))
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        var seed: UInt32 = 7
        for y in 0..<h {
            for x in 0..<w {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let noise = Double(Int(seed >> 28) - 8)
                // How much of the pixel lies below the horizon: 0 sky … 1 sea.
                let below = (Double(y) + 0.5 - (Double(h) / 2 + slope * (Double(x) + 0.5 - Double(w) / 2))) * across
                let sea = min(1, max(0, below + 0.5))
                let grey = UInt8(max(0, min(255, (222 - 160 * sea + noise).rounded())))
                for c in 0..<3 { pixels[(y * w + x) * 3 + c] = grey }
            }
        }
        return RGBImage(width: w, height: h, pixels: pixels)
    }

    /// The tilt is read from lines within 12° of level (the Hough transform votes for those
    /// angles alone): a horizon at 3°, 5°, −5° and −8° is found at its angle, a slope of 40° is none.
    @Test(arguments: [3.0, 5.0, -5.0, -8.0])
    func aHorizonIsFoundAtItsAngle(_ degrees: Double) throws {
        let m = try Self.measurer.measure(Self.horizon(degrees: degrees), faces: [], blockPeriod: 0)
        #expect(m["has_horizon"] == 1, "\(degrees)°: \(m.values)")
        #expect(abs(m["tilt"] - degrees) < 0.5, "\(degrees)°: tilt \(m["tilt"])")
    }

    @Test func aSteepSlopeIsNoHorizon() throws {
        let m = try Self.measurer.measure(Self.horizon(degrees: 40), faces: [], blockPeriod: 0)
        #expect(m["has_horizon"] == 0, "\(m.values)")
    }
}
