import CShoeboxSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// `restore`: moving trashed files back to where they came from.

extension RecentlyDeleted {
    /// One asset back in the library.
    public struct Restored: Sendable {
        /// Nil for another tool's file that is not a photo or video Shoebox indexes.
        public var id: AssetID?
        public var path: String
        /// Why it is not at its original path, or that its folder was recreated.
        public var note: String?
    }

    /// Puts trashed assets back at their original paths (a Live Photo's video with its photo).
    /// A path that is taken meanwhile is never overwritten: the file comes back beside it as
    /// "NAME (restored).EXT"; a folder that is gone is recreated.
    public func restore(_ requested: [Asset], failed: (ShoeboxError) -> Void) throws -> [Restored] {
        let done = moveBack(try assetsToRestore(requested, failed: failed), failed: failed)
        guard !done.isEmpty else { return [] }
        try AtomicFile.syncFileSystem(containing: library.root.path)
        try writer.commit(done.map(\.asset))
        // The info files go last: until now they said where each file came from.
        for item in done { try? library.files.remove(RecentlyDeleted.infoRelative(item.name)) }
        AtomicFile.syncDirectory(infoFolder)
        try syncAlbums()
        return done.map { Restored(id: $0.asset.id, path: $0.asset.path, note: $0.note) }
    }

    /// The trashed assets among `requested`, each once, with their Live Photo videos.
    func assetsToRestore(_ requested: [Asset], failed: (ShoeboxError) -> Void) throws -> [Asset] {
        try eachOnceWithLiveVideos(requested, videos: index.trashedLiveVideoAssets(of:)) { a in
            guard a.state == .trashed, a.trash != nil else {
                failed(ShoeboxError(.invalidArgument, "\(displayPath(a.path)) is not in Recently Deleted (it is \(a.state.rawValue))"))
                return false
            }
            return true
        }
    }

    /// Moves each asset's file back; returns the assets as they are now, with their names in the trash.
    func moveBack(_ assets: [Asset], failed: (ShoeboxError) -> Void) -> [(asset: Asset, name: String, note: String?)] {
        var done: [(asset: Asset, name: String, note: String?)] = []
        for a in assets {
            let name = a.trash!.name
            guard let st = try? library.files.lstat(RecentlyDeleted.fileRelative(name)) else {
                failed(ShoeboxError(.notFound, "\(RecentlyDeleted.displayName(name)) is not there any more", remedy: LibraryRemedy.scan))
                continue
            }
            do {
                let (path, note) = try putBack(name, to: a.path)
                var restored = a
                restored.path = path
                restored.state = .present
                restored.trash = nil
                restored.inode = st.inode
                done.append((restored, name, note))
            } catch {
                failed(ShoeboxError(about: "\(RecentlyDeleted.displayName(name))", error))
            }
        }
        return done
    }

    /// Moves `files/name` to `original` (or beside it), never replacing a file.
    func putBack(_ name: String, to original: String) throws -> (String, String?) {
        // The path comes from a sidecar, the index or a `.trashinfo`: never `../elsewhere`.
        try LibraryPath.validated(original, from: "the record of \(RecentlyDeleted.displayName(name))")
        let folder = LibraryPath.parent(original)
        var note: String?
        if !folder.isEmpty {
            if let st = try library.files.lstat(folder) {
                guard st.isDirectory else {
                    throw ShoeboxError(.io, "\(displayPath(folder)) is not a folder any more; move it aside and restore again")
                }
            } else {
                note = "recreated the folder \(displayPath(folder))"
            }
        }
        let ext = (original as NSString).pathExtension
        let stem = (LibraryPath.leaf(original) as NSString).deletingPathExtension
        for n in 0..<10_000 {
            let fileName = n == 0 ? LibraryPath.leaf(original)
                : "\(stem) (restored\(n == 1 ? "" : " \(n)"))" + (ext.isEmpty ? "" : "." + ext)
            let target = folder.isEmpty ? fileName : folder + "/" + fileName
            do {
                // Folders made and the file moved through the confined layer: a folder on the
                // way that is a link is refused, never written through.
                try library.files.move(RecentlyDeleted.fileRelative(name), to: target)
                if n > 0 { note = "\(displayPath(original)) is taken; restored beside it as \(fileName)" }
                return (target, note)
            } catch let e as ShoeboxError where e.code == .alreadyExists {
                continue
            }
        }
        throw ShoeboxError(.io, "no free name beside \(displayPath(original))")
    }
}
