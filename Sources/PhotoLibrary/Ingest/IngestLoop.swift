import Foundation

/// The consume-and-commit loop that scan and watch share: files are read on worker threads
/// (`ProbePipeline`), each outcome is handed to the caller in file order, and what the caller
/// decides is committed through the writer in durable batches — so hashing never waits for the
/// index, and memory stays flat however many files changed.
struct IngestLoop {
    let writer: AssetWriter
    let workers: Int
    let batchSize: Int
    let now: Date
    /// The only folders whose photos may have an XMP sidecar beside them (what a walk saw); nil:
    /// every photo's folder is looked in (`watch`, which saw no walk).
    var sidecarFolders: Set<String>? = nil

    /// What one file turned out to be, for the caller to decide on.
    enum Event {
        case read(FileProbe.Result)
        case failed(FileProblem)
        /// Not a photo or video (nor named as one): never indexed, said under `scan --verbose`.
        case ignored(FileProblem)
    }

    /// The last files are committed as a batch of their own, at most this many: the batch before
    /// them is made durable while the workers still read these, so what is left once the last
    /// file is read is a small commit, not up to a whole batch's with a core idle (a first scan
    /// of 1,000 camera photos ended on 232 sidecars and rows, ~25 ms of one core).
    static func tailSize(batchSize: Int) -> Int { max(1, min(64, batchSize / 4)) }

    /// Reads `files` and commits the assets `decide` returns for each. `committed` runs after each
    /// batch is durable (the caller publishes its log entries then). Returns whether anything was committed.
    @discardableResult
    func run<Files: RandomAccessCollection<LibraryWalker.Entry> & Sendable>(_ files: Files,
             progress: (@Sendable (ScanProgress) -> Void)? = nil,
             decide: (Event) throws -> [Asset],
             committed: () -> Void = {}) throws -> Bool where Files.Index == Int {
        guard !files.isEmpty else { return false }
        var probe = FileProbe(library: writer.library, now: now)
        probe.sidecarFolders = sidecarFolders
        let total = files.count
        let pipeline = ProbePipeline(files: files, workers: workers, window: batchSize * 2) { done, bytes in
            progress?(ScanProgress(done: done, total: total, bytes: bytes))
        }
        pipeline.start(probe)
        defer { pipeline.stop() }
        var pending: [Asset] = []
        var wrote = false
        var consumed = 0
        let tail = Self.tailSize(batchSize: batchSize)
        func flush() throws {
            guard !pending.isEmpty else { return }
            try writer.commit(pending)
            pending.removeAll(keepingCapacity: true)
            wrote = true
            committed()
        }
        while let outcome = pipeline.next() {
            switch outcome {
            case .ignored(let problem): pending += try decide(.ignored(problem))
            case .failed(let problem): pending += try decide(.failed(problem))
            case .indexed(let result): pending += try decide(.read(result))
            }
            consumed += 1
            if pending.count >= batchSize || (total > tail && total - consumed == tail) { try flush() }
        }
        try flush()
        return wrote
    }
}
