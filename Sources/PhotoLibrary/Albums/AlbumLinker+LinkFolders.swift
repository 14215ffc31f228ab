import CShoeboxSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Reading and writing one folder of album links, by name relative to its open descriptor.

extension AlbumLinker {
    /// What an album folder holds.
    struct OnDisk: Equatable {
        /// Links Shoebox could have made (relative, up to the library, then a path in it), by name.
        var links: [String: String] = [:]
        /// Everything else: files, folders, links of another shape. Never deleted.
        var others: [String] = []
    }

    /// An album folder open, and what it held when it was read.
    typealias Existing = (folder: LinkFolder, onDisk: OnDisk)

    /// The album folder at `path` under `Albums/`, open and read; nil when there is no folder.
    func readFolder(_ path: String) throws -> Existing? {
        guard let folder = try openFolder(path) else { return nil }
        return (folder, read(folder, depth: AlbumLinker.depth(of: path)))
    }

    /// What the open `folder` holds; its links are Shoebox's when they climb `depth` folders
    /// (out of `Albums/`) and then name a path in the library.
    func read(_ folder: LinkFolder, depth: Int) -> OnDisk {
        var out = OnDisk()
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        forEachDirectoryEntry(fd: folder.fd) { entry, fd in
            guard let name = entry.name else { return }
            if let target = AlbumLinker.readLink(fd, name, buffer: &buffer), AlbumLinker.isShoeboxLink(target, depth: depth) {
                out.links[name] = target
            } else {
                out.others.append(name)
            }
        }
        return out
    }

    /// How many folders a link in the album at `path` climbs to reach the library folder.
    static func depth(of path: String) -> Int { path.split(separator: "/").count + 1 }

    /// Whether a link's text has the shape of Shoebox's: `depth` times "../", then a path inside
    /// the library. Anything else (absolute, climbing further) is someone else's.
    static func isShoeboxLink(_ target: String, depth: Int) -> Bool {
        var rest = target.utf8[...]
        for _ in 0..<depth {
            guard rest.starts(with: "../".utf8) else { return false }
            rest = rest.dropFirst(3)
        }
        // Then a path inside: no empty, "." or ".." component, no NUL (bytes: no allocation per link).
        var length = 0, dots = 0
        for b in rest {
            if b == 0 { return false }
            if b == 0x2F {
                if length == 0 || (length == dots && dots <= 2) { return false }
                (length, dots) = (0, 0)
            } else {
                length += 1
                if b == 0x2E { dots += 1 }
            }
        }
        return length > 0 && !(length == dots && dots <= 2)
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
    /// none). What Shoebox did not make is moved aside first (`moveForeignAside`). Only additions
    /// and removals: in place; anything else (a new order, a moved original): a new folder built
    /// beside it and swapped in. Returns whether it changed anything.
    func write(_ album: AlbumFolder, existing: Existing?, _ report: inout AlbumSyncReport) throws -> Bool {
        guard let folder = existing?.folder, var onDisk = existing?.onDisk else {
            try rebuild(album, replacing: nil, &report)
            return true
        }
        // Only now: a new folder (every album of a first scan) needs no table of its links.
        let want = Dictionary(album.entries.map { ($0.linkName, $0.target) }, uniquingKeysWith: { a, _ in a })
        let movedAside = moveForeignAside(&onDisk, of: album, want: want, in: folder, &report)
        if onDisk.links == want { return movedAside }
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
        try rebuild(album.path, replacing: old, &report) { build, report in
            fillBuildFolder(build, with: album, reusingLinksOf: old, &report)
        }
    }

    /// A new folder for the album at `path`, filled by `fill` while hidden beside its folder, then
    /// put in its place.
    func rebuild(_ path: String, replacing old: Existing?, _ report: inout AlbumSyncReport,
                 fill: (LinkFolder, inout AlbumSyncReport) throws -> Void) throws {
        let (parentPath, leaf) = AlbumLinker.split(path)
        let parent = try makeFolder(parentPath)
        let buildName = String(decoding: Array((AlbumLinker.buildPrefix + leaf).utf8.prefix(250)), as: UTF8.self)
        if parent.lstat(buildName) != nil { try cleanLeftover(buildName, in: parent, &report) }
        guard mkdirat(parent.fd, buildName, 0o755) == 0, let build = try openFolder(buildName, in: parent) else {
            throw ShoeboxError(.io, "cannot create \(parent.shown(buildName)): \(ShoeboxError.errnoText())")
        }
        try fill(build, &report)
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
        // What the old folder held besides links moves with the album (files in a user album,
        // a file manager's hidden files), else aside; then the old folder goes.
        for name in old.onDisk.others where shoebox_renameat_noreplace(old.folder.fd, name, build.fd, name) != 0 {
            rescue(name, from: old.folder, album: path, &report)
        }
        try removeLinkFolder(buildName, in: parent, album: path, keepForeign: false, &report)
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
    func makeLink(_ e: AlbumFolder.Entry, in folder: LinkFolder, shownAs shown: LinkFolder, _ report: inout AlbumSyncReport) {
        if symlinkat(e.target, folder.fd, e.linkName) != 0 {
            report.problems.append("cannot create the link \(shown.shown(e.linkName)): \(ShoeboxError.errnoText())")
        }
    }
}
