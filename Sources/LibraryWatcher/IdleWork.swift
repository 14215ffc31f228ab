import Foundation

/// Work the watcher does between batches of changes (the analysis pipeline): asked for a step
/// only when no event waits, on the loop's thread, with the writer lock held; it writes through
/// the watcher's own writer (`LibraryWatcher.writer`). A step must be short (store what is
/// ready, start what is new): the slow part runs on its own threads.
public protocol IdleWork: AnyObject {
    /// When the next step is wanted (the loop wakes then, and steps once no event waits), or
    /// nil when there is nothing to do until files change.
    var nextStep: Date? { get }
    /// Files arrived, changed or were reconciled by a scan.
    func filesChanged()
    /// Does one step; returns a line for the watcher's log, or nil.
    func step() throws -> String?
}
