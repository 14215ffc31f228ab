import CSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Reading and writing one folder of album links.

extension AlbumLinker {
    /// What an album folder holds.
    struct OnDisk: Equatable {
        var links: [String: String] = [:]
        /// Entries that are not links: files a user put there; never deleted.
        var others: [String] = []
    }

    /// The links of a folder; nil when there is no folder.
    func readFolder(_ dir: String) -> OnDisk? {
        var out = OnDisk()
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let opened = forEachDirectoryEntry(dir) { entry, fd in
            guard let name = entry.name else { return }
            // Relative to the open folder: no walk down the whole path for each of its links.
            if let target = AlbumLinker.readLink(fd, name, buffer: &buffer) {
                out.links[name] = target
            } else {
                out.others.append(name)
            }
        }
        return opened ? out : nil
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

    /// Writes one album folder. Only additions and removals: in place. Anything else (a new
    /// order, a moved original): a new folder built beside it and swapped in.
    /// Returns whether it changed anything.
    func write(_ album: AlbumFolder, into dir: String, existing: OnDisk?, _ report: inout AlbumSyncReport) throws -> Bool {
        let want = Dictionary(album.entries.map { ($0.linkName, $0.target) }, uniquingKeysWith: { a, _ in a })
        if let existing, existing.links == want { return false }
        if let existing, !existing.links.contains(where: { want[$0.key] != nil && want[$0.key] != $0.value }) {
            updateInPlace(album, in: dir, existing: existing, want: want, &report)
            return true
        }
        let build = try makeBuildFolder(beside: dir, &report)
        fillBuildFolder(build, with: album, reusingLinksOf: dir, existing: existing, &report)
        try swapIn(build, for: dir, existing: existing, &report)
        return true
    }

    /// Links to add and links to drop, no link to change: done in the folder itself.
    private func updateInPlace(_ album: AlbumFolder, in dir: String, existing: OnDisk, want: [String: String],
                               _ report: inout AlbumSyncReport) {
        // A link that only changes its name (its position moved: a photo came or went before
        // it) is renamed rather than deleted and made again: no inode to free and allocate,
        // which is most of what a large album costs on ext4. Read back, so that a link
        // replaced meanwhile is never kept (and a file put in its place goes back to its
        // name); anything else gets a new link.
        var renamable: [String: String] = [:]
        for (name, target) in existing.links where want[name] == nil { renamable[target] = name }
        let fd = renamable.isEmpty ? -1 : open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if fd >= 0 { close(fd) } }
        var renamed = Set<String>(), placed = Set<String>()
        for e in album.entries where existing.links[e.linkName] == nil {
            guard fd >= 0, let old = renamable[e.target], shoebox_renameat_noreplace(fd, old, fd, e.linkName) == 0 else { continue }
            renamed.insert(old)
            switch AlbumLinker.readLink(fd, e.linkName) {
            case e.target: placed.insert(e.linkName)
            case nil: _ = shoebox_renameat_noreplace(fd, e.linkName, fd, old)
            default: unlinkat(fd, e.linkName, 0)
            }
        }
        for name in existing.links.keys where want[name] == nil && !renamed.contains(name) { unlink(dir + "/" + name) }
        for e in album.entries where existing.links[e.linkName] == nil && !placed.contains(e.linkName) {
            makeLink(e, at: dir + "/" + e.linkName, shownAs: dir, &report)
        }
    }

    /// A new, empty hidden folder beside `dir` to build its replacement in.
    private func makeBuildFolder(beside dir: String, _ report: inout AlbumSyncReport) throws -> String {
        let parent = (dir as NSString).deletingLastPathComponent
        let leaf = (dir as NSString).lastPathComponent
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let build = parent + "/" + String(decoding: Array((AlbumLinker.buildPrefix + leaf).utf8.prefix(250)), as: UTF8.self)
        if readFolder(build) != nil { removeLinkFolder(build, &report) }
        guard mkdir(build, 0o755) == 0 else {
            throw ShoeboxError(.io, "cannot create \(build): \(ShoeboxError.errnoText())")
        }
        return build
    }

    /// Makes the album's links in `build`.
    private func fillBuildFolder(_ build: String, with album: AlbumFolder, reusingLinksOf dir: String, existing: OnDisk?,
                                 _ report: inout AlbumSyncReport) {
        // A link the old folder has (same target, under another name now that positions moved) is
        // hard-linked into the new folder rather than made again: no inode to allocate, which is
        // most of what rebuilding a large album costs on ext4. Read back, so that a link replaced
        // meanwhile is never carried over; anything else gets a new link.
        var reusable: [String: String] = [:]
        for (name, target) in existing?.links ?? [:] { reusable[target] = name }
        let oldFD = reusable.isEmpty ? -1 : open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        let buildFD = oldFD < 0 ? -1 : open(build, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer {
            if oldFD >= 0 { close(oldFD) }
            if buildFD >= 0 { close(buildFD) }
        }
        for e in album.entries {
            if buildFD >= 0, let old = reusable[e.target], linkat(oldFD, old, buildFD, e.linkName, 0) == 0 {
                if AlbumLinker.readLink(buildFD, e.linkName) == e.target { continue }
                unlinkat(buildFD, e.linkName, 0)  // a second name only: whatever it is keeps its own
            }
            makeLink(e, at: build + "/" + e.linkName, shownAs: dir, &report)
        }
    }

    /// Puts the built folder in the place of `dir` in one step, then removes the old one (a
    /// user's own files in it move to the new one).
    private func swapIn(_ build: String, for dir: String, existing: OnDisk?, _ report: inout AlbumSyncReport) throws {
        if existing == nil {
            guard rename(build, dir) == 0 else { throw ShoeboxError(.io, "cannot create \(dir): \(ShoeboxError.errnoText())") }
            return
        }
        if shoebox_rename_exchange(build, dir) != 0 {
            // A file system without RENAME_EXCHANGE: the old folder steps aside for an instant.
            let old = build + ".old"
            guard rename(dir, old) == 0, rename(build, dir) == 0 else {
                throw ShoeboxError(.io, "cannot replace \(dir): \(ShoeboxError.errnoText())")
            }
            rename(old, build)
        }
        // `build` now holds the old folder.
        for name in existing?.others ?? [] {
            _ = shoebox_rename_noreplace(build + "/" + name, dir + "/" + name)
        }
        removeLinkFolder(build, &report)
    }

    /// One link at `path`; a failure is reported under the album folder `dir`'s name.
    private func makeLink(_ e: AlbumFolder.Entry, at path: String, shownAs dir: String, _ report: inout AlbumSyncReport) {
        if symlink(e.target, path) != 0 {
            report.problems.append("cannot create the link \(displayPath(dir + "/" + e.linkName)): \(ShoeboxError.errnoText())")
        }
    }

    /// Deletes a folder's links and then the folder; anything that is not a link stays (and so
    /// does the folder then): deleting an album never deletes a file.
    func removeLinkFolder(_ dir: String, _ report: inout AlbumSyncReport) {
        guard let content = readFolder(dir) else { return }
        for name in content.links.keys { unlink(dir + "/" + name) }
        if !content.others.isEmpty {
            report.problems.append("\(displayPath(dir)) holds files that are not album links (\(content.others.prefix(3).joined(separator: ", "))); they were left there")
            return
        }
        rmdir(dir)
    }

    /// Build folders a crash left behind: their own files go back to their album, links go.
    func cleanLeftovers(_ report: inout AlbumSyncReport) {
        for parent in [root] + AlbumLinker.generatedRoots.map({ root + "/" + $0 }) {
            for name in directoryNames(parent) where name.hasPrefix(AlbumLinker.buildPrefix) {
                let build = parent + "/" + name
                var album = String(name.dropFirst(AlbumLinker.buildPrefix.count))
                if album.hasSuffix(".old") { album.removeLast(4) }
                for other in readFolder(build)?.others ?? [] {
                    _ = shoebox_rename_noreplace(build + "/" + other, parent + "/" + album + "/" + other)
                }
                removeLinkFolder(build, &report)
            }
        }
    }
}
