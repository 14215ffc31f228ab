import Analysis
import ArgumentParser
import Dispatch
import Foundation
import LibraryWatcher
import Logging
import PhotoLibrary
import ShoeboxCommands
#if canImport(Glibc)
import Glibc
#endif

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Keep the index up to date while files arrive, move and go (runs until stopped).",
        discussion: """
            Uses inotify on the whole library; a start-up scan catches what changed while nothing \
            watched. One line per arrival, move and removal on stderr. SIGINT or SIGTERM stop it \
            cleanly. Settings: [watch] in .shoebox/config.toml.
            """)

    @OptionGroup var options: LibraryOptions

    @Option(help: ArgumentHelp("Scan every SECONDS instead of using inotify (network file systems).", valueName: "seconds"))
    var poll: Double?

    @Flag(inversion: .prefixedNo, help: "Analyse new files in the background (thumbnails, faces, people) at low priority.")
    var analyze = true

    func validate() throws {
        if let poll, !(poll > 0) { throw ValidationError("--poll takes a number of seconds above 0") }
    }

    func run() throws {
        try reportingErrors {
            let session = try options.session()
            let (library, index) = (session.library, session.index)
            var watchOptions = LibraryWatcher.Options()
            watchOptions.pollSeconds = poll
            watchOptions.settings = try session.settings
            // Watching is writing: on a read-only mount or a full disk, say so now rather than
            // start a watcher whose every batch fails (a disk that fills later is retried).
            if let problem = index.readOnlyReason { throw problem }
            // What a kill left (a batch, a feature's change) repaired now when the library is free;
            // when another process writes, the watcher's first batch waits its turn instead.
            do { try session.write(timeout: 0) { _ in } } catch let e as ShoeboxError where e.code == .locked {}
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = .info
                return handler
            }
            let watcher = LibraryWatcher(library: library, index: index, options: watchOptions,
                                         logger: Logger(label: "shoebox.watch"))
            let analysis = analyze ? WatchAnalysis(BackgroundAnalysis(writer: watcher.writer) { try PixelAnalyzer() }) : nil
            watcher.idleWork = analysis
            // A signal only asks the loop to stop: the batch in hand finishes (sidecars, journal, index) first.
            let signals = StopSignals { watcher.stop() }
            withExtendedLifetime(signals) { watcher.run() }
            // No file is started any more. The analysis workers run under SCHED_IDLE: on a busy
            // machine the files in hand could take minutes to finish, and their results would be
            // dropped anyway (analysed again by the next run). They get a moment, then the
            // process leaves without them.
            let workersBusy = analysis.map { !$0.analysis.stop(waitingAtMost: Self.workersPatience) } ?? false
            if let reason = watcher.stoppedBecause {
                guard !workersBusy else {
                    Terminal.error(reason.description)
                    StopSignals.exitNow(1)
                }
                throw reason
            }
            if workersBusy { StopSignals.exitNow(0) }
        }
    }

    /// How long a stop waits for the analysis workers' files in hand.
    static let workersPatience = 0.5
}
