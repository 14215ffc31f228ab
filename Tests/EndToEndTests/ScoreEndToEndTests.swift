import Foundation
import Testing
import TestSupport

/// The score through the command line, on a generated roll whose manifest is the truth: the
/// sharp frame of each burst first, screenshots and photographed documents flagged utility and
/// ranked below every photo, `show` explaining the score, and a newer scorer scoring again.
@Suite(.serialized) struct ScoreEndToEndTests {
    nonisolated(unsafe) static let analysed: Result<(TestRoll.Made, ShoeboxCLI, [String: [String: Any]]), any Error> = Result {
        let made = try TestRoll.make(seed: 16, count: 80, arguments: ["--portraits", "0.3"])
        let cli = try ShoeboxCLI.scanned(made)
        _ = try cli.json(["analyze"])
        return (made, cli, try cli.assetsByPath())
    }

    @Test func theSharpFrameOfEachBurstRanksFirst() throws {
        let (made, _, assets) = try Self.analysed.get()
        var bursts: [String: [RollEntry]] = [:]
        for e in made.entries { if let b = e.burst { bursts[b, default: []].append(e) } }
        #expect(!bursts.isEmpty, "the roll should hold bursts")
        for (burst, frames) in bursts {
            let best = frames.max { (assets[$0.path]?["score"] as? Double ?? -2) < (assets[$1.path]?["score"] as? Double ?? -2) }!
            #expect(best.degradation == nil, "\(burst): \(best.path) (\(String(describing: best.degradation))) ranks first")
            let detail = assets[best.path]?["score_detail"] as? [String: Any]
            #expect((detail?["burst"] as? [String: Any])?["rank"] as? Int == 1)
        }
    }

    @Test func screenshotsAndDocumentsAreUtilityAndRankBelowEveryPhoto() throws {
        let (made, _, assets) = try Self.analysed.get()
        var lowestPhoto = 2.0, highestUtility = -2.0
        for e in made.entries where e.kind != "video" {
            guard let a = assets[e.path], let score = a["score"] as? Double else {
                Issue.record("\(e.path) has no score"); continue
            }
            #expect(a["is_utility"] as? Bool == e.is_utility, "\(e.path) (\(e.kind)): is_utility \(String(describing: a["is_utility"]))")
            if e.is_utility { highestUtility = max(highestUtility, score) } else { lowestPhoto = min(lowestPhoto, score) }
            #expect(score >= -1 && score <= 1)
        }
        #expect(highestUtility < lowestPhoto, "utility up to \(highestUtility), photos from \(lowestPhoto)")
        let docs = made.entries.filter { $0.kind == "document" }
        #expect(!docs.isEmpty && docs.allSatisfy { assets[$0.path]?["kind"] as? String == "photo" }, "a document is a photo that is utility")
    }

    @Test func showExplainsTheScoreInWords() throws {
        let (made, cli, assets) = try Self.analysed.get()
        // The best clean photo of the roll, and a blurred one.
        let clean = try #require(made.entries.filter { $0.kind == "photo" && $0.degradation == nil }
            .max { (assets[$0.path]?["score"] as? Double ?? -2) < (assets[$1.path]?["score"] as? Double ?? -2) })
        let blurred = try #require(made.entries.first { $0.kind == "photo" && $0.degradation?.type == "blur" && $0.degradation?.level == 3 }
            ?? made.entries.first { $0.kind == "photo" && $0.degradation?.type == "blur" && $0.degradation?.level == 2 })
        let cleanText = try cli.run(["show", assets[clean.path]!["id"] as! String]).stdout
        let scoreLine = try #require(cleanText.split(separator: "\n").first { $0.hasPrefix("score") })
        #expect(scoreLine.contains("sharp"), "\(scoreLine)")
        let blurText = try cli.run(["show", assets[blurred.path]!["id"] as! String]).stdout
        let blurLine = try #require(blurText.split(separator: "\n").first { $0.hasPrefix("score") })
        #expect(blurLine.contains("blurry") || blurLine.contains("soft"), "\(blurLine)")
        // --json: the components and measurements behind it.
        let json = try cli.json(["show", assets[clean.path]!["id"] as! String]) as! [String: Any]
        let detail = try #require(json["score_detail"] as? [String: Any])
        let components = try #require(detail["components"] as? [String: Double])
        for name in ["sharpness", "motion", "noise", "exposure", "contrast", "color", "compression", "composition"] {
            #expect(components[name] != nil, "\(name) missing")
        }
        #expect((detail["words"] as? [String])?.contains("sharp") == true)
    }

    @Test func aNewerScorerScoresAgain() throws {
        let made = try TestRoll.make(seed: 36, count: 6, arguments: ["--no-heic"])
        let cli = try ShoeboxCLI.scanned(made)
        _ = try cli.json(["analyze"])
        let asset = try cli.assetsByPath().values.first { $0["kind"] as? String == "photo" }!
        let id = asset["id"] as! String
        // The sidecar as the previous scorer left it: one scorer version older, another score.
        let sidecar = cli.library.appendingPathComponent(".shoebox/sidecars/\(id).json")
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: sidecar)) as! [String: Any]
        var a = json["asset"] as! [String: Any], analysis = a["analysis"] as! [String: Any]
        var score = analysis["score"] as! [String: Any]
        analysis["version"] = (analysis["version"] as! Int) - 1
        score["base"] = 0.999; score["final"] = 0.999
        analysis["score"] = score
        a["analysis"] = analysis; a["score"] = 0.999; json["asset"] = a
        try JSONSerialization.data(withJSONObject: json).write(to: sidecar)
        #expect(try cli.run(["rebuild"]).status == 0)
        #expect((try cli.json(["show", id]) as! [String: Any])["score"] as? Double == 0.999)
        let again = try cli.json(["analyze"]) as! [String: Any]
        #expect(again["analyzed"] as? Int == 1, "\(again)")
        #expect((try cli.json(["show", id]) as! [String: Any])["score"] as? Double == asset["score"] as? Double)
    }
}
