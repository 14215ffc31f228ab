import CShoeboxSystem
import Foundation
import PhotoLibrary

/// The analysis pipeline under `shoebox watch`: worker threads at background priority decode
/// and analyse new and changed files while the watcher indexes; the watcher's loop, when no
/// event waits, hands `step` its writer and lock to store what is ready. Indexing never waits
/// for a decode, and the watcher's view of the index follows these commits (same writer).
public final class BackgroundAnalysis {
    private let runner: AnalysisRunner
    private var queue: AnalysisQueue?
    private var store: AnalysisStore?
    /// Files changed since the work in hand was listed: list again when it is done.
    private var needsListing = true
    private var stopped = false
    /// When files last arrived or changed: analysis waits for `quietSeconds` after it, so that a
    /// bulk drop is indexed with both cores before any decoding starts.
    private var lastChange = Date.distantPast
    /// While workers run: when to store what they finished next.
    private var nextDrain = Date.distantPast
    public var quietSeconds = 2.0
    /// Said once when the analyser cannot start (the face models are missing).
    public private(set) var startFailure: String?

    public init(writer: AssetWriter, makeAnalyzer: @escaping @Sendable () throws -> any FileAnalyzing) {
        runner = AnalysisRunner(writer: writer, makeAnalyzer: makeAnalyzer)
        runner.background = true
    }

    /// Files arrived or changed: they are listed after the work in hand, and the workers pause
    /// until the watcher has been quiet for `quietSeconds`.
    public func filesChanged() {
        needsListing = true
        lastChange = Date()
        queue?.pause(until: lastChange.addingTimeInterval(quietSeconds))
    }

    /// When `step` is wanted next: soon while workers run (to store what they finish), after the
    /// quiet period when files changed, else never.
    public var nextStep: Date? {
        // Nothing stored either while files keep changing: the watcher's batches come first.
        if queue != nil { return max(nextDrain, lastChange.addingTimeInterval(quietSeconds)) }
        guard needsListing, startFailure == nil, !stopped else { return nil }
        return lastChange.addingTimeInterval(quietSeconds)
    }

    /// Called on the watcher's thread with the writer lock held, between batches of changes:
    /// stores what the workers finished, starts on new work when idle. Returns what was stored
    /// (for the watcher's log).
    public func step() throws -> AnalysisRunner.Report {
        var report = AnalysisRunner.Report()
        nextDrain = Date().addingTimeInterval(0.25)
        if queue == nil {
            guard needsListing, startFailure == nil, !stopped,
                  Date().timeIntervalSince(lastChange) >= quietSeconds else { return report }
            needsListing = false
            let work = try runner.pending()
            guard !work.isEmpty else { return report }
            queue = runner.start(work, shouldStop: { false })
        }
        guard let queue else { return report }
        if let failure = queue.startFailure {
            startFailure = failure
            stop()
            return report
        }
        if store == nil { store = try AnalysisStore(writer: runner.writer) }
        while let batch = queue.ready(upTo: runner.batchSize), !batch.isEmpty {
            report.add(try store!.commit(batch))
        }
        if queue.ready(upTo: 0) == nil {  // every worker done, everything stored
            queue.finish()
            self.queue = nil
            if store?.changedPeople == true { try runner.writer.afterChange(regroup: false) }
            store = nil
        }
        return report
    }

    /// Stops the workers: no file is started any more; the files in hand may finish within
    /// `seconds` (their results are dropped, and analysed again by the next run). False when a
    /// worker is still busy then: under SCHED_IDLE on a busy machine a file in hand can wait
    /// minutes for a free core, and the caller does not wait for it.
    @discardableResult
    public func stop(waitingAtMost seconds: Double = .infinity) -> Bool {
        stopped = true
        guard let queue else { return true }
        self.queue = nil
        queue.cancel()
        // Where allowed (root, CAP_SYS_NICE), the workers leave SCHED_IDLE: the files in hand
        // finish, or the threads exit, at once however busy the machine is.
        _ = shoebox_foreground_idle_threads()
        return queue.finish(waitingAtMost: seconds)
    }
}
