import Foundation

/// What the inotify owner thread tells the watcher. Paths are relative to the library root.
enum WatchEvent: Sendable {
    /// Every folder is watched: the start-up scan may run.
    case ready
    /// A file was closed after being written.
    case closedWrite(String)
    /// First half of a rename; the second half carries the same cookie (or never comes: moved out).
    case movedFrom(String, cookie: UInt32, isFolder: Bool)
    /// Second half of a rename, or something moved in from outside the watched tree.
    case movedTo(String, cookie: UInt32, isFolder: Bool)
    case deleted(String, isFolder: Bool)
    /// A file or folder arrived under a name that is not UTF-8 (shown with `\xNN` escapes): it
    /// cannot be indexed, and is said once.
    case unnamable(String)
    /// A new folder, already watched (with everything in it) when this arrives.
    case folderCreated(String)
    /// Events were lost (queue overflow, a lost watch, a file system inside the library
    /// unmounted); watching is set up again and a scan must reconcile.
    case resync(reason: String)
    /// The library folder was renamed away, deleted or unmounted: nothing is watched until it is back.
    case rootLost(reason: String)
    /// The library folder is back and watched again.
    case rootBack
    /// inotify cannot watch this library (watch limit, no inotify): poll instead.
    case unavailable(message: String)
}

/// Events from the inotify thread to the watcher's loop, plus the stop request (signals).
final class EventQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var events: [WatchEvent] = []
    private var stopped = false

    func push(_ event: WatchEvent) {
        condition.lock()
        events.append(event)
        condition.signal()
        condition.unlock()
    }

    /// Everything queued, waiting until something is, `deadline` passes or `stop()` is called.
    func take(until deadline: Date?) -> [WatchEvent] {
        condition.lock()
        defer { condition.unlock() }
        while events.isEmpty && !stopped {
            if let deadline {
                if !condition.wait(until: deadline) { break }
            } else {
                condition.wait()
            }
        }
        let out = events
        events.removeAll(keepingCapacity: true)
        return out
    }

    /// Waits up to `seconds` or until `stop()`; false once stopped.
    func pause(seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(seconds)
        while !stopped && condition.wait(until: deadline) {}
        return !stopped
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether an event waits to be taken (the loop does background work only when none does).
    var hasEvents: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !events.isEmpty
    }

    var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }
}
