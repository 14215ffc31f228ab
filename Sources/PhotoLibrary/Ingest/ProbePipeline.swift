import Foundation

/// Files read by worker threads, handed to one consumer in input order. Workers run at most
/// `window` files ahead of the consumer, so memory stays flat however many files change.
final class ProbePipeline<Files: RandomAccessCollection<LibraryWalker.Entry> & Sendable>: @unchecked Sendable
where Files.Index == Int {
    private let files: Files
    private let workers: Int
    private let window: Int
    private let onFile: @Sendable (Int, Int64) -> Void
    private let condition = NSCondition()
    private var results: [Int: FileProbe.Outcome] = [:]
    private var taken = 0
    private var consumed = 0
    private var done = 0
    private var bytes: Int64 = 0
    private var stopped = false

    init(files: Files, workers: Int, window: Int, onFile: @escaping @Sendable (Int, Int64) -> Void) {
        self.files = files
        self.workers = max(1, min(workers, files.count))
        self.window = max(window, workers)
        self.onFile = onFile
    }

    deinit { stop() }

    func start(_ probe: FileProbe) {
        guard !files.isEmpty else { return }
        for _ in 0..<workers {
            let thread = Thread { [self] in
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 4096)
                defer { buffer.deallocate() }
                while let i = take() {
                    let file = files[i]
                    let outcome = probe.probe(file.path, buffer: buffer)
                    put(i, outcome, size: file.stat.size)
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Stops the workers after their current file (the consumer failed and gives up).
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func take() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while !stopped && taken < files.count && taken >= consumed + window { condition.wait() }
        guard !stopped, taken < files.count else { return nil }
        taken += 1
        return taken - 1
    }

    private func put(_ i: Int, _ outcome: FileProbe.Outcome, size: Int64) {
        condition.lock()
        results[i] = outcome
        done += 1
        bytes += size
        onFile(done, bytes)
        // Only the consumer waits for a result, and only for the next one in order: a file read
        // ahead of it wakes nobody (a wake-up a file was ~1 % of a cold scan's CPU).
        if i == consumed { condition.broadcast() }
        condition.unlock()
    }

    /// The next outcome in input order; nil at the end.
    func next() -> FileProbe.Outcome? {
        condition.lock()
        defer { condition.unlock() }
        guard consumed < files.count else { return nil }
        while results[consumed] == nil { condition.wait() }
        let outcome = results.removeValue(forKey: consumed)
        consumed += 1
        condition.broadcast()
        return outcome
    }
}
