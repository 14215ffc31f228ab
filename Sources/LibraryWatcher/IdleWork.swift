/// Work the watcher does between batches of changes (the analysis pipeline): asked for a step
/// only when no event waits, on the loop's thread, with the writer lock held; it writes through
/// the watcher's own writer (`LibraryWatcher.writer`). A step must be short (store what is
/// ready, start what is new): the slow part runs on its own threads.
public protocol IdleWork: AnyObject {
    /// Whether a step has something to do now or soon (the loop then wakes to call it).
    var isBusy: Bool { get }
    /// Files arrived, changed or were reconciled by a scan.
    func filesChanged()
    /// Does one step; returns a line for the watcher's log, or nil.
    func step() throws -> String?
}

/// How often the loop looks at busy idle work when no event comes.
enum IdleWorkTiming {
    static let interval = 0.25
}
