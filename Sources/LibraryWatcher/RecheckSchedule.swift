import Foundation

/// Files that were still being written when read (growing, or without their end yet): each is
/// looked at again soon, then less and less often (0.2 s, 0.4 s… up to every 5 s) until it is
/// whole, or until an event about it makes the re-check moot. Pure: the time is passed in.
struct RecheckSchedule {
    /// The wait before the first re-check; each further one waits twice as long…
    static let firstDelay = 0.2
    /// …up to this.
    static let longestDelay = 5.0
    /// A re-check handed out is not handed out again before this, should its batch fail.
    static let retryDelay = 1.0

    private struct Entry {
        var due: Date
        var delay: Double
    }

    private var entries: [String: Entry] = [:]

    var isEmpty: Bool { entries.isEmpty }
    /// When the next re-check is due; nil when nothing waits.
    var nextDue: Date? { entries.values.map(\.due).min() }

    /// Whether `path` waits for a re-check.
    func isScheduled(_ path: String) -> Bool { entries[path] != nil }

    /// The file was written, moved or deleted since: its own event says what it is now.
    mutating func cancel(_ path: String) { entries[path] = nil }

    /// Paths whose re-check is due at `now`, in name order. They stay scheduled, not due again
    /// before the outcome of their batch says (or a while, should the batch fail).
    mutating func due(at now: Date) -> [String] {
        let paths = entries.filter { $0.value.due <= now }.map(\.key).sorted()
        for path in paths {
            entries[path]!.due = now.addingTimeInterval(max(entries[path]!.delay, RecheckSchedule.retryDelay))
        }
        return paths
    }

    /// The outcome of a batch: files that arrived and are whole need no re-check; those still
    /// being written are looked at again, each time a little later.
    mutating func record(arrived: some Sequence<String>, stillBeingWritten: [String], at now: Date) {
        let unfinished = Set(stillBeingWritten)
        for path in arrived where !unfinished.contains(path) { entries[path] = nil }
        for path in unfinished {
            let delay = entries[path].map { min($0.delay * 2, RecheckSchedule.longestDelay) } ?? RecheckSchedule.firstDelay
            entries[path] = Entry(due: now.addingTimeInterval(delay), delay: delay)
        }
    }

    /// Forgets every re-check (paused: the scan that ends the pause reads those files).
    mutating func removeAll() { entries.removeAll() }
}
