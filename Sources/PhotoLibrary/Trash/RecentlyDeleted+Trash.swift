import CShoeboxSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// `trash`: moving assets' files into `files/`, each with its info file.

extension RecentlyDeleted {
    /// One asset moved into `Recently Deleted/`.
    public struct Trashed: Sendable {
        public var id: AssetID
        public var originalPath: String
        public var name: String
    }

    /// Moves the assets' files into `files/` (a Live Photo's video goes with its photo).
    /// Files that cannot be moved are reported through `failed`; the others are trashed.
    public func trash(_ requested: [Asset], failed: (ShoeboxError) -> Void) throws -> [Trashed] {
        let assets = try assetsToTrash(requested, failed: failed)
        guard !assets.isEmpty else { return [] }
        try makeFolders()

        // 1. Claim a name and write its info file for each; one flush for all of them.
        let claimed = claimNames(for: assets, failed: failed)
        try AtomicFile.syncFileSystem(containing: infoFolder)

        // 2. Move the files; an info file whose move failed is taken back.
        let moved = moveIntoTrash(claimed, failed: failed)
        guard !moved.isEmpty else { return [] }
        try AtomicFile.syncFileSystem(containing: filesFolder)

        // 3. Record: the asset keeps its id, sidecar and original path.
        let deletedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        try writer.commit(moved.map { item in
            var a = item.asset
            a.state = .trashed
            a.trash = TrashRecord(name: item.name, deletedAt: deletedAt)
            return a
        })
        try syncAlbums()
        return moved.map { Trashed(id: $0.asset.id, originalPath: $0.asset.path, name: $0.name) }
    }

    /// The present assets among `requested`, each once, with their Live Photo videos.
    func assetsToTrash(_ requested: [Asset], failed: (ShoeboxError) -> Void) throws -> [Asset] {
        try eachOnceWithLiveVideos(requested, videos: index.liveVideoAssets(of:)) { a in
            switch a.state {
            case .trashed:
                failed(ShoeboxError(.invalidArgument, "\(displayPath(a.path)) is already in Recently Deleted (as \(a.trash?.name ?? "?"))"))
                return false
            case .missing:
                failed(ShoeboxError(.invalidArgument, "\(displayPath(a.path)) is missing: its file is gone, there is nothing to move"))
                return false
            case .present:
                return true
            }
        }
    }

    /// Claims a name in the trash for each asset whose file is still there (step 1).
    func claimNames(for assets: [Asset], failed: (ShoeboxError) -> Void) -> [(asset: Asset, name: String)] {
        var claimed: [(asset: Asset, name: String)] = []
        for a in assets {
            do {
                guard try library.files.lstat(LibraryPath.validated(a.path, from: "the index"))?.isRegular == true else {
                    failed(ShoeboxError(.notFound, "\(displayPath(a.path)): the file is not there any more", remedy: LibraryRemedy.scan))
                    continue
                }
                let name = try claimName(for: a.name, info: TrashInfo(path: a.path, deletionDate: now))
                claimed.append((a, name))
            } catch {
                failed(ShoeboxError(about: "\(displayPath(a.path))", error))
            }
        }
        return claimed
    }

    /// Renames each claimed file into `files/` (step 2), never over a file.
    func moveIntoTrash(_ claimed: [(asset: Asset, name: String)], failed: (ShoeboxError) -> Void) -> [(asset: Asset, name: String)] {
        var moved: [(asset: Asset, name: String)] = []
        for (a, name) in claimed {
            do {
                // Only the file the index knows: a file put at its path (or reached through a
                // folder swapped for a link) is never moved, so never purged later.
                try library.files.move(a.path, to: RecentlyDeleted.fileRelative(name),
                                       expecting: LibraryFiles.KnownFile(inode: a.inode, size: a.size, mtimeNS: a.mtimeNS))
                moved.append((a, name))
            } catch {
                try? library.files.remove(RecentlyDeleted.infoRelative(name))
                failed(ShoeboxError(about: "\(displayPath(a.path)): cannot move it to Recently Deleted", error))
            }
        }
        return moved
    }

    /// A free name in `files/` and `info/` ("IMG_0412.HEIC", else "IMG_0412 2.HEIC", …), claimed
    /// by creating its info file exclusively, as the specification asks.
    func claimName(for original: String, info: TrashInfo) throws -> String {
        let ext = (original as NSString).pathExtension
        var stem = (original as NSString).deletingPathExtension
        // "<name>.trashinfo" must still fit in 255 bytes.
        while stem.utf8.count + ext.utf8.count + 24 > 255, !stem.isEmpty { stem.removeLast() }
        let data = Array(info.render().utf8)
        for n in 1...100_000 {
            let base = n == 1 ? stem : "\(stem) \(n)"
            let name = ext.isEmpty ? base : base + "." + ext
            if try library.files.lstat(RecentlyDeleted.fileRelative(name)) != nil { continue }
            let fd: Int32
            do { fd = try library.files.open(RecentlyDeleted.infoRelative(name), O_WRONLY | O_CREAT | O_EXCL) } catch {
                if try library.files.lstat(RecentlyDeleted.infoRelative(name)) != nil { continue }
                throw error
            }
            let written = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            let ok = written == data.count
            close(fd)
            guard ok else {
                let reason = ShoeboxError.errnoText()
                try? library.files.remove(RecentlyDeleted.infoRelative(name))
                throw ShoeboxError(.io, "cannot write \(infoPath(name)): \(reason)")
            }
            return name
        }
        throw ShoeboxError(.io, "no free name for \(original) in \(filesFolder)")
    }
}
