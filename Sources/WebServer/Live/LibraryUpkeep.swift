import Analysis
import Foundation
import LibraryWatcher
import Logging
import NIOConcurrencyHelpers
import PhotoLibrary
import ServiceLifecycle

/// What `serve` keeps running beside the pages: the watcher with background analysis (as
/// `watch`), unless `--no-watch`, and the poll that tells pages the library changed — also when
/// another process (a CLI command, a `watch`) changed it: the index's generation (every asset
/// change) and the user albums' folder (an album's file is replaced on every change).
final class LibraryUpkeep: Service, @unchecked Sendable {
    let session: LibrarySession
    let events: LiveEvents
    let watching: Bool
    let logger: Logger
    /// Runs on the poll's thread before pages are told (the grid made again for them).
    let changed: @Sendable () -> Void
    private let stopping = NIOLockedValueBox(false)
    private let watcher = NIOLockedValueBox<LibraryWatcher?>(nil)

    static let pollInterval: TimeInterval = 0.4
    static let pingInterval: TimeInterval = 15

    init(session: LibrarySession, events: LiveEvents, watching: Bool, logger: Logger, changed: @escaping @Sendable () -> Void) {
        self.changed = changed
        self.session = session
        self.events = events
        self.watching = watching
        self.logger = logger
    }

    func run() async throws {
        let poller = Thread { [self] in poll() }
        poller.name = "shoebox-generation-poll"
        poller.start()
        let watchDone = watching ? startWatcher() : nil
        try? await gracefulShutdown()
        stopping.withLockedValue { $0 = true }
        watcher.withLockedValue { $0?.stop() }
        events.close()
        if let watchDone { await watchDone.wait() }
    }

    /// Reads the stamp a few times a second: one row of `meta` and one `lstat`, no lock.
    private func poll() {
        var last = stamp() ?? ""
        events.libraryIs(generation: last)
        changed()
        var sincePing: TimeInterval = 0
        while !stopping.withLockedValue({ $0 }) {
            Thread.sleep(forTimeInterval: Self.pollInterval)
            sincePing += Self.pollInterval
            if let now = stamp(), now != last {
                last = now
                changed()
                events.libraryChanged(generation: now)
            }
            if sincePing >= Self.pingInterval {
                sincePing = 0
                events.ping()
            }
        }
    }

    /// What changes when the library does, for pages: "GENERATION.ALBUMS_MTIME".
    private func stamp() -> String? {
        guard let generation = try? session.read({ try $0.generation() }) else { return nil }
        let albums = ((try? session.library.files.lstat(UserAlbums.stateFolder)) ?? nil)?.mtimeNS ?? 0
        return "\(generation).\(albums)"
    }

    /// The watcher and its analysis on a thread of their own, as `watch` runs them.
    private func startWatcher() -> Done? {
        let done = Done()
        do {
            if let problem = session.index.readOnlyReason { throw problem }
            var options = LibraryWatcher.Options()
            options.settings = try session.settings
            // What a kill left is repaired now when the library is free; else the first batch waits.
            do { try session.write(timeout: 0) { _ in } } catch let e as ShoeboxError where e.code == .locked {}
            let w = LibraryWatcher(library: session.library, index: session.index, options: options, logger: logger)
            // Used by the watcher thread alone once started (the thread below only stops it).
            nonisolated(unsafe) let analysis = WatchAnalysis(BackgroundAnalysis(writer: w.writer) { try PixelAnalyzer() })
            w.idleWork = analysis
            watcher.withLockedValue { $0 = w }
            let thread = Thread { [logger] in
                w.run()
                _ = analysis.analysis.stop(waitingAtMost: 0.5)
                if let reason = w.stoppedBecause { logger.error("the watcher stopped: \(reason.description)") }
                done.signal()
            }
            thread.name = "shoebox-watch"
            thread.start()
            return done
        } catch {
            logger.error("not watching the library: \(String(describing: error))")
            return nil
        }
    }

    /// A thread's end, awaited without blocking the concurrency pool.
    final class Done: Sendable {
        private let state = NIOLockedValueBox<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
        func signal() {
            let waiters = state.withLockedValue { s in s.done = true; defer { s.waiters = [] }; return s.waiters }
            waiters.forEach { $0.resume() }
        }
        func wait() async {
            await withCheckedContinuation { c in
                let ready = state.withLockedValue { s in if !s.done { s.waiters.append(c) }; return s.done }
                if ready { c.resume() }
            }
        }
    }
}
