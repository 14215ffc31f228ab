import CShoeboxSystem
import Foundation
import MetadataCore
#if canImport(Glibc)
import Glibc
#endif

extension FileProbe {
    /// Merges the XMP sidecar beside `path` (see `XMPSidecar.candidates`) into `metadata`. The
    /// sidecar is opened inside the photo's folder, never through a link; a sidecar that cannot be
    /// read or is not XMP changes nothing (the photo is indexed from its own metadata).
    func mergeXMPSidecar(of path: String, into metadata: inout MediaMetadata) {
        if let sidecarFolders, !sidecarFolders.contains(LibraryPath.parent(path)) { return }
        let candidates = XMPSidecar.candidates(for: path)
        let reader = MetadataReaders.current
        try? library.files.withFolder(LibraryPath.parent(path)) { dir in
            for candidate in candidates {
                let fd = shoebox_open_beneath(dir, LibraryPath.leaf(candidate), O_RDONLY | O_NONBLOCK, 0)
                guard fd >= 0 else { continue }
                defer { close(fd) }
                var st = stat()
                guard fstat(fd, &st) == 0 else { continue }
                let s = FileStat(st)
                guard s.isRegular, s.size > 0, s.size <= Int64(reader.sidecarMaximumSize) else { continue }
                guard let data = try? LibraryFiles.readAll(fd, shownAs: candidate, limit: reader.sidecarMaximumSize) else { continue }
                let stamp = XMPSidecar(path: candidate, size: s.size, mtimeNS: s.mtimeNS)
                if reader.mergeSidecar([UInt8](data), into: &metadata, stamp: stamp) { return }
            }
        }
    }
}
