import Foundation
import PhotoLibrary

/// A collage or story just saved into `Collages/` is a photo of the library: analysed at once,
/// so that it has its thumbnails and score and `tidy` does not say "1 photo not analysed yet" on
/// every command (issue 32). The CLI's `compose export --save`, `memories collage --save` and the
/// web app's "Save to library" call this one entry point. Best-effort: a failure (a busy library,
/// a signal) leaves the photo to the next `analyze`, `watch` or `serve`'s background analysis.
public enum SavedPhotoAnalysis {
    /// Analyses `id` now, on the caller's thread.
    public static func run(_ id: AssetID, in session: LibrarySession) {
        _ = try? Analysis.run(session, ids: [id], wait: false)
    }

    /// Analyses `id` on a thread of its own, so that a page's answer does not wait for it (the
    /// page learns of the new thumbnails and score by its library events).
    public static func start(_ id: AssetID, in session: LibrarySession) {
        let thread = Thread { run(id, in: session) }
        thread.name = "shoebox-saved-photo-analysis"
        thread.start()
    }
}
