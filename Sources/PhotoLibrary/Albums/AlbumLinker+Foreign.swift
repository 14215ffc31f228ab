import CShoeboxSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// What Shoebox did not make, in album folders: moved aside, never deleted, never in a link's way.
// And the folders that go: their links deleted, whatever else they hold kept.

extension AlbumLinker {
    /// Moves aside (`rescue`) the entries of `onDisk.others` that cannot stay: in a generated
    /// album every visible one (a photo an editor saved through a link in place of it, a file
    /// dropped there: a generated folder holds Shoebox's links only); in any album one that has
    /// the name a link needs. Hidden ones (a file manager's `.directory`) can take no link's name
    /// and stay. Returns whether anything moved.
    func moveForeignAside(_ onDisk: inout OnDisk, of album: AlbumFolder, want: [String: String], in folder: LinkFolder,
                          _ report: inout AlbumSyncReport) -> Bool {
        var kept: [String] = []
        var moved = false
        for name in onDisk.others {
            let mustGo = want[name] != nil || (album.kind != .user && !name.hasPrefix("."))
            if mustGo && rescue(name, from: folder, album: album.path, &report) { moved = true } else { kept.append(name) }
        }
        onDisk.others = kept
        return moved
    }

    /// Moves `name` out of the open `folder` into `Albums/Not Shoebox's/<album>/` (`album`: the
    /// album the folder is or was built for), under a name nothing has there yet ("x (2).jpg"…):
    /// never over a file. Reported in `movedAside`; when it cannot be moved, in `problems`, and
    /// it stays where it is.
    @discardableResult
    func rescue(_ name: String, from folder: LinkFolder, album: String, _ report: inout AlbumSyncReport) -> Bool {
        let shown = folder.shown(name)
        do {
            let aside = try makeFolder(AlbumLinker.joined(AlbumLinker.foreignFolder, album))
            for n in 1...100 {
                let candidate = n == 1 ? name : AlbumLinker.numbered(name, n)
                if shoebox_renameat_noreplace(folder.fd, name, aside.fd, candidate) == 0 {
                    report.movedAside.append((folder.libraryPath(name), aside.libraryPath(candidate)))
                    return true
                }
                guard errno == EEXIST else { break }
            }
            report.problems.append("\(shown) is not a link Shoebox made and cannot be moved into \(aside.shown()): \(ShoeboxError.errnoText()); it was left there")
        } catch {
            report.problems.append("\(shown) is not a link Shoebox made and cannot be moved aside: \(error); it was left there")
        }
        return false
    }

    /// "003 IMG_0412 (2).JPG": the `n`th name for a file moved aside beside others of its name.
    static func numbered(_ name: String, _ n: Int) -> String {
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return "\(name[..<dot]) (\(n))\(name[dot...])"
        }
        return "\(name) (\(n))"
    }

    /// Removes the album folder at `path` under `Albums/` (nothing when it is absent).
    func removeLinkFolder(_ path: String, keepForeign: Bool, _ report: inout AlbumSyncReport) throws {
        let (parentPath, leaf) = AlbumLinker.split(path)
        guard let parent = try openFolder(parentPath) else { return }
        try removeLinkFolder(leaf, in: parent, album: path, keepForeign: keepForeign, &report)
    }

    /// Deletes the links of the folder `name` in `parent` (built for, or being, `album`), then the
    /// folder. Anything else in it is moved aside; with `keepForeign` (a user album) it stays, and
    /// so does the folder: deleting an album never deletes a file.
    func removeLinkFolder(_ name: String, in parent: LinkFolder, album: String, keepForeign: Bool,
                          _ report: inout AlbumSyncReport) throws {
        guard let folder = try openFolder(name, in: parent) else { return }
        let content = read(folder, depth: AlbumLinker.depth(of: album))
        for link in content.links.keys { unlinkat(folder.fd, link, 0) }
        let left = content.others.filter { keepForeign || !rescue($0, from: folder, album: album, &report) }
        if !left.isEmpty {
            if keepForeign {
                report.problems.append("\(folder.shown()) holds files that are not album links (\(left.prefix(3).joined(separator: ", "))); they were left there")
            }
            return
        }
        if unlinkat(parent.fd, name, AT_REMOVEDIR) != 0 && errno != ENOENT {
            report.problems.append("cannot remove \(folder.shown()): \(ShoeboxError.errnoText())")
        }
    }

    /// Build folders a crash left behind, beside the albums (`Albums/`, `Years/`, `Places/`,
    /// `People/`): see `cleanLeftover`.
    func cleanLeftovers(_ report: inout AlbumSyncReport) throws {
        for parentPath in [""] + AlbumLinker.generatedRoots where !AlbumLinker.isTopLevelAlbum(parentPath) {
            guard let parent = try openFolder(parentPath) else { continue }
            for name in parent.names() where name.hasPrefix(AlbumLinker.buildPrefix) {
                try cleanLeftover(name, in: parent, &report)
            }
        }
    }

    /// The build folder `name` in `parent`, left by a crash: its links go; a user album's own
    /// files go back to it when their names are free there; anything else is moved aside; then
    /// the folder goes. Something by such a name that is not a folder is moved aside whole.
    func cleanLeftover(_ name: String, in parent: LinkFolder, _ report: inout AlbumSyncReport) throws {
        var album = String(name.dropFirst(AlbumLinker.buildPrefix.count))
        // The old folder stepping aside where RENAME_EXCHANGE is missing (see `exchange`).
        if album.hasSuffix(".old"), parent.lstat(album) == nil { album.removeLast(4) }
        let albumPath = AlbumLinker.joined(parent.path, album)
        guard parent.lstat(name)?.isDirectory == true else {
            rescue(name, from: parent, album: albumPath, &report)
            return
        }
        if parent.path.isEmpty, !AlbumLinker.generatedRoots.contains(album),
           let build = try openFolder(name, in: parent), let home = try? openFolder(album, in: parent) {
            for other in read(build, depth: AlbumLinker.depth(of: albumPath)).others {
                _ = shoebox_renameat_noreplace(build.fd, other, home.fd, other)
            }
        }
        try removeLinkFolder(name, in: parent, album: albumPath, keepForeign: false, &report)
    }
}
