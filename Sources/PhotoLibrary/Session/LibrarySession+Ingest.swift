import Foundation

extension LibrarySession {
    /// Indexes files that just arrived (an upload written whole), as the watcher would when it
    /// sees them: their entries (the new asset ids) come back at once, with or without a watcher.
    public func ingest(arrived paths: [String]) throws -> LiveUpdater.Report {
        try write { locked in
            try LiveUpdater(library: locked.library, index: locked.index).apply(paths.map { .arrived($0) })
        }
    }
}
