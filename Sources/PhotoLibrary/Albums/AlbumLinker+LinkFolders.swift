import CSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Reading and writing one folder of album links, by name relative to its open descriptor.

extension AlbumLinker {
    /// What an album folder holds.
    struct OnDisk: Equatable {
        var links: [String: String] = [:]
        /// Entries that are not links: files a user put there; never deleted.
        var others: [String] = []
    }

    /// An album folder open, and what it held when it was read.
    typealias Existing = (folder: LinkFolder, onDisk: OnDisk)

    /// The album folder at `path` under `Albums/`, open and read; nil when there is no folder.
    func readFolder(_ path: String) throws -> Existing? {
        guard let folder = try openFolder(path) else { return nil }
        return (folder, read(folder))
    }

    /// What the open `folder` holds.
    func read(_ folder: LinkFolder) -> OnDisk {
        var out = OnDisk()
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        forEachDirectoryEntry(fd: folder.fd) { entry, fd in
            guard let name = entry.name else { return }
            // Relative to the open folder: no walk down the whole path for each of its links.
            if let target = AlbumLinker.readLink(fd, name, buffer: &buffer) {
                out.links[name] = target
            } else {
                out.others.append(name)
            }
        }
        return out
    }

    /// The text of the link `name` in the folder open as `fd`; nil when it is not a link.
    static func readLink(_ fd: Int32, _ name: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        return readLink(fd, name, buffer: &buffer)
    }

    /// `readLink(_:_:)` into a buffer of `PATH_MAX + 1` bytes the caller reuses (a folder of
    /// 100,000 links: no allocation each).
    static func readLink(_ fd: Int32, _ name: String, buffer: inout [UInt8]) -> String? {
        let n = buffer.withUnsafeMutableBytes { readlinkat(fd, name, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count - 1) }
        return n < 0 ? nil : String(decoding: buffer[0..<n], as: UTF8.self)
    }

    /// Makes `album`'s folder hold its links; `existing` is the folder open as read (nil: there is
    /// none). Only additions and removals: in place; anything else (a new order, a moved
    /// original): a new folder built beside it and swapped in. Returns whether it changed anything.
    func write(_ album: AlbumFolder, existing: Existing?, _ report: inout AlbumSyncReport) throws -> Bool {
        let want = Dictionary(album.entries.map { ($0.linkName, $0.target) }, uniquingKeysWith: { a, _ in a })
        guard let folder = existing?.folder, let onDisk = existing?.onDisk else {
            try rebuild(album, replacing: nil, &report)
            return true
        }
        if onDisk.links == want { return false }
        if !onDisk.links.contains(where: { want[$0.key] != nil && want[$0.key] != $0.value }) {
            updateInPlace(album, in: folder, existing: onDisk, want: want, &report)
        } else {
            try rebuild(album, replacing: (folder, onDisk), &report)
        }
        return true
    }

    /// Links to add and links to drop, no link to change: done in the folder itself.
    private func updateInPlace(_ album: AlbumFolder, in folder: LinkFolder, existing: OnDisk, want: [String: String],
                               _ report: inout AlbumSyncReport) {
        // A link that only changes its name (its position moved: a photo came or went before
        // it) is renamed rather than deleted and made again: no inode to free and allocate,
        // which is most of what a large album costs on ext4. Read back, so that a link
        // replaced meanwhile is never kept (and a file put in its place goes back to its
        // name); anything else gets a new link.
        var renamable: [String: String] = [:]
        for (name, target) in existing.links where want[name] == nil { renamable[target] = name }
        var renamed = Set<String>(), placed = Set<String>()
        for e in album.entries where existing.links[e.linkName] == nil {
            guard let old = renamable[e.target], shoebox_renameat_noreplace(folder.fd, old, folder.fd, e.linkName) == 0 else { continue }
            renamed.insert(old)
            switch AlbumLinker.readLink(folder.fd, e.linkName) {
            case e.target: placed.insert(e.linkName)
            case nil: _ = shoebox_renameat_noreplace(folder.fd, e.linkName, folder.fd, old)
            default: unlinkat(folder.fd, e.linkName, 0)
            }
        }
        for name in existing.links.keys where want[name] == nil && !renamed.contains(name) { unlinkat(folder.fd, name, 0) }
        for e in album.entries where existing.links[e.linkName] == nil && !placed.contains(e.linkName) {
            makeLink(e, in: folder, shownAs: folder, &report)
        }
    }

    /// A new folder of the album's links, built hidden beside its folder and put in its place.
    private func rebuild(_ album: AlbumFolder, replacing old: Existing?, _ report: inout AlbumSyncReport) throws {
        let (parentPath, leaf) = AlbumLinker.split(album.path)
        let parent = try makeFolder(parentPath)
        let buildName = String(decoding: Array((AlbumLinker.buildPrefix + leaf).utf8.prefix(250)), as: UTF8.self)
        if parent.lstat(buildName) != nil { try removeLinkFolder(buildName, in: parent, &report) }
        guard mkdirat(parent.fd, buildName, 0o755) == 0, let build = try openFolder(buildName, in: parent) else {
            throw ShoeboxError(.io, "cannot create \(parent.shown(buildName)): \(ShoeboxError.errnoText())")
        }
        fillBuildFolder(build, with: album, reusingLinksOf: old, &report)
        guard let old else {
            guard shoebox_renameat_noreplace(parent.fd, buildName, parent.fd, leaf) == 0 else {
                throw ShoeboxError(.io, "cannot create \(parent.shown(leaf)): \(ShoeboxError.errnoText())")
            }
            return
        }
        try exchange(buildName, leaf, in: parent)
        // `buildName` names the old folder now — unless another program put something in its
        // place meanwhile: that is left to the next sync's clean-up of build folders.
        guard parent.lstat(buildName)?.inode == old.folder.inode else {
            report.problems.append("\(parent.shown(leaf)) changed while it was being rewritten; the next sync finishes it")
            return
        }
        // A user's own files in the old folder move to the new one; then the old folder goes.
        for name in old.onDisk.others { _ = shoebox_renameat_noreplace(old.folder.fd, name, build.fd, name) }
        try removeLinkFolder(buildName, in: parent, &report)
    }

    /// Makes the album's links in `build`.
    private func fillBuildFolder(_ build: LinkFolder, with album: AlbumFolder, reusingLinksOf old: Existing?,
                                 _ report: inout AlbumSyncReport) {
        // A link the old folder has (same target, under another name now that positions moved) is
        // hard-linked into the new folder rather than made again: no inode to allocate, which is
        // most of what rebuilding a large album costs on ext4. Read back, so that a link replaced
        // meanwhile is never carried over; anything else gets a new link.
        var reusable: [String: String] = [:]
        for (name, target) in old?.onDisk.links ?? [:] { reusable[target] = name }
        for e in album.entries {
            if let old, let name = reusable[e.target], linkat(old.folder.fd, name, build.fd, e.linkName, 0) == 0 {
                if AlbumLinker.readLink(build.fd, e.linkName) == e.target { continue }
                unlinkat(build.fd, e.linkName, 0)  // a second name only: whatever it is keeps its own
            }
            makeLink(e, in: build, shownAs: old?.folder ?? build, &report)
        }
    }

    /// Swaps the names `a` and `b` in `parent` in one step.
    private func exchange(_ a: String, _ b: String, in parent: LinkFolder) throws {
        if shoebox_renameat_exchange(parent.fd, a, parent.fd, b) == 0 { return }
        let e = errno
        guard e == EINVAL || e == ENOSYS || e == EOPNOTSUPP else {
            throw ShoeboxError(.io, "cannot replace \(parent.shown(b)): \(ShoeboxError.errnoText(e))")
        }
        // A file system without RENAME_EXCHANGE: the old folder steps aside for an instant.
        let aside = a + ".old"
        guard shoebox_renameat_noreplace(parent.fd, b, parent.fd, aside) == 0 else {
            throw ShoeboxError(.io, "cannot replace \(parent.shown(b)): \(ShoeboxError.errnoText())")
        }
        guard shoebox_renameat_noreplace(parent.fd, a, parent.fd, b) == 0 else {
            let failed = ShoeboxError(.io, "cannot replace \(parent.shown(b)): \(ShoeboxError.errnoText())")
            _ = shoebox_renameat_noreplace(parent.fd, aside, parent.fd, b)
            throw failed
        }
        _ = shoebox_renameat_noreplace(parent.fd, aside, parent.fd, a)
    }

    /// One link in `folder`; a failure is reported under the album folder `shown`'s name.
    private func makeLink(_ e: AlbumFolder.Entry, in folder: LinkFolder, shownAs shown: LinkFolder, _ report: inout AlbumSyncReport) {
        if symlinkat(e.target, folder.fd, e.linkName) != 0 {
            report.problems.append("cannot create the link \(shown.shown(e.linkName)): \(ShoeboxError.errnoText())")
        }
    }

    /// Removes the album folder at `path` under `Albums/` (nothing when it is absent).
    func removeLinkFolder(_ path: String, _ report: inout AlbumSyncReport) throws {
        let (parentPath, leaf) = AlbumLinker.split(path)
        guard let parent = try openFolder(parentPath) else { return }
        try removeLinkFolder(leaf, in: parent, &report)
    }

    /// Deletes the links of the folder `name` in `parent` and then the folder; anything that is
    /// not a link stays (and so does the folder then): deleting an album never deletes a file.
    func removeLinkFolder(_ name: String, in parent: LinkFolder, _ report: inout AlbumSyncReport) throws {
        guard let folder = try openFolder(name, in: parent) else { return }
        let content = read(folder)
        for link in content.links.keys { unlinkat(folder.fd, link, 0) }
        if !content.others.isEmpty {
            report.problems.append("\(folder.shown()) holds files that are not album links (\(content.others.prefix(3).joined(separator: ", "))); they were left there")
            return
        }
        if unlinkat(parent.fd, name, AT_REMOVEDIR) != 0 && errno != ENOENT {
            report.problems.append("cannot remove \(folder.shown()): \(ShoeboxError.errnoText())")
        }
    }

    /// Build folders a crash left behind: their own files go back to their album, links go.
    func cleanLeftovers(_ report: inout AlbumSyncReport) throws {
        for parentPath in [""] + AlbumLinker.generatedRoots where !AlbumLinker.isTopLevelAlbum(parentPath) {
            guard let parent = try openFolder(parentPath) else { continue }
            for name in parent.names() where name.hasPrefix(AlbumLinker.buildPrefix) {
                guard parent.lstat(name)?.isDirectory == true, let build = try openFolder(name, in: parent) else {
                    report.problems.append("\(parent.shown(name)) is not a folder of Shoebox's; it was left there")
                    continue
                }
                var album = String(name.dropFirst(AlbumLinker.buildPrefix.count))
                if album.hasSuffix(".old") { album.removeLast(4) }
                if let home = try? openFolder(album, in: parent) {
                    for other in read(build).others { _ = shoebox_renameat_noreplace(build.fd, other, home.fd, other) }
                }
                try removeLinkFolder(name, in: parent, &report)
            }
        }
    }
}
