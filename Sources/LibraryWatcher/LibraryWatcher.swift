import Foundation
import Logging
import PhotoLibrary

/// `shoebox watch`: keeps the index equal to the disk while files arrive, move and go.
///
/// The inotify thread (`InotifyReader`) feeds events into a queue; this loop pairs renames by
/// cookie (`RenamePairing`), holds removals a moment so a
/// vanishing disk is judged as one event (`RemovalHold`), re-checks files still being written
/// (`RecheckSchedule`), and applies each batch through `LiveUpdater` under the writer lock —
/// taken per batch, so `shoebox scan` from another shell still gets its turn. Lost events
/// (overflow, a lost watch, downtime) are made good by a reconciling scan (`ScanSchedule`).
public final class LibraryWatcher: @unchecked Sendable {
    public struct Options: Sendable {
        /// Scan every this many seconds instead of using inotify (network file systems).
        public var pollSeconds: Double?
        public var settings = LibrarySettings()
        /// Removals wait this long for more of their kind, so that a disk going away is judged whole…
        public var removalGrace = 0.3
        /// …but never longer than this after the first.
        public var removalGraceLimit = 2.0
        /// How long the first half of a rename waits for its second before it counts as a move out.
        public var renamePairWindow = 0.05
        /// While paused because much of the library vanished, look again this often.
        public var pausedRecheckSeconds = 3.0
        /// Polling interval when inotify cannot be used and `--poll` was not given.
        public var fallbackPollSeconds = 30.0
        public init() {}
    }

    private enum Pause {
        case running
        /// The root is renamed away, deleted or unmounted: the reader says when it is back.
        case rootGone
        /// Too much vanished at once: a scan is tried every few seconds; it succeeds once the files are back.
        case massDisappearance(nextCheck: Date)
    }

    private let library: Library
    private let index: Index
    private let options: Options
    private let logger: Logger
    private let queue = EventQueue()
    private var pause = Pause.running
    /// The start-up scan runs once every folder is watched; events before are not applied.
    private var ready = false
    private var renames: RenamePairing
    private var removals: RemovalHold
    private var rechecks = RecheckSchedule()
    /// Safety scans, retries of failed scans, and purges of Recently Deleted (at start-up, then hourly).
    private var schedule: ScanSchedule
    private var saidAlbumsOff = false
    /// What was last said of each file that could not be indexed, and when: a folder arrival and
    /// the file's own events often reach the same broken file twice, and it is said once.
    private var saidProblems: [String: (reason: String, at: Date)] = [:]
    /// The last error of a failing scan: the same error is said once.
    private var lastScanError: String?
    /// One for the watch's life: it keeps the index's file records between batches (reloaded
    /// when another process wrote, a `rebuild` included).
    private let updater: LiveUpdater
    /// Work done between batches when no event waits (the analysis pipeline), with the watcher's
    /// own writer and the writer lock.
    public var idleWork: (any IdleWork)?
    /// Why the watch stopped by itself (its index's `-wal` was deleted under it); nil when it
    /// was asked to stop.
    public private(set) var stoppedBecause: ShoeboxError?

    public init(library: Library, index: Index, options: Options, logger: Logger) {
        self.library = library
        self.index = index
        self.options = options
        self.logger = logger
        renames = RenamePairing(window: options.renamePairWindow)
        removals = RemovalHold(grace: options.removalGrace, limit: options.removalGraceLimit)
        schedule = ScanSchedule(safetyScanMinutes: options.settings.safetyScanMinutes)
        updater = LiveUpdater(library: library, index: index, options: LiveUpdater.Options(settings: options.settings))
    }

    /// The writer the watcher's batches go through: idle work writes through it too, so that the
    /// watcher's view of the index follows those commits instead of reloading.
    public var writer: AssetWriter { updater.writer }

    /// Asks `run` to return after the batch in hand (any thread; signal handlers).
    public func stop() { queue.stop() }

    /// Watches until `stop()`.
    public func run() {
        if let seconds = options.pollSeconds {
            logger.info("watching \(library.root.path) by scanning every \(format(seconds)) s")
            return poll(every: seconds)
        }
        Scanner.preload()
        InotifyReader(library: library, queue: queue).start()
        loop()
    }

    // MARK: The event loop

    /// What one turn of the loop gathered from its events.
    private struct Turn {
        var changes: [LiveUpdater.Change] = []
        var scanReason: String?
        /// inotify cannot be used: poll instead.
        var fallBackToPolling = false
    }

    private func loop() {
        while !queue.isStopped {
            let events = gatherTurn()
            if queue.isStopped { break }
            let now = Date()
            var turn = Turn()
            for event in events { handle(event, at: now, into: &turn) }
            if turn.fallBackToPolling { return poll(every: options.fallbackPollSeconds) }
            // A rename whose second half did not come moved something out of the library.
            for half in renames.expired(at: now) { removals.hold(RenamePairing.change(movedOut: half), at: now) }

            guard ready else { continue }
            guard runsAfterPause(at: now) else { continue }
            if let reason = turn.scanReason {
                reconcile(reason: reason)
                if case .running = pause {} else { continue }
            }
            var changes = turn.changes
            changes += rechecks.due(at: now).map { .arrived($0) }
            changes += removals.release(at: now)
            if !changes.isEmpty, let report = apply(changes) {
                let arrived = changes.compactMap { change -> String? in
                    if case .arrived(let path) = change { return path } else { return nil }
                }
                rechecks.record(arrived: arrived, stillBeingWritten: report.stillBeingWritten, at: Date())
                idleWork?.filesChanged()
            }
            if schedule.isSafetyScanDue(at: Date()) { reconcile(reason: "safety scan") }
            if schedule.isPurgeDue(at: Date()) { purge() }
            if !queue.hasEvents { doIdleWork() }
        }
        logger.info("stopped")
    }

    /// The events of one turn: what is queued (waiting for the next event or wake-up), and, when
    /// that is a burst, what follows it until a short quiet (`BurstGathering`).
    private func gatherTurn() -> [WatchEvent] {
        var events = queue.take(until: nextWake())
        var burst = BurstGathering()
        burst.took(events.count, at: Date())
        while let look = burst.nextLook(at: Date()) {
            let more = queue.take(until: look)
            if more.isEmpty || queue.isStopped { break }
            events += more
            burst.took(more.count, at: Date())
        }
        return events
    }

    /// When the loop must look again without an event: a rename's time running out, held
    /// removals, re-checks and scheduled scans (only what a pause leaves).
    private func nextWake() -> Date? {
        switch pause {
        case .running:
            // Never a wake-up in the past (the loop would spin while idle work cannot step:
            // before the start-up scan, while events keep coming).
            let idle = ready ? idleWork?.nextStep.map { max($0, Date().addingTimeInterval(0.05)) } : nil
            return [renames.nextDeadline, removals.due, rechecks.nextDue, schedule.nextDeadline, idle].compactMap { $0 }.min()
        case .rootGone:
            return renames.nextDeadline
        case .massDisappearance(let next):
            return min(renames.nextDeadline ?? next, next)
        }
    }

    private func handle(_ event: WatchEvent, at now: Date, into turn: inout Turn) {
        switch event {
        case .ready:
            ready = true
            logger.info("watching \(library.root.path)")
            turn.scanReason = "start-up"
        case .closedWrite(let path):
            rechecks.cancel(path)
            turn.changes.append(.arrived(path))
        case .movedFrom(let path, let cookie, let isFolder):
            renames.movedFrom(path, cookie: cookie, isFolder: isFolder, at: now)
        case .movedTo(let path, let cookie, let isFolder):
            guard let from = renames.movedTo(cookie: cookie) else {
                // Moved in from outside (or from Recently Deleted/): an arrival, matched by content.
                turn.changes.append(isFolder ? .folderArrived(path) : .arrived(path))
                return
            }
            rechecks.cancel(from.path)
            switch RenamePairing.change(from: from.path, to: path, isFolder: isFolder) {
            case let removal? where removal.isRemoval: removals.hold(removal, at: now)
            case let change?: turn.changes.append(change)
            case nil: break
            }
        case .deleted(let path, let isFolder):
            rechecks.cancel(path)
            removals.hold(isFolder ? .folderRemoved(path) : .removed(path), at: now)
        case .folderCreated(let path):
            turn.changes.append(.folderArrived(path))
        case .unnamable(let path):
            warnOnce(path, FileProblem.nameNotUTF8)
        case .resync(let reason):
            turn.scanReason = reason
            forgetPendingChanges(&turn)
        case .rootLost(let reason):
            pause = .rootGone
            logger.warning("paused: \(reason); nothing is marked missing, watching resumes when it is back")
            forgetPendingChanges(&turn)
            turn.scanReason = nil
        case .rootBack:
            pause = .running
            logger.info("resumed: the library folder \(library.root.path) is back")
            turn.scanReason = "the library folder came back"
        case .unavailable(let message):
            logger.error("\(message); scanning every \(format(options.fallbackPollSeconds)) s instead")
            turn.fallBackToPolling = true
        }
    }

    /// Events were lost or the root went: a scan (now or when it is back) covers what was pending.
    private func forgetPendingChanges(_ turn: inout Turn) {
        turn.changes.removeAll()
        removals.removeAll()
        renames.removeAll()
    }

    /// While paused, events are not applied (the scan that ends the pause covers them); false
    /// while the pause lasts. A mass-disappearance pause looks again when its time comes.
    private func runsAfterPause(at now: Date) -> Bool {
        switch pause {
        case .running:
            return true
        case .rootGone:
            removals.removeAll()
            rechecks.removeAll()
            return false
        case .massDisappearance(let next):
            removals.removeAll()
            rechecks.removeAll()
            if now >= next { reconcile(reason: "checking whether the vanished files are back") }
            return false
        }
    }

    // MARK: Applying

    /// One batch under the writer lock. Nil when it could not be applied (paused, or an error
    /// that a reconciling scan will make good).
    private func apply(_ changes: [LiveUpdater.Change]) -> LiveUpdater.Report? {
        do {
            guard let report = try withWriterLock({ try updater.apply(changes) }) else { return nil }
            log(report)
            return report
        } catch let e as ShoeboxError where e.code == .massDisappearance {
            enterMassPause(e)
        } catch {
            logger.error("\(error); a scan will reconcile in a few seconds")
            schedule.batchFailed(at: Date())
        }
        return nil
    }

    /// A full scan (start-up, overflow, lost watch, safety, end of a pause): its result is what
    /// the missed events would have produced.
    private func reconcile(reason: String) {
        let scanOptions = Scanner.Options(settings: options.settings)
        do {
            guard let report = try withWriterLock({ try Scanner(library: library, index: index, options: scanOptions).scan() }) else { return }
            if case .massDisappearance = pause {
                logger.info("resumed: the files of \(library.root.path) are back")
            }
            pause = .running
            let summary = [("added", report.added), ("updated", report.updated), ("moved", report.moved),
                           ("returned", report.returned), ("removed", report.removed)]
                .filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }.joined(separator: ", ")
            logger.info("reconciled by a scan (\(reason)): \(summary.isEmpty ? "no changes" : summary)")
            idleWork?.filesChanged()
            for p in report.failed { warnOnce(p.path, p.reason) }
            for p in report.warnings {
                if p.path == "Albums" { logger.warning("\(p.reason)") } else { warnOnce(p.path, p.reason) }
            }
            if report.removedFromAlbums > 0 {
                logger.info("\(report.removedFromAlbums) asset(s) taken out of user albums: their links were deleted by hand")
            }
            if let off = report.albumsOff, !saidAlbumsOff { logger.warning("\(off)"); saidAlbumsOff = true }
            schedule.scanReconciled(at: Date())
        } catch let e as ShoeboxError where e.code == .massDisappearance {
            enterMassPause(e)
            schedule.scanEnded(at: Date())
        } catch {
            let delay = schedule.scanFailed(at: Date())
            let text = "\(error)"
            if text != lastScanError {
                logger.error("scan failed (\(reason)): \(text); trying again in \(Int(delay)) s, then every minute while it fails")
                lastScanError = text
            }
            return
        }
        if schedule.failedScansBefore > 0 {
            logger.info("recovered: the scan works again after \(schedule.failedScansBefore) failed attempt(s)")
            lastScanError = nil
        }
    }

    /// One step of the idle work under the writer lock; its failures are logged, never fatal
    /// (indexing goes on; the work is tried again after the next change).
    private func doIdleWork() {
        guard let work = idleWork, let due = work.nextStep, due <= Date(), case .running = pause, ready else { return }
        do {
            if let line = try withWriterLock({ try work.step() }) ?? nil { logger.info("\(line)") }
        } catch {
            logger.error("\(error)")
        }
    }

    /// Deletes what has waited in Recently Deleted longer than `[trash] retention_days`.
    private func purge() {
        schedule.purged(at: Date())
        do {
            _ = try withWriterLock {
                let trash = RecentlyDeleted(library: library, index: index, retentionDays: options.settings.trashRetentionDays,
                                            log: { [logger] line in logger.info("\(line)") })
                return try trash.purge(failed: { [logger] line in logger.warning("\(line)") })
            }
        } catch {
            logger.error("purge of Recently Deleted failed: \(error); trying again in an hour")
        }
    }

    private func enterMassPause(_ error: ShoeboxError) {
        if case .massDisappearance = pause {} else {
            logger.warning("""
                paused: \(error.message). Watching resumes when they are back; if they are really gone, \
                run `shoebox scan --allow-mass-removal`
                """)
        }
        pause = .massDisappearance(nextCheck: Date().addingTimeInterval(options.pausedRecheckSeconds))
    }

    /// Runs `body` holding the writer lock, waiting (and saying so once) while another Shoebox
    /// process writes. Nil when stopped while waiting.
    private func withWriterLock<T>(_ body: () throws -> T) throws -> T? {
        var said = false
        while true {
            do {
                let lock = try LibraryLock(library: library, timeout: 1)
                // Writing on into a deleted `-wal` would be writing where no other process reads.
                do { try index.checkWALNotDeleted() } catch let e as ShoeboxError {
                    stoppedBecause = e
                    queue.stop()
                    return nil
                }
                return try withExtendedLifetime(lock) { try body() }
            } catch let e as ShoeboxError where e.code == .locked {
                if !said { logger.info("waiting: \(e.message)"); said = true }
                if queue.isStopped { return nil }
            }
        }
    }

    /// One line per problem with a file: the same words about the same file again within ten
    /// minutes are not repeated (a safety scan later says it again, as a reminder).
    private func warnOnce(_ path: String, _ reason: String) {
        let now = Date()
        if let said = saidProblems[path], said.reason == reason, now.timeIntervalSince(said.at) < 600 { return }
        if saidProblems.count > 10_000 { saidProblems = saidProblems.filter { now.timeIntervalSince($0.value.at) < 600 } }
        saidProblems[path] = (reason, now)
        logger.warning("\(displayPath(path)): \(reason)")
    }

    private func log(_ report: LiveUpdater.Report) {
        for entry in report.entries {
            switch entry {
            case .added(let id, let path):
                logger.info("added \(displayPath(path)) (id \(id))")
            case .updated(let id, let path):
                logger.info("updated \(displayPath(path)) (id \(id), edited in place)")
            case .returned(let id, let path, let from):
                logger.info("returned \(displayPath(path)) (id \(id), last seen at \(displayPath(from)))")
            case .moved(let id, let from, let to):
                logger.info("moved \(displayPath(from)) → \(displayPath(to)) (id \(id))")
            case .folderMoved(let from, let to, let count):
                logger.info("moved folder \(displayPath(from)) → \(displayPath(to)) (\(count) asset\(count == 1 ? "" : "s"))")
            case .removed(let id, let path):
                logger.info("removed \(displayPath(path)) (id \(id)): missing until its content comes back")
            case .restored(let id, let path):
                logger.info("restored \(displayPath(path)) from Recently Deleted (id \(id))")
            case .trashed(let id, let path):
                logger.info("moved to Recently Deleted by hand: \(displayPath(path)) (id \(id))")
            }
        }
        for p in report.failed { warnOnce(p.path, p.reason) }
        for p in report.warnings { warnOnce(p.path, p.reason) }
        if let albums = report.albums {
            for (album, id) in albums.removedByHand {
                logger.info("took \(id) out of the album \"\(album)\": its link was deleted by hand")
            }
            for line in albums.movedAsideLines { logger.warning("\(line)") }
            for p in albums.problems { logger.warning("\(p)") }
        }
    }

    // MARK: Polling

    /// Network file systems send no inotify events: a scan every `seconds` (unchanged files cost a stat).
    private func poll(every seconds: Double) {
        while !queue.isStopped {
            reconcile(reason: "poll")
            if schedule.isPurgeDue(at: Date()) { purge() }
            var wait = seconds
            if case .massDisappearance = pause { wait = min(seconds, options.pausedRecheckSeconds) }
            guard queue.pause(seconds: wait) else { break }
        }
        logger.info("stopped")
    }
}

private func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
}
