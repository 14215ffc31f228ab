import NIOConcurrencyHelpers
import Memories
import PhotoLibrary

/// The collages made lately, by render token, so that "Save" puts into `Collages/` the very
/// collage the page shows (its bytes and its source's name), not a new one: the library may
/// have changed meanwhile. Bounded like the render cache that serves their JPEG; the oldest go
/// first. A collage saved once answers its saved asset again (a second tap saves no copy).
final class CollageRenders: Sendable {
    struct Entry: Sendable {
        var collage: Collage
        var saved: (path: String, id: AssetID)?
    }

    private struct State {
        var order: [String] = []
        var entries: [String: Entry] = [:]
    }

    private let state = NIOLockedValueBox(State())
    private let saving = NIOLock()
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    func keep(_ collage: Collage, as token: String) {
        state.withLockedValue { s in
            if s.entries[token] == nil { s.order.append(token) }
            s.entries[token] = Entry(collage: collage)
            while s.order.count > capacity { s.entries[s.order.removeFirst()] = nil }
        }
    }

    func entry(_ token: String) -> Entry? {
        state.withLockedValue { $0.entries[token] }
    }

    /// Saves the collage of `token` once: `save` runs (under a lock, so two taps at once make
    /// one file) unless an earlier save's asset is still in the library (`stillThere`), which is
    /// then the answer (`again` true). Nil when the token is unknown or evicted.
    func save(_ token: String, stillThere: (AssetID) throws -> Bool,
              save: (Collage) throws -> (path: String, id: AssetID)) throws -> (collage: Collage, path: String, id: AssetID, again: Bool)? {
        try saving.withLock {
            guard let entry = entry(token) else { return nil }
            if let saved = entry.saved, try stillThere(saved.id) { return (entry.collage, saved.path, saved.id, true) }
            let saved = try save(entry.collage)
            state.withLockedValue { $0.entries[token]?.saved = saved }
            return (entry.collage, saved.path, saved.id, false)
        }
    }
}
