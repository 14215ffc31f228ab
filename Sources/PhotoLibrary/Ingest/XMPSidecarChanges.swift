import Foundation
import GRDB
import MetadataCore

/// Which photos a scan must read again because their XMP sidecar changed, appeared or went,
/// though the photo itself did not: the sidecar is part of what the asset says (its people,
/// rating, place), and an editor (digiKam, darktable, Lightroom) rewrites only the sidecar.
struct XMPSidecarChanges {
    let library: Library
    let index: Index

    /// `meta` key: "0" once a scan found no sidecar on disk and none recorded, so that a rescan of
    /// a library without sidecars skips the query over every asset's metadata. Anything else
    /// (absent after a rebuild, "1") means look.
    static let metaKey = "xmp-sidecars"

    /// `sidecars`: the `.xmp` files the walk saw, with their stat. Returns the paths of present
    /// photos whose recorded sidecar is not the one on disk now.
    func stalePhotos(sidecars: [String: FileStat]) throws -> Set<String> {
        let known = try index.meta(Self.metaKey)
        guard known != "0" || !sidecars.isEmpty else { return [] }
        let stamped = try stampedPhotos()
        let now = stamped.isEmpty && sidecars.isEmpty ? "0" : "1"
        if known != now { try index.setMeta(Self.metaKey, now) }
        var stale = Set<String>()
        var recorded = Set<String>()
        for (photo, stamp) in stamped {
            recorded.insert(stamp.path)
            let now = sidecars[stamp.path]
            if now?.size != stamp.size || now?.mtimeNS != stamp.mtimeNS { stale.insert(photo) }
        }
        // Sidecars no photo has recorded yet: new ones, or ones written after the photo was read.
        let fresh = sidecars.keys.filter { !recorded.contains($0) }
        guard !fresh.isEmpty else { return stale }
        let guesses = fresh.flatMap(Self.photoPaths(ofSidecar:))
        for r in try index.presentFileRecords(at: guesses) where fresh.contains(where: XMPSidecar.candidates(for: r.path).contains) {
            stale.insert(r.path)
        }
        return stale
    }

    /// Present assets whose metadata records a sidecar, with that record.
    private func stampedPhotos() throws -> [(String, XMPSidecar)] {
        try index.read { db in
            try Row.fetchAll(db, sql: """
                SELECT path, metadata FROM asset WHERE state = 'present' AND metadata LIKE '%"xmpSidecar"%'
                """).compactMap { r -> (String, XMPSidecar)? in
                let json: String = r[1]
                guard let m = try? ShoeboxJSON.makeDecoder().decode(MediaMetadata.self, from: Data(json.utf8)),
                      let stamp = m.xmpSidecar else { return nil }
                return (r[0], stamp)
            }
        }
    }

    /// Paths a sidecar's photo may have: `IMG_0001.CR2.xmp` names its photo; `IMG_0001.xmp`
    /// leaves the extension to guess among the media extensions, in both cases.
    static func photoPaths(ofSidecar xmp: String) -> [String] {
        let base = String(xmp.dropLast(4))
        var out = [base]
        for ext in FileProbe.mediaExtensions { out += [base + "." + ext, base + "." + ext.uppercased()] }
        return out
    }
}
