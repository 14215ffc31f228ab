import Foundation

extension AssetWriter {
    /// The one step that follows any change of assets' presence, content, path or place, whoever
    /// made it (scan, watcher, trash, restore, purge): the groupings that depend on the whole
    /// library (duplicates, Live Photo pairs), then the album folders.
    ///
    /// - Parameter regroup: false when nothing that groupings read changed (a scan that found
    ///   every file unchanged still brings the albums up to date).
    @discardableResult
    public func afterChange(regroup: Bool = true) throws -> AlbumSyncReport {
        if regroup { try Grouping(writer: self).regroup() }
        return try AlbumLinker(library: library, index: index).sync()
    }
}
