import ArgumentParser
import Dispatch
import Foundation
import Logging
import NIOConcurrencyHelpers
import PhotoLibrary
import ShoeboxCommands
import WebServer

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "The web app on http://127.0.0.1:PORT/ (runs until stopped).",
        discussion: """
            Prints its URL on stdout, then serves the library's pages, photos and API to this machine \
            only; keeps the index up to date as `watch` does (analysis included) unless --no-watch. \
            --lan also listens on the LAN address for a phone and prints a one-time pairing URL \
            (valid 10 minutes); a device without the session it grants is refused. SIGINT or \
            SIGTERM stop it cleanly.
            """)

    @OptionGroup var options: LibraryOptions

    @Option(help: ArgumentHelp("The port on 127.0.0.1 (0: a free one).", valueName: "port"))
    var port = 8765

    @Flag(help: "Also listen on the LAN address, for a phone paired with the printed URL.")
    var lan = false

    @Flag(name: .customLong("no-watch"), help: "Do not watch the library (nor analyse new files) while serving.")
    var noWatch = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes 0…65535") }
    }

    func run() throws {
        try reportingErrors {
            let session = try options.session()
            var serveOptions = WebServer.Options()
            serveOptions.port = port
            serveOptions.lan = lan
            serveOptions.watch = !noWatch
            serveOptions.webRoot = ProcessInfo.processInfo.environment["SHOEBOX_WEB_ROOT"].flatMap { $0.isEmpty ? nil : $0 }
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = .info
                return handler
            }
            let logger = Logger(label: "shoebox.serve")
            let failure = NIOLockedValueBox<(any Error)?>(nil)
            let finished = DispatchSemaphore(value: 0)
            // ArgumentParser's command is synchronous: the server runs in a task while this thread
            // waits for it (ServiceLifecycle turns SIGINT/SIGTERM into a graceful stop).
            Task {
                do {
                    try await WebServer.run(session: session, options: serveOptions, logger: logger) { listening in
                        Terminal.out(listening.url)
                        if let pairing = listening.pairingURL {
                            Terminal.out(pairing)
                            Terminal.message("On your phone, open the second URL within 10 minutes to pair it (once).")
                        }
                    }
                } catch { failure.withLockedValue { $0 = error } }
                finished.signal()
            }
            finished.wait()
            if let error = failure.withLockedValue({ $0 }) {
                if let e = error as? ShoeboxError { throw e }
                throw ShoeboxError(.io, "serve stopped: \(error)")
            }
        }
    }
}
