import Foundation
import NIOConcurrencyHelpers

/// Tells open pages that the library changed — through this process's watcher, an upload, or a
/// command in another process (all of them move the index's generation, which `LibraryUpkeep`
/// polls) — as server-sent events. Each page holds one stream; a closed page drops its own.
final class LiveEvents: Sendable {
    private struct State {
        var streams: [UUID: AsyncStream<String>.Continuation] = [:]
        var closed = false
    }
    private let state = NIOLockedValueBox(State())

    /// A new stream of event texts (`event: …\ndata: …\n\n`), ended when the server stops.
    func subscribe() -> AsyncStream<String> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let closed = state.withLockedValue { s in
            if !s.closed { s.streams[id] = continuation }
            return s.closed
        }
        if closed { continuation.finish() }
        continuation.onTermination = { [weak self] _ in self?.state.withLockedValue { _ = $0.streams.removeValue(forKey: id) } }
        return stream
    }

    var subscribers: Int { state.withLockedValue { $0.streams.count } }

    func libraryChanged(generation: String) {
        send("event: library\ndata: {\"generation\":\"\(generation)\"}\n\n")
    }

    /// A comment line: keeps proxies and the browser from timing the stream out.
    func ping() { send(": ping\n\n") }

    private func send(_ text: String) {
        for c in state.withLockedValue({ Array($0.streams.values) }) { c.yield(text) }
    }

    /// Ends every stream (the server is stopping) and refuses new ones.
    func close() {
        let all = state.withLockedValue { s in
            s.closed = true
            defer { s.streams.removeAll() }
            return Array(s.streams.values)
        }
        for c in all { c.finish() }
    }
}
