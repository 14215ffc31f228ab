import Foundation

// Transitional: Recently Deleted still reaches the writer through a Scanner; it takes an
// AssetWriter of its own once its split lands, and this file goes.
extension Scanner {
    func commit(_ assets: [Asset]) throws { try writer.commit(assets) }

    @discardableResult
    func afterMembershipChange() throws -> AlbumSyncReport { try writer.afterChange() }
}
