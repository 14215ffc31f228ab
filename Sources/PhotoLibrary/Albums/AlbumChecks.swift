import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `symlinks`: albums need symbolic links (exFAT, FAT and some NTFS mounts have none); where
/// there are, `albums`: every album folder as the index says it should be, no link leading
/// nowhere; and `foreign files` (a warning): files Shoebox did not make in generated album
/// folders, or moved from them into `Albums/Not Shoebox's/`, for the user to put somewhere.
/// `Albums/` is read from its descriptor, as the sync writes it: no link followed.
struct AlbumLinksCheck: DoctorCheck {
    /// What the album folders hold besides what the index wants.
    struct Found {
        var stale = 0
        var dangling = 0
        /// Visible entries that are not Shoebox's links in generated album folders.
        var waiting: [String] = []
        /// Files under `Albums/Not Shoebox's/`.
        var movedAside: [String] = []
    }

    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] {
        if let off = AlbumLinker.symlinkProblem(context.library) {
            return [.warning("symlinks", off)]
        }
        let linker = AlbumLinker(library: context.library, index: context.index)
        let found: Found, count: Int
        do {
            if let looked = try linker.withAlbumsOpen(creating: false, { try look($0) }) {
                (found, count) = looked
            } else {
                let want = try linker.summaries()
                (found, count) = (Found(stale: want.filter { $0.count > 0 }.count), want.count)
            }
        } catch {
            // A link at `Albums/`: the owned-paths check names it.
            return [.ok("symlinks", "supported; albums can be made"), .problem("albums", "\(error)")]
        }
        let albums: DoctorReport.Check = found.stale + found.dangling == 0
            ? .ok("albums", "\(counted(count, "album")), every link resolves")
            : .problem("albums", "\(found.stale) album folders differ from the index, \(found.dangling) links lead nowhere", fix: context.scanCommand)
        return [.ok("symlinks", "supported; albums can be made"), albums] + foreignFindings(found, context)
    }

    private func foreignFindings(_ found: Found, _ context: DoctorContext) -> [DoctorReport.Check] {
        var out: [DoctorReport.Check] = []
        let aside = "\(AlbumLinker.folderName)/\(AlbumLinker.foreignFolder)/"
        if !found.waiting.isEmpty {
            out.append(.warning("foreign files", "\(found.waiting.count) files that are not Shoebox's links are in generated album folders (\(sample(found.waiting))); the next writing command moves them to \(aside)", fix: context.scanCommand))
        }
        if !found.movedAside.isEmpty {
            out.append(.warning("foreign files", "\(found.movedAside.count) files Shoebox did not make were moved out of album folders into \(aside) (\(sample(found.movedAside))); move them where you want them"))
        }
        return out
    }

    private func sample(_ paths: [String]) -> String {
        paths.prefix(3).map(displayPath).joined(separator: ", ") + (paths.count > 3 ? ", …" : "")
    }

    /// Every album's folder against what the index wants, and how many albums there are. A
    /// generated folder with exactly its album's links is found so a batch at a time
    /// (`exactDigest`); only one that differs is read whole and its album made whole (at
    /// 1,000,000 photos every album made whole at once held 1.7 GB, issue 33).
    private func look(_ linker: AlbumLinker) throws -> (Found, Int) {
        var found = Found(), count = 0
        let users = UserAlbums(library: linker.library).all()
        let paths = try linker.presentPaths(of: Set(users.flatMap(\.members)))
        for album in users {
            count += 1
            compare(linker.folder(for: album, presentPaths: paths), linker, &found)
        }
        try linker.forEachGeneratedAlbum { album in
            count += 1
            if let folder = try? linker.openFolder(album.path), linker.exactDigest(of: album, in: folder) != nil { return }
            compare(album.folder(), linker, &found)
        }
        walk(linker, &found)
        return (found, count)
    }

    private func compare(_ album: AlbumFolder, _ linker: AlbumLinker, _ found: inout Found) {
        let existing = try? linker.readFolder(album.path)
        let onDisk = existing?.onDisk.links ?? [:]
        if onDisk != Dictionary(album.entries.map { ($0.linkName, $0.target) }, uniquingKeysWith: { a, _ in a }) { found.stale += 1 }
        if album.kind != .user, let existing {
            found.waiting += existing.onDisk.others.filter { !$0.hasPrefix(".") }.map { existing.folder.libraryPath($0) }
        }
    }

    /// Links anywhere under `Albums/` whose target does not exist (what is under `Not Shoebox's/`
    /// is someone else's: only counted), every folder opened from its parent, never through a link.
    private func walk(_ linker: AlbumLinker, _ found: inout Found) {
        // Paths, not open folders, wait their turn: a descriptor each would be thousands at once.
        var stack = [""]
        while let path = stack.popLast() {
            guard let folder = try? linker.openFolder(path) else { continue }
            let aside = path == AlbumLinker.foreignFolder || path.hasPrefix(AlbumLinker.foreignFolder + "/")
            for name in folder.names() {
                guard let st = folder.lstat(name) else { continue }
                if st.isDirectory {
                    stack.append(AlbumLinker.joined(path, name))
                } else if aside {
                    found.movedAside.append(folder.libraryPath(name))
                } else if st.isSymbolicLink {
                    var target = stat()
                    if fstatat(folder.fd, name, &target, 0) != 0 { found.dangling += 1 }
                }
            }
        }
    }
}
