import Foundation

/// A burst of events — a selection of photos dropped in, a sync client catching up — is gathered
/// into one batch: applying whatever had arrived when the previous batch ended instead cuts a
/// 2,000-file drop into several batches, and each one pays the writer lock, the album sync and
/// a pipeline that runs dry at its end (the watcher was 0.7–0.9× a cold scan of the same files).
/// A turn with few events waits only `settle` for a next one (the first file of a drop is then
/// not a batch of its own), so a single photo is indexed in milliseconds. Pure: the time is passed in.
struct BurstGathering {
    /// Events in one turn that make it a burst.
    let threshold: Int
    /// Fewer events than `threshold` are applied when no event came for this long.
    let settle: Double
    /// A burst is over when no event came for this long.
    let quiet: Double
    /// A burst is never held longer than this after its first turn.
    let limit: Double

    private var started: Date?
    private var lastEvent: Date?
    private(set) var count = 0

    init(threshold: Int = 16, settle: Double = 0.003, quiet: Double = 0.01, limit: Double = 2) {
        self.threshold = threshold
        self.settle = settle
        self.quiet = quiet
        self.limit = limit
    }

    /// Records `events` events taken at `now`.
    mutating func took(_ events: Int, at now: Date) {
        guard events > 0 else { return }
        if started == nil { started = now }
        lastEvent = now
        count += events
    }

    /// When to take events again before applying, or nil: apply what was taken now.
    func nextLook(at now: Date) -> Date? {
        guard let started, let lastEvent else { return nil }
        let gap = count >= threshold ? quiet : settle
        let end = min(lastEvent.addingTimeInterval(gap), started.addingTimeInterval(limit))
        return now < end ? end : nil
    }
}
