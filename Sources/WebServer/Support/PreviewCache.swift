import Foundation
import NIOConcurrencyHelpers
import PhotoLibrary

/// The last few HEIC and raw previews made (a few MB each): stepping back and forth in the viewer
/// decodes each file once. Keyed by content, so an edited file is decoded again. (The tracker's
/// pictures use one too, keyed by their photo's content and size.)
final class PreviewCache: Sendable {
    private struct State { var order: [String] = []; var jpegs: [String: [UInt8]] = [:] }
    private let state = NIOLockedValueBox(State())
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    func jpeg(for asset: Asset, make: () async throws -> [UInt8]) async throws -> [UInt8] {
        try await jpeg(asset.sha256, make: make)
    }

    /// The JPEG kept under KEY, else MAKE's (kept, the oldest dropped past the capacity).
    func jpeg(_ key: String, make: () async throws -> [UInt8]) async throws -> [UInt8] {
        if let hit = state.withLockedValue({ $0.jpegs[key] }) { return hit }
        let made = try await make()
        state.withLockedValue { s in
            if s.jpegs[key] == nil { s.order.append(key) }
            s.jpegs[key] = made
            while s.order.count > capacity { s.jpegs[s.order.removeFirst()] = nil }
        }
        return made
    }
}
