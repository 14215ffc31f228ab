import Foundation
import NIOConcurrencyHelpers

/// The last grid documents made, by query, for the index generation they were made at: a page
/// load after the first (a reload, another tab, the viewer going back) costs a lookup, and the
/// unfiltered grid is made again in the background as soon as the library changes
/// (`LibraryUpkeep`), so a page seldom waits for the query (~40 ms per 10,000 assets, most of it
/// reading sizes out of each asset's metadata).
final class GridCache: Sendable {
    private struct Entry { var generation: String; var document: Data }
    private let entries = NIOLockedValueBox<[String: Entry]>([:])
    private let order = NIOLockedValueBox<[String]>([])
    let capacity: Int

    init(capacity: Int = 8) { self.capacity = capacity }

    func document(_ key: String, generation: String) -> Data? {
        entries.withLockedValue { $0[key] }.flatMap { $0.generation == generation ? $0.document : nil }
    }

    func store(_ key: String, generation: String, document: Data) {
        let evicted: [String] = order.withLockedValue { o in
            o.removeAll { $0 == key }
            o.append(key)
            guard o.count > capacity else { return [] }
            defer { o.removeFirst(o.count - capacity) }
            return Array(o.prefix(o.count - capacity))
        }
        entries.withLockedValue { e in
            e[key] = Entry(generation: generation, document: document)
            for k in evicted { e[k] = nil }
        }
    }
}
