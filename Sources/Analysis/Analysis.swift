import Foundation
import PhotoLibrary

/// The analysis on a library session: the one entry point `analyze`, `analyze --wait` and
/// `curate add` (which waits for the scores of what it adds) call, and the web server will.
/// Analysis is not a feature module but the pipeline under them: it adds nothing to the
/// index's schema (the records live in the core's `analysis` column) and has no recovery of its
/// own (each batch is one journaled commit of the asset writer), so it needs no `LibraryFeature`.
public enum Analysis {
    /// How long a wait goes on when a round stored nothing (see `AnalysisPatience`).
    public static let patience: TimeInterval = 5

    /// Analyses what needs it — `ids` only, when given (the rest is left alone) — through the
    /// session: the repairs every change starts with once, then worker threads decode while this
    /// thread stores a batch at a time under the writer lock (`session.lockedSection`), so a
    /// running `watch` indexes between batches and a kill loses at most one batch.
    ///
    /// `wait`: waits for a busy library however long, and runs again until nothing is left to
    /// analyse, by the one patience rule (`AnalysisPatience`); the report then names every file
    /// left (`notAnalysed`) and counts them (`left`). Without it, one run, with the usual 30 s
    /// for the lock. `measuring`: only these stages, nothing stored (the benchmark's figures).
    /// `shouldStop` (a signal arrived) is asked between files and while the lock is awaited: no
    /// file is started after it, what is done is stored, and a lock still awaited then throws
    /// the `.locked` error.
    public static func run(_ session: LibrarySession, ids: [AssetID]? = nil, wait: Bool = false,
                           measuring stages: PixelAnalyzer.Stages? = nil,
                           shouldStop: @escaping @Sendable () -> Bool = { false },
                           progress: (AnalysisRunner.Progress) -> Void = { _ in }) throws -> AnalysisRunner.Report {
        let patienceForLock: Double = wait ? .infinity : 30
        // The repairs every change starts with, once (each batch then replays only the journal).
        try writing(session, repairing: true, patience: patienceForLock, shouldStop: shouldStop) {}
        let runner = AnalysisRunner(writer: session.writer) { try PixelAnalyzer(stages: stages ?? .all) }
        runner.storesResults = stages == nil
        let locked: AnalysisRunner.LockedSection = { body in
            try writing(session, repairing: false, patience: patienceForLock, shouldStop: shouldStop, body)
        }
        var round = try runner.run(try runner.pending(ids), withWriterLock: locked, shouldStop: shouldStop, progress: progress)
        var report = round
        // Measuring stores nothing, so nothing would ever stop being pending: one run.
        guard wait, stages == nil else { return report }
        var patience = AnalysisPatience(seconds: patience)
        while !shouldStop() {
            let left = try runner.pending(ids)
            guard patience.goesOn(left: left.count, stored: round.analysed) else {
                let reasons = Dictionary(round.notAnalysed.map { ($0.path, $0.error) }, uniquingKeysWith: { a, _ in a })
                report.left = left.count
                report.notAnalysed = left.map { NotAnalysed(path: $0.path, error: reasons[$0.path] ?? AnalysisError.changedWhileRead($0.path)) }
                return report
            }
            // Nothing stored: give a watcher a moment to index what changed before trying again.
            if round.analysed == 0 { Thread.sleep(forTimeInterval: 0.2) }
            let before = report.analysed
            round = try runner.run(left, withWriterLock: locked, shouldStop: shouldStop,
                                   progress: { progress(AnalysisRunner.Progress(done: before + $0.done, total: before + $0.total)) })
            report.add(round)
        }
        return report
    }

    /// `body` under the session's writer lock, waited for up to `patience` seconds while another
    /// process writes — but no longer once `shouldStop` says a signal arrived (the `.locked`
    /// error then reaches the caller, which ends as interrupted).
    static func writing(_ session: LibrarySession, repairing: Bool, patience: Double,
                        shouldStop: () -> Bool, _ body: () throws -> Void) throws {
        let deadline = patience.isFinite ? Date().addingTimeInterval(patience) : .distantFuture
        while true {
            do {
                return try session.write(timeout: 1, repairing: repairing) { _ in try body() }
            } catch let e as ShoeboxError where e.code == .locked && Date() < deadline && !shouldStop() {
                continue
            }
        }
    }
}

/// The one rule for how long a wait for the analysis goes on (`analyze --wait`, `curate add`):
/// while files are left another round runs; a round that stores nothing (all that is left are
/// files no run could read, or files that changed while read) starts the clock, one that stores
/// something stops it; after `seconds` on the clock the wait ends, naming what is left. A
/// watcher makes a changed file analysable within seconds (it indexes it again); an unreadable
/// one waits for the user — so the wait never hangs.
struct AnalysisPatience {
    let seconds: TimeInterval
    private var stuckSince: Date?

    init(seconds: TimeInterval) { self.seconds = seconds }

    /// After a round that stored `stored` results, with `left` files still to analyse: whether
    /// to run another.
    mutating func goesOn(left: Int, stored: Int, now: Date = Date()) -> Bool {
        guard left > 0 else { return false }
        if stored > 0 {
            stuckSince = nil
            return true
        }
        let start = stuckSince ?? now
        stuckSince = start
        return now.timeIntervalSince(start) < seconds
    }
}
