import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `symlinks`: albums need symbolic links (exFAT, FAT and some NTFS mounts have none); where
/// there are, `albums`: every album folder as the index says it should be, no link leading nowhere.
struct AlbumLinksCheck: DoctorCheck {
    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] {
        if let off = AlbumLinker.symlinkProblem(context.library) {
            return [.warning("symlinks", off)]
        }
        let linker = AlbumLinker(library: context.library, index: context.index)
        let want = try linker.desired()
        let stale = staleFolders(want, linker, root: context.library.root.path)
        let dangling = danglingLinks(linker, root: context.library.root.path)
        let albums: DoctorReport.Check = stale + dangling == 0
            ? .ok("albums", "\(want.count) albums, every link resolves")
            : .problem("albums", "\(stale) album folders differ from the index, \(dangling) links lead nowhere", fix: context.scanCommand)
        return [.ok("symlinks", "supported; albums can be made"), albums]
    }

    /// Album folders whose links are not the ones the index wants.
    private func staleFolders(_ want: [AlbumFolder], _ linker: AlbumLinker, root: String) -> Int {
        var stale = 0
        for album in want {
            let dir = root + "/" + AlbumLinker.folderName + "/" + album.path
            let onDisk = linker.readFolder(dir)?.links ?? [:]
            if onDisk != Dictionary(album.entries.map { ($0.linkName, $0.target) }, uniquingKeysWith: { a, _ in a }) { stale += 1 }
        }
        return stale
    }

    /// Links anywhere under `Albums/` whose target does not exist.
    private func danglingLinks(_ linker: AlbumLinker, root: String) -> Int {
        var dangling = 0
        var stack = [root + "/" + AlbumLinker.folderName]
        while let dir = stack.popLast() {
            for name in directoryNames(dir) {
                let path = dir + "/" + name
                var st = stat()
                guard lstat(path, &st) == 0 else { continue }
                if (st.st_mode & S_IFMT) == S_IFDIR { stack.append(path) }
                else if (st.st_mode & S_IFMT) == S_IFLNK, stat(path, &st) != 0 { dangling += 1 }
            }
        }
        return dangling
    }
}
