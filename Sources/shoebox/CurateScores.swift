import Analysis
import Foundation
import PhotoLibrary

/// `curate add` waits for the scores of what it adds: the analysis pipeline, as `analyze --wait`
/// runs it (so it lives here beside it: the Curation module needs no pixels), on those assets
/// only, until each one is analysed by the current analyser. An asset analysed without a score
/// (one the scorer does not score) ranks after scored ones.
/// It never hangs: a file that stays unanalysable (unreadable, changed since the last scan) is
/// given up after `patience` seconds without progress and named in `unanalysed`.
struct ScoreWait {
    struct Outcome: Sendable {
        var analysed = 0
        /// Files analysed whose pixels had a problem (damaged, unsupported): one line each.
        var problems: [FileProblem] = []
        /// Files that could not be analysed at all: one line each.
        var unanalysed: [FileProblem] = []
    }

    let writer: AssetWriter
    let locked: AnalysisRunner.LockedSection
    let makeAnalyzer: @Sendable () throws -> any FileAnalyzing
    var patience: TimeInterval = 5

    init(writer: AssetWriter, locked: @escaping AnalysisRunner.LockedSection,
         makeAnalyzer: @escaping @Sendable () throws -> any FileAnalyzing = { try PixelAnalyzer() }) {
        self.writer = writer
        self.locked = locked
        self.makeAnalyzer = makeAnalyzer
    }

    /// Those of `ids` the current analyser has not analysed in their present content.
    func pending(_ ids: [AssetID]) throws -> [Asset] {
        guard !ids.isEmpty else { return [] }
        var q = AssetQuery()
        q.ids = ids
        q.includeLiveVideos = true
        q.needsAnalysis = (true, AssetAnalysis.currentVersion)
        return try writer.index.assets(matching: q)
    }

    func run(_ ids: [AssetID], progress: @escaping (_ done: Int, _ total: Int) -> Void = { _, _ in }) throws -> Outcome {
        var outcome = Outcome()
        var stuckSince: Date?
        var work = try pending(ids)
        let total = work.count
        var done = 0
        while !work.isEmpty {
            let runner = AnalysisRunner(writer: writer, makeAnalyzer: makeAnalyzer)
            let before = done
            let report = try runner.run(work, withWriterLock: locked, progress: { progress(before + $0.done, total) })
            outcome.analysed += report.analysed
            outcome.problems += report.problems
            done += report.analysed
            work = try pending(ids)
            guard !work.isEmpty else { break }
            if report.analysed > 0 {
                stuckSince = nil
                continue
            }
            // Nothing stored this round: only files the run could not read (or that changed while
            // read) are left. A watcher may make them readable (it indexes a changed file within
            // seconds); otherwise they are given up, each named.
            let start = stuckSince ?? Date()
            stuckSince = start
            if Date().timeIntervalSince(start) >= patience {
                let reasons = Dictionary(report.notAnalysed.map { ($0.path, $0.reason) }, uniquingKeysWith: { a, _ in a })
                outcome.unanalysed = work.map {
                    FileProblem(path: $0.path, reason: reasons[$0.path] ?? "not analysed: it changed while it was read; run `shoebox scan`, then `shoebox curate add` it again")
                }
                break
            }
            usleep(200_000)
        }
        return outcome
    }
}
