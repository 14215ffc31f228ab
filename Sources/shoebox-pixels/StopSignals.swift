import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM for the commands that run long (`watch`, `analyze`). The first one asks
/// the command to stop: it finishes at most the file or batch in hand, stores what is done and
/// returns, within a second. A second one ends the process at once — what Shoebox wrote is
/// committed whole already, and the next run does the rest.
final class StopSignals: @unchecked Sendable {
    private let lock = NSLock()
    private var received: Int32?
    private var sources: [DispatchSourceSignal] = []

    /// Installs the handlers; `onStop` runs (on another thread) at the first signal.
    init(onStop: @escaping @Sendable () -> Void = {}) {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [weak self] in
                guard let self else { return }
                let first = self.lock.withLock {
                    defer { self.received = self.received ?? sig }
                    return self.received == nil
                }
                if first { onStop() } else { Self.exitNow(128 + sig) }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Whether a signal asked the command to stop.
    var isStopping: Bool { lock.withLock { received != nil } }

    /// The status of a command a signal stopped, as a shell shows one a signal killed (130 for
    /// SIGINT, 143 for SIGTERM); nil when none came.
    var interruptedStatus: Int32? { lock.withLock { received.map { 128 + $0 } } }

    /// Ends the process now, without exit handlers or library destructors: worker threads may
    /// still be inside a decoder or the face models, which those destructors would pull from
    /// under them. Everything Shoebox wrote is committed already; buffered output is flushed.
    static func exitNow(_ status: Int32) -> Never {
        fflush(nil)
        _exit(status)
    }
}
