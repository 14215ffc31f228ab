import Foundation
import MetadataCore

extension LiveUpdater.Change {
    /// The XMP sidecar this change wrote, renamed into place or removed, if it is about one:
    /// its photo is read again rather than the sidecar indexed.
    var xmpSidecarPath: String? {
        switch self {
        case .arrived(let p), .removed(let p): return XMPSidecar.isSidecarName(p) ? p : nil
        case .moved(_, let to): return XMPSidecar.isSidecarName(to) ? to : nil
        default: return nil
        }
    }
}

extension LiveUpdater {
    /// The present photos whose sidecar `sidecar` is (by name, see `XMPSidecar.candidates`).
    /// Notes in the index that sidecars are about (`XMPSidecarChanges.metaKey`): a scan that finds
    /// none on disk later still looks for photos whose sidecar went.
    func photos(ofSidecar sidecar: String) throws -> [String] {
        let photos = try index.presentFileRecords(at: XMPSidecarChanges.photoPaths(ofSidecar: sidecar))
            .map(\.path).filter { XMPSidecar.candidates(for: $0).contains(sidecar) }
        if !photos.isEmpty, try index.meta(XMPSidecarChanges.metaKey) != "1" { try index.setMeta(XMPSidecarChanges.metaKey, "1") }
        return photos
    }
}
