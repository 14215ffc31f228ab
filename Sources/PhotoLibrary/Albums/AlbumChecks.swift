import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `symlinks`: albums need symbolic links (exFAT, FAT and some NTFS mounts have none); where
/// there are, `albums`: every album folder as the index says it should be, no link leading
/// nowhere. `Albums/` is read from its descriptor, as the sync writes it: no link followed.
struct AlbumLinksCheck: DoctorCheck {
    /// What the album folders hold besides what the index wants.
    struct Found {
        var stale = 0
        var dangling = 0
    }

    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] {
        if let off = AlbumLinker.symlinkProblem(context.library) {
            return [.warning("symlinks", off)]
        }
        let linker = AlbumLinker(library: context.library, index: context.index)
        let want = try linker.desired()
        let found: Found
        do {
            found = try linker.withAlbumsOpen(creating: false) { look($0, want: want) }
                ?? Found(stale: want.filter { !$0.entries.isEmpty }.count)
        } catch {
            // A link at `Albums/`: the owned-paths check names it.
            return [.ok("symlinks", "supported; albums can be made"), .problem("albums", "\(error)")]
        }
        let albums: DoctorReport.Check = found.stale + found.dangling == 0
            ? .ok("albums", "\(want.count) albums, every link resolves")
            : .problem("albums", "\(found.stale) album folders differ from the index, \(found.dangling) links lead nowhere", fix: context.scanCommand)
        return [.ok("symlinks", "supported; albums can be made"), albums]
    }

    private func look(_ linker: AlbumLinker, want: [AlbumFolder]) -> Found {
        var found = Found()
        for album in want {
            let onDisk = (try? linker.readFolder(album.path))?.onDisk.links ?? [:]
            if onDisk != Dictionary(album.entries.map { ($0.linkName, $0.target) }, uniquingKeysWith: { a, _ in a }) { found.stale += 1 }
        }
        walk(linker, &found)
        return found
    }

    /// Links anywhere under `Albums/` whose target does not exist, every folder opened from its
    /// parent, never through a link.
    private func walk(_ linker: AlbumLinker, _ found: inout Found) {
        // Paths, not open folders, wait their turn: a descriptor each would be thousands at once.
        var stack = [""]
        while let path = stack.popLast() {
            guard let folder = try? linker.openFolder(path) else { continue }
            for name in folder.names() {
                guard let st = folder.lstat(name) else { continue }
                if st.isDirectory {
                    stack.append(AlbumLinker.joined(path, name))
                } else if st.isSymbolicLink {
                    var target = stat()
                    if fstatat(folder.fd, name, &target, 0) != 0 { found.dangling += 1 }
                }
            }
        }
    }
}
