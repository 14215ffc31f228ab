import Foundation
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// Thumbnails on demand: the cache's file when it is there, else made now from the file (one
/// decode, both sizes stored) — after `cache clear`, or for an asset not analysed yet.
public enum Thumbnails {
    /// The library-relative path of `asset`'s thumbnail at `size` (one of `ThumbnailStore.sizes`),
    /// made first when missing. Fails with one line when the file's pixels cannot be had.
    public static func path(of asset: Asset, size: Int, library: Library) throws -> String {
        guard ThumbnailStore.sizes.contains(size) else {
            throw ShoeboxError(.invalidArgument, "thumbnails are \(ThumbnailStore.sizes.map(String.init).joined(separator: " or ")) px, not \(size)")
        }
        let store = ThumbnailStore(library: library)
        let path = store.path(of: asset, size: size)
        if ((try? library.files.lstat(path)) ?? nil) != nil { return path }
        guard asset.state == .present else {
            throw ShoeboxError(.notFound, "\(asset.path) is \(asset.state.rawValue): there is no file to make a thumbnail from")
        }
        let made: FileAnalysis
        do { made = try AnalysisQueue.analyze(asset, with: try PixelAnalyzer(stages: .thumbnails), library: library) } catch let e as ShoeboxError {
            throw ShoeboxError(e.code, "\(asset.path): \(e.message)")
        }
        guard !made.thumbnails.isEmpty else {
            throw ShoeboxError(.io, "\(asset.path): \(made.analysis.problem ?? "no thumbnail could be made")")
        }
        try store.store(made.thumbnails, for: asset)
        return path
    }
}
