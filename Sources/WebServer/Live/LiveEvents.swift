import Foundation
import NIOConcurrencyHelpers

/// Tells open pages that the library changed — through this process's watcher, an upload, or a
/// command in another process (all of them move the index's generation, which `LibraryUpkeep`
/// polls) — as server-sent events. Each page holds one stream; a closed page drops its own.
final class LiveEvents: Sendable {
    private struct State {
        var streams: [UUID: AsyncStream<String>.Continuation] = [:]
        var closed = false
        /// The library's last stamp, told to each new stream first: a change made between a
        /// page's fetch and its stream's opening (or during a reconnect) is not lost.
        var latest: String?
    }
    private let state = NIOLockedValueBox(State())

    /// A new stream of event texts (`event: …\ndata: …\n\n`), ended when the server stops; it
    /// starts with the library's current stamp, which the page ignores when it is the one it has.
    func subscribe() -> AsyncStream<String> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let closed = state.withLockedValue { s in
            if !s.closed {
                s.streams[id] = continuation
                // Yielded under the lock, so no newer stamp can reach this stream before it.
                if let latest = s.latest { continuation.yield(Self.libraryEvent(latest)) }
            }
            return s.closed
        }
        if closed { continuation.finish() }
        continuation.onTermination = { [weak self] _ in self?.state.withLockedValue { _ = $0.streams.removeValue(forKey: id) } }
        return stream
    }

    var subscribers: Int { state.withLockedValue { $0.streams.count } }

    func libraryChanged(generation: String) {
        let text = Self.libraryEvent(generation)
        for c in state.withLockedValue({ s -> [AsyncStream<String>.Continuation] in
            s.latest = generation
            return Array(s.streams.values)
        }) { c.yield(text) }
    }

    /// The stamp the library has now, remembered for new streams without telling open ones.
    func libraryIs(generation: String) {
        state.withLockedValue { $0.latest = generation }
    }

    private static func libraryEvent(_ generation: String) -> String {
        "event: library\ndata: {\"generation\":\"\(generation)\"}\n\n"
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
