// tidy-bench: Tidy's in-process figures on a library (bench/tidy.py makes a synthetic 100,000-asset
// one): what the web app, which keeps the process, pays per request — process start-up aside
// (the `shoebox` executable loads the whole pixel stack; `bench/tidy.py` times it too).
//
//     tidy-bench LIBRARY [--runs N] [--decide]
//
// Prints one JSON object of medians in milliseconds: open (library, index, session and its list),
// next (the item under review as the public JSON), keys (the similarity keys of every asset read
// from the index), grouping (SimilarShots over them), start (a new session over every asset:
// keys, grouping, list written), decide (keep + its durable commit, with --decide).
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
    var index = try Tidy.openIndex(library)
    var tidy = Tidy(library: library, index: index)
    let lock = try LibraryLock(library: library)
    var session = try tidy.start(.all)
    figures["start"] = median(try (0..<3).map { _ in try milliseconds { session = try tidy.start(.all) } })
    var keys: [SimilarityKey] = []
    figures["keys"] = median(try (0..<3).map { _ in try milliseconds { keys = try index.similarityKeys(matching: AssetQuery()) } })
    var groups: [SimilarGroup] = []
    figures["grouping"] = median((0..<3).map { _ in milliseconds { groups = SimilarShots.groups(keys) } })
    figures["assets"] = Double(keys.count)
    figures["groups"] = Double(groups.count)
    figures["items"] = Double(session.state.items)

    var opens: [Double] = [], nexts: [Double] = [], decisions: [Double] = []
    for _ in 0..<runs {
        opens.append(try milliseconds {
            index = try Tidy.openIndex(library)
            tidy = Tidy(library: library, index: index)
            session = try tidy.open()
        })
        nexts.append(try milliseconds {
            guard let current = try tidy.current(&session) else { return }
            let item = TidyItemJSON(current, companions: try tidy.companions(of: current.assets))
            _ = try ShoeboxJSON.document(TidyNextJSON(item: item, status: TidyStatusJSON(try tidy.status(session, current: current))))
        })
        if decide { decisions.append(try milliseconds { _ = try tidy.decide(.keep, in: &session) }) }
    }
    figures["open"] = median(opens)
    figures["next"] = median(nexts)
    if decide { figures["decide"] = median(decisions) }
    withExtendedLifetime(lock) {}
    let json = try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])
    FileHandle.standardOutput.write(json + Data("\n".utf8))
} catch {
    FileHandle.standardError.write(Data("tidy-bench: \(error)\n".utf8))
    exit(1)
}
