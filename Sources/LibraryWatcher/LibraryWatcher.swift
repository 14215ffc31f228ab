import Foundation
import Logging
import PhotoLibrary

/// `shoebox watch`: keeps the index equal to the disk while files arrive, move and go.
///
/// The inotify thread (`InotifyReader`) feeds events into a queue; this loop pairs renames by
/// cookie, holds removals a moment so a vanishing disk is judged as one event, re-checks files
/// still being written, and applies each batch through `LiveUpdater` under the writer lock —
/// taken per batch, so `shoebox scan` from another shell still gets its turn. Lost events
/// (overflow, a lost watch, downtime) are made good by a reconciling scan.
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
    private var nextSafetyScan: Date?
    /// Recently Deleted is purged at start-up and then hourly.
    private var nextPurge: Date?
    private var saidAlbumsOff = false
    /// Reconciling scans that failed in a row (a full disk, a read-only remount…), and the last
    /// error said: retries come sooner than a minute at first, and the same error is said once.
    private var failedScans = 0
    /// What was last said of each file that could not be indexed, and when: a folder arrival and
    /// the file's own events often reach the same broken file twice, and it is said once.
    private var saidProblems: [String: (reason: String, at: Date)] = [:]
    private var lastScanError: String?

    public init(library: Library, index: Index, options: Options, logger: Logger) {
        self.library = library
        self.index = index
        self.options = options
        self.logger = logger
    }

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

    private struct HeldRename {
        var path: String
        var cookie: UInt32
        var isFolder: Bool
        var deadline: Date
    }

    private struct Recheck {
        var due: Date
        var delay: Double
    }

    private func loop() {
        var renames: [HeldRename] = []
        var heldRemovals: [LiveUpdater.Change] = []
        var removalsFirstHeld: Date?
        var removalsDue: Date?
        var rechecks: [String: Recheck] = [:]
        var ready = false

        while !queue.isStopped {
            let deadline: Date?
            switch pause {
            case .running:
                deadline = [renames.map(\.deadline).min(), removalsDue, rechecks.values.map(\.due).min(), nextSafetyScan,
                            nextPurge].compactMap { $0 }.min()
            case .rootGone:
                deadline = renames.map(\.deadline).min()
            case .massDisappearance(let next):
                deadline = min(renames.map(\.deadline).min() ?? next, next)
            }
            let events = queue.take(until: deadline)
            if queue.isStopped { break }
            let now = Date()
            var changes: [LiveUpdater.Change] = []
            var scanReason: String?
            var removalsCame = false

            for event in events {
                switch event {
                case .ready:
                    ready = true
                    logger.info("watching \(library.root.path)")
                    scanReason = "start-up"
                case .closedWrite(let path):
                    rechecks[path] = nil
                    changes.append(.arrived(path))
                case .movedFrom(let path, let cookie, let isFolder):
                    renames.append(HeldRename(path: path, cookie: cookie, isFolder: isFolder,
                                              deadline: now.addingTimeInterval(options.renamePairWindow)))
                case .movedTo(let path, let cookie, let isFolder):
                    if let i = renames.firstIndex(where: { $0.cookie == cookie }) {
                        let from = renames.remove(at: i)
                        if let change = LibraryWatcher.rename(from: from.path, to: path, isFolder: isFolder) {
                            if case .removed = change { heldRemovals.append(change); removalsCame = true }
                            else if case .folderRemoved = change { heldRemovals.append(change); removalsCame = true }
                            else { changes.append(change) }
                        }
                        rechecks[from.path] = nil
                    } else {
                        // Moved in from outside (or from Recently Deleted/): an arrival, matched by content.
                        changes.append(isFolder ? .folderArrived(path) : .arrived(path))
                    }
                case .deleted(let path, let isFolder):
                    rechecks[path] = nil
                    heldRemovals.append(isFolder ? .folderRemoved(path) : .removed(path))
                    removalsCame = true
                case .folderCreated(let path):
                    changes.append(.folderArrived(path))
                case .unnamable(let path):
                    warnOnce(path, FileProblem.nameNotUTF8)
                case .resync(let reason):
                    scanReason = reason
                    changes.removeAll()
                    heldRemovals.removeAll()
                    renames.removeAll()
                case .rootLost(let reason):
                    pause = .rootGone
                    logger.warning("paused: \(reason); nothing is marked missing, watching resumes when it is back")
                    changes.removeAll()
                    heldRemovals.removeAll()
                    renames.removeAll()
                    scanReason = nil
                case .rootBack:
                    pause = .running
                    logger.info("resumed: the library folder \(library.root.path) is back")
                    scanReason = "the library folder came back"
                case .unavailable(let message):
                    let seconds = options.fallbackPollSeconds
                    logger.error("\(message); scanning every \(format(seconds)) s instead")
                    return poll(every: seconds)
                }
            }
            // A rename whose second half did not come moved something out of the library.
            for r in renames where r.deadline <= now {
                heldRemovals.append(r.isFolder ? .folderRemoved(r.path) : .removed(r.path))
                removalsCame = true
            }
            renames.removeAll { $0.deadline <= now }

            guard ready else { continue }
            switch pause {
            case .rootGone, .massDisappearance:
                // Events are not applied while paused: the scan that ends the pause covers them.
                heldRemovals.removeAll()
                removalsDue = nil
                removalsFirstHeld = nil
                rechecks.removeAll()
            case .running:
                break
            }
            switch pause {
            case .rootGone:
                continue
            case .massDisappearance(let next):
                guard now >= next else { continue }
                reconcile(reason: "checking whether the vanished files are back")
                continue
            case .running:
                break
            }
            if let reason = scanReason {
                reconcile(reason: reason)
                if case .running = pause {} else { continue }
            }

            for (path, r) in rechecks where r.due <= now {
                changes.append(.arrived(path))
                // Not due again before the outcome says so (or a while, should the batch fail).
                rechecks[path]?.due = now.addingTimeInterval(max(r.delay, 1))
            }
            if removalsCame {
                removalsFirstHeld = removalsFirstHeld ?? now
                removalsDue = min(now.addingTimeInterval(options.removalGrace),
                                  removalsFirstHeld!.addingTimeInterval(options.removalGraceLimit))
            }
            if let due = removalsDue, due <= now {
                changes += heldRemovals
                heldRemovals.removeAll()
                removalsDue = nil
                removalsFirstHeld = nil
            }
            if !changes.isEmpty, let report = apply(changes) {
                var arrived = Set<String>()
                for change in changes { if case .arrived(let path) = change { arrived.insert(path) } }
                for path in arrived where !report.stillBeingWritten.contains(path) { rechecks[path] = nil }
                for path in report.stillBeingWritten {
                    // Re-check a file still being written soon, then less often: it is indexed once it is whole.
                    let delay = min((rechecks[path]?.delay ?? 0.1) * 2, 5)
                    rechecks[path] = Recheck(due: Date().addingTimeInterval(delay), delay: delay)
                }
            }
            if let due = nextSafetyScan, due <= Date() {
                reconcile(reason: "safety scan")
            }
            if let due = nextPurge, due <= Date() {
                purge()
            }
        }
        logger.info("stopped")
    }

    /// What a cookie-paired rename means for the index, given which ends Shoebox indexes.
    static func rename(from: String, to: String, isFolder: Bool) -> LiveUpdater.Change? {
        let probe = isFolder ? "/x" : ""
        let fromIndexed = Library.isIndexable(relativePath: from + probe)
        let toIndexed = Library.isIndexable(relativePath: to + probe)
        switch (fromIndexed, toIndexed) {
        case (true, true): return isFolder ? .folderMoved(from: from, to: to) : .moved(from: from, to: to)
        // From a temporary name (or Recently Deleted/) into place: an arrival, matched by content.
        case (false, true): return isFolder ? .folderArrived(to) : .arrived(to)
        // Into a reserved folder or to a hidden or temporary name: gone from the library.
        case (true, false): return isFolder ? .folderRemoved(from) : .removed(from)
        case (false, false): return nil
        }
    }

    // MARK: Applying

    /// One batch under the writer lock. Nil when it could not be applied (paused, or an error
    /// that a reconciling scan will make good).
    private func apply(_ changes: [LiveUpdater.Change]) -> LiveUpdater.Report? {
        let updaterOptions = LiveUpdater.Options(settings: options.settings)
        let updater = LiveUpdater(library: library, index: index, options: updaterOptions)
        do {
            guard let report = try withWriterLock({ try updater.apply(changes) }) else { return nil }
            log(report)
            return report
        } catch let e as ShoeboxError where e.code == .massDisappearance {
            enterMassPause(e)
        } catch {
            logger.error("\(error); a scan will reconcile in a few seconds")
            nextSafetyScan = Date().addingTimeInterval(5)
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
            for p in report.failed { warnOnce(p.path, p.reason) }
            for p in report.warnings {
                if p.path == "Albums" { logger.warning("\(p.reason)") } else { warnOnce(p.path, p.reason) }
            }
            if report.removedFromAlbums > 0 {
                logger.info("\(report.removedFromAlbums) asset(s) taken out of user albums: their links were deleted by hand")
            }
            if let off = report.albumsOff, !saidAlbumsOff { logger.warning("\(off)"); saidAlbumsOff = true }
            if nextPurge == nil { nextPurge = Date() }
        } catch let e as ShoeboxError where e.code == .massDisappearance {
            enterMassPause(e)
        } catch {
            failedScans += 1
            let delay = min(60, 5 * pow(2, Double(min(failedScans, 5) - 1)))
            let text = "\(error)"
            if text != lastScanError {
                logger.error("scan failed (\(reason)): \(text); trying again in \(Int(delay)) s, then every minute while it fails")
                lastScanError = text
            }
            nextSafetyScan = Date().addingTimeInterval(delay)
            return
        }
        if failedScans > 0 {
            logger.info("recovered: the scan works again after \(failedScans) failed attempt(s)")
            failedScans = 0
            lastScanError = nil
        }
        nextSafetyScan = options.settings.safetyScanMinutes > 0
            ? Date().addingTimeInterval(options.settings.safetyScanMinutes * 60) : nil
    }

    /// Deletes what has waited in Recently Deleted longer than `[trash] retention_days`.
    private func purge() {
        nextPurge = Date().addingTimeInterval(3600)
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
            for p in albums.problems { logger.warning("\(p)") }
        }
    }

    // MARK: Polling

    /// Network file systems send no inotify events: a scan every `seconds` (unchanged files cost a stat).
    private func poll(every seconds: Double) {
        while !queue.isStopped {
            reconcile(reason: "poll")
            if let due = nextPurge, due <= Date() { purge() }
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
