import CShoeboxSystem
import Foundation
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// Runs the analysis of every asset that needs it (never analysed, changed since, or analysed by
/// an older analyser): worker threads decode and analyse, this thread stores the results through
/// the library's writer in small batches. Killed at any point, the next run resumes with what is
/// left: each batch is committed whole or not at all.
///
/// Each batch is stored inside `withWriterLock` (the caller's way of holding the library's writer
/// lock), never the whole run: a `watch` goes on indexing between batches.
public final class AnalysisRunner {
    public struct Progress: Sendable {
        public var done: Int
        public var total: Int
    }

    public struct Report: Sendable {
        /// Assets analysed and stored.
        public var analysed = 0
        /// Of those, files whose image data could not be decoded whole.
        public var damaged = 0
        /// One line per file whose pixels could not be analysed (damaged, unsupported).
        public var problems: [FileProblem] = []
        public var faces = 0
        /// Assets left for a later run (stopped early or the file changed while it was read).
        public var left = 0
        /// Files not analysed in this run, with why (unreadable, changed since the last scan):
        /// they stay pending, and the run says so instead of waiting for them.
        public var notAnalysed: [NotAnalysed] = []

        /// Adds a later run's figures (its `left` replaces this one's).
        public mutating func add(_ other: Report) {
            analysed += other.analysed; damaged += other.damaged; faces += other.faces
            problems += other.problems; left = other.left; notAnalysed = other.notAnalysed
        }

        mutating func add(_ stored: [(path: String, analysis: AssetAnalysis)]) {
            analysed += stored.count
            damaged += stored.filter(\.analysis.damaged).count
            faces += stored.reduce(0) { $0 + $1.analysis.faces.count }
            problems += stored.compactMap { s in s.analysis.problem.map { FileProblem(path: s.path, reason: $0) } }
        }
    }

    let writer: AssetWriter
    let threads: Int
    let makeAnalyzer: @Sendable () throws -> any FileAnalyzing
    /// Results stored per commit: a kill loses at most this many files' work.
    public var batchSize = 16
    /// False: analyse and count, store nothing (the benchmark's thumbnails-only measurement).
    public var storesResults = true
    /// Background work (under `watch`): the worker threads run under SCHED_IDLE and idle I/O priority.
    public var background = false

    /// Runs a batch's storing with the writer lock held.
    public typealias LockedSection = (() throws -> Void) throws -> Void

    public init(writer: AssetWriter, threads: Int = max(1, ProcessInfo.processInfo.activeProcessorCount),
                makeAnalyzer: @escaping @Sendable () throws -> any FileAnalyzing) {
        self.writer = writer
        self.threads = max(1, threads)
        self.makeAnalyzer = makeAnalyzer
    }

    /// The worker threads for `work`, started; each makes its analyser on its own thread (loading
    /// the face models takes a moment, which the caller's thread does not wait for).
    func start(_ work: [Asset], first: (any FileAnalyzing)? = nil, shouldStop: @escaping @Sendable () -> Bool) -> AnalysisQueue {
        AnalysisQueue(work, library: writer.library, threads: min(threads, work.count), first: first, makeAnalyzer: makeAnalyzer,
                      background: background, shouldStop: shouldStop)
    }

    /// The assets still to analyse (of `ids`, when given), in capture order (present files only).
    public func pending(_ ids: [AssetID]? = nil) throws -> [Asset] {
        if ids?.isEmpty == true { return [] }
        var q = AssetQuery()
        q.ids = ids
        q.includeLiveVideos = true
        q.needsAnalysis = (true, AssetAnalysis.currentVersion)
        return try writer.index.assets(matching: q)
    }

    /// Analyses `assets` (default: all pending). `shouldStop` is asked between files; what was
    /// not stored then is left for the next run.
    public func run(_ assets: [Asset]? = nil, withWriterLock: LockedSection = { try $0() },
                    shouldStop: @escaping @Sendable () -> Bool = { false },
                    progress: (Progress) -> Void = { _ in }) throws -> Report {
        let work = try assets ?? pending()
        var report = Report()
        guard !work.isEmpty else { return report }
        // A missing face model fails the run here, in one line, before any work; the analyser
        // made to find out is the first worker's (its models are not loaded twice).
        let first = try makeAnalyzer()
        let queue = start(work, first: first, shouldStop: shouldStop)
        defer { queue.cancel(); queue.finish() }
        var store: AnalysisStore?
        var done = 0
        progress(Progress(done: 0, total: work.count))
        while let batch = queue.next(upTo: batchSize) {
            if let failure = queue.startFailure { throw ShoeboxError(.notFound, failure) }
            guard storesResults else {
                report.analysed += batch.filter { $0.outcome != nil }.count
                done += batch.count
                progress(Progress(done: done, total: work.count))
                continue
            }
            try withWriterLock {
                if store == nil { store = try AnalysisStore(writer: writer) }
                report.add(try store!.commit(batch))
            }
            done += batch.count
            progress(Progress(done: done, total: work.count))
        }
        if let failure = queue.startFailure, report.analysed == 0 { throw ShoeboxError(.notFound, failure) }
        report.left = work.count - report.analysed
        report.notAnalysed = queue.notAnalysed
        if store?.changedPeople == true { try withWriterLock { try writer.afterChange(regroup: false) } }
        return report
    }
}

/// The worker threads and the hand-over of their results, bounded: workers wait while
/// `2 × batch` results are waiting to be stored, so memory stays flat whatever the library size.
final class AnalysisQueue: @unchecked Sendable {
    struct Result { var asset: Asset; var outcome: FileAnalysis? }

    /// The files a worker could not analyse, with why (in the order met).
    var notAnalysed: [NotAnalysed] {
        condition.lock(); defer { condition.unlock() }
        return skipped
    }
    private var skipped: [NotAnalysed] = []

    private let condition = NSCondition()
    private var nextIndex = 0
    private var ready: [Result] = []
    private var running: Int
    private let work: [Asset]
    private let shouldStop: @Sendable () -> Bool
    private let maxWaiting = 32
    private var cancelled = false
    /// Workers start no file before this (the watcher is busy indexing: see `pause(until:)`).
    private var pausedUntil = Date.distantPast

    /// Why a worker could not make its analyser (the face models are missing), or nil.
    private(set) var startFailure: String? {
        get { condition.lock(); defer { condition.unlock() }; return failure }
        set { condition.lock(); failure = newValue; condition.unlock() }
    }
    private var failure: String?

    /// `first`: an analyser already made, for the first worker (then handed to that thread alone).
    init(_ work: [Asset], library: Library, threads: Int, first: (any FileAnalyzing)? = nil,
         makeAnalyzer: @escaping @Sendable () throws -> any FileAnalyzing,
         background: Bool, shouldStop: @escaping @Sendable () -> Bool) {
        self.work = work
        self.shouldStop = shouldStop
        running = threads
        for i in 0..<threads {
            nonisolated(unsafe) let given = i == 0 ? first : nil
            let thread = Thread { [self] in
                if background { AnalysisQueue.lowerPriority() }
                do {
                    self.runWorker(with: try given ?? makeAnalyzer(), library: library)
                } catch {
                    self.startFailure = "\(error)"
                    self.cancel()
                    self.workerLeft()
                }
            }
            thread.stackSize = 8 << 20  // dlib's detector recurses over image pyramids
            thread.start()
        }
    }

    /// Up to `count` results, waiting for at least one; nil when every worker is done.
    func next(upTo count: Int) -> [Result]? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && running > 0 { condition.wait() }
        guard !ready.isEmpty else { return nil }
        // Wait a little for a fuller batch while workers are still busy: fewer, larger commits.
        let deadline = Date().addingTimeInterval(0.5)
        while ready.count < count && running > 0 && condition.wait(until: deadline) {}
        let batch = Array(ready.prefix(count))
        ready.removeFirst(batch.count)
        condition.broadcast()
        return batch
    }

    /// The results ready now, up to `count`, without waiting; nil once every worker is done and
    /// everything was handed out.
    func ready(upTo count: Int) -> [Result]? {
        condition.lock()
        defer { condition.unlock() }
        if ready.isEmpty && running == 0 { return nil }
        let batch = Array(ready.prefix(count))
        ready.removeFirst(batch.count)
        condition.broadcast()
        return batch
    }

    /// Workers start no new file until `date` (those in hand finish): indexing comes first.
    func pause(until date: Date) {
        condition.lock()
        pausedUntil = max(pausedUntil, date)
        condition.unlock()
    }

    /// No file is started any more (the run failed or stops); those in hand finish.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the workers to leave (after a stop they finish the file in hand), at most
    /// `seconds`; false when some are still at work then.
    @discardableResult
    func finish(waitingAtMost seconds: Double = .infinity) -> Bool {
        let deadline = seconds.isFinite ? Date().addingTimeInterval(seconds) : .distantFuture
        condition.lock()
        defer { condition.unlock() }
        while running > 0 && condition.wait(until: deadline) {}
        return running == 0
    }

    private func runWorker(with analyzer: any FileAnalyzing, library: Library) {
        while let asset = take() {
            var outcome: FileAnalysis?
            var failure: ShoeboxError?
            do { outcome = try Self.analyze(asset, with: analyzer, library: library) } catch {
                failure = error as? ShoeboxError ?? ShoeboxError(.io, "not analysed: \(error)", underlying: error)
            }
            condition.lock()
            if let failure { skipped.append(NotAnalysed(path: asset.path, error: failure)) }
            ready.append(Result(asset: asset, outcome: outcome))
            condition.broadcast()
            condition.unlock()
        }
        workerLeft()
    }

    private func workerLeft() {
        condition.lock()
        running -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func take() -> Asset? {
        condition.lock()
        defer { condition.unlock() }
        while (ready.count >= maxWaiting || Date() < pausedUntil) && !cancelled && !shouldStop() {
            let now = Date()
            condition.wait(until: pausedUntil > now ? pausedUntil : now.addingTimeInterval(0.2))
        }
        guard nextIndex < work.count, !cancelled, !shouldStop() else { return nil }
        defer { nextIndex += 1 }
        return work[nextIndex]
    }

    /// The file opened and verified as every reader of an original does (`OriginalFile.open`:
    /// confined, non-blocking — a fifo put in a photo's place cannot hold a worker —, the index's
    /// inode, size and modification time). When it cannot be read as the index knows it, throws
    /// the `AnalysisError.notAnalysed` saying why (the next scan reads it, then it is analysed).
    static func analyze(_ asset: Asset, with analyzer: any FileAnalyzing, library: Library) throws -> FileAnalysis {
        let original: OriginalFile
        do { original = try OriginalFile.open(asset, in: library) } catch let e as ShoeboxError {
            throw AnalysisError.notAnalysed(e)
        }
        return withExtendedLifetime(original) { analyzer.analyze(asset, fileDescriptor: original.descriptor) }
    }

    /// Analysis is background work: below indexing and the user's programs, for CPU and disk
    /// (SCHED_IDLE, `nice` 10 and the idle I/O class, for this thread only). Best effort: where
    /// the system refuses (a sandbox without `sched_setscheduler`), analysis runs at normal
    /// priority, which costs speed, not correctness.
    @discardableResult static func lowerPriority() -> Bool { shoebox_background_thread() == 0 }
}

