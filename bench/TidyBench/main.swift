// tidy-bench: Tidy's in-process figures on a library (bench/tidy.py makes a synthetic 100,000-asset
// one): what the web app, which keeps the process, pays per request — process start-up aside
// (the `shoebox` executable loads the whole pixel stack; `bench/tidy.py` times it too).
//
//     tidy-bench LIBRARY [--runs N] [--decide]
//
// Prints one JSON object of medians in milliseconds: open (the library session: index, and the
// review session and its list read, its last change checked), next (the item under review found on the open session, as
// the public JSON), snapshot (`Tidy.snapshot`, the read entry point a request calls: the session
// and its list read from disk, the item found, the status counted; no lock), keys (the
// similarity keys of every asset read from the index), grouping (SimilarShots over them), start
// (`Tidy.start`: a new session over every asset — keys, grouping, list written), decide
// (`Tidy.decide` keep, with --decide: the writer lock, the session's repairs, the session read,
// the marks' durable commit, the next item).
import Foundation
import PhotoLibrary
import Tidy

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.isEmpty ? .nan : (s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2)
}

let args = Array(CommandLine.arguments.dropFirst())
guard let path = args.first else {
    FileHandle.standardError.write(Data("usage: tidy-bench LIBRARY [--runs N] [--decide]\n".utf8))
    exit(2)
}
let runs = args.firstIndex(of: "--runs").flatMap { Int(args[$0 + 1]) } ?? 20
let decide = args.contains("--decide")

do {
    let library = try Library.locate(explicit: path)
    var figures: [String: Double] = [:]
    var session = try LibrarySession(library, features: [Tidy.feature])
    var review = try Tidy.start(session, .all).session
    figures["start"] = median(try (0..<3).map { _ in try milliseconds { review = try Tidy.start(session, .all).session } })
    var keys: [SimilarityKey] = []
    figures["keys"] = median(try (0..<3).map { _ in try milliseconds { keys = try session.index.similarityKeys(matching: AssetQuery()) } })
    var groups: [SimilarGroup] = []
    figures["grouping"] = median((0..<3).map { _ in milliseconds { groups = SimilarShots.groups(keys) } })
    figures["assets"] = Double(keys.count)
    figures["groups"] = Double(groups.count)
    figures["items"] = Double(review.state.items)

    var opens: [Double] = [], nexts: [Double] = [], snapshots: [Double] = [], decisions: [Double] = []
    for _ in 0..<runs {
        var tidy = Tidy(reading: session)
        opens.append(try milliseconds {
            session = try LibrarySession(library, features: [Tidy.feature])
            tidy = Tidy(reading: session)
            review = try tidy.load()!
            // As a read does (`Tidy.readable`): is the last change finished? (the index's first query)
            _ = try tidy.needsRecovery(review.state)
        })
        nexts.append(try milliseconds {
            let shown = try tidy.snapshot(&review, saving: false)
            _ = try ShoeboxJSON.document(TidyNextJSON(item: shown.item, status: TidyStatusJSON(shown.status)))
        })
        snapshots.append(try milliseconds {
            let shown = try Tidy.snapshot(session)
            _ = try ShoeboxJSON.document(TidyNextJSON(item: shown.item, status: TidyStatusJSON(shown.status)))
        })
        if decide { decisions.append(try milliseconds { _ = try Tidy.decide(session, .keep) }) }
    }
    figures["open"] = median(opens)
    figures["next"] = median(nexts)
    figures["snapshot"] = median(snapshots)
    if decide { figures["decide"] = median(decisions) }
    let json = try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])
    FileHandle.standardOutput.write(json + Data("\n".utf8))
} catch {
    FileHandle.standardError.write(Data("tidy-bench: \(error)\n".utf8))
    exit(1)
}
