import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Making `Albums/` match the plan: user albums, then generated ones.

extension AlbumLinker {
    /// Makes `Albums/` match the index and the user albums.
    @discardableResult
    public func sync() throws -> AlbumSyncReport {
        var report = AlbumSyncReport()
        if let off = AlbumLinker.symlinkProblem(library) {
            report.off = off
            return report
        }
        // Every album folder is reached from this one descriptor of `Albums/`, never through a link.
        try withAlbumsOpen(creating: true) { linker in
            try linker.cleanLeftovers(&report)
            try linker.syncUserAlbums(&report)
            try linker.syncGeneratedAlbums(&report)
        }
        return report
    }

    // MARK: User albums

    /// Finishes deletions, reads links deleted by hand, then writes each user album's folder.
    func syncUserAlbums(_ report: inout AlbumSyncReport) throws {
        let store = UserAlbums(library: library)
        let userAlbums = store.allIncludingDeleted(problem: { report.problems.append($0) })
        // Only what the user albums name (members, and what their links were) is looked up.
        let paths = try presentPaths(of: Set(userAlbums.flatMap { $0.deleting ? [] : $0.members + $0.linked.values }))
        for album in userAlbums {
            if album.deleting {
                try removeLinkFolder(album.folder, keepForeign: true, &report)
                store.erase(album)
            } else {
                try syncUserAlbum(album, presentPaths: paths, store: store, &report)
            }
        }
    }

    /// One user album. Its file records the links as written (`linked`), and `syncing` while its
    /// folder is being rewritten, so that a crash half-way is not read as links deleted by hand.
    func syncUserAlbum(_ album: UserAlbum, presentPaths paths: [AssetID: String], store: UserAlbums,
                       _ report: inout AlbumSyncReport) throws {
        var album = album
        let existing = try readFolder(album.folder)
        let onDisk = existing?.onDisk
        let before = album
        if !album.syncing, let onDisk {
            takeOutLinksDeletedByHand(from: &album, onDisk: onDisk, presentPaths: paths, &report)
        }
        let want = folder(for: album, presentPaths: paths)
        let wantLinks = Dictionary(want.entries.map { ($0.linkName, $0.target) }, uniquingKeysWith: { a, _ in a })
        let wantLinked = Dictionary(want.entries.map { ($0.linkName, $0.id) }, uniquingKeysWith: { a, _ in a })
        if onDisk?.links == wantLinks && !album.syncing {
            album.linked = wantLinked
            if album != before { try store.save(album) }
            return
        }
        album.syncing = true
        try store.save(album)
        if try write(want, existing: existing, &report) { report.foldersWritten += 1 }
        album.syncing = false
        album.linked = wantLinked
        try store.save(album)
    }

    /// A link that was written, is gone, and whose asset is still present was deleted by hand:
    /// its asset leaves the album.
    func takeOutLinksDeletedByHand(from album: inout UserAlbum, onDisk: OnDisk, presentPaths paths: [AssetID: String],
                                   _ report: inout AlbumSyncReport) {
        let gone = album.linked.filter { onDisk.links[$0.key] == nil && paths[$0.value] != nil }
        guard !gone.isEmpty else { return }
        let ids = Set(gone.values)
        album.members.removeAll(where: ids.contains)
        for id in ids.sorted(by: { $0.rawValue < $1.rawValue }) { report.removedByHand.append((album.name, id)) }
    }

    // MARK: Generated albums

    /// Nothing to do while neither the index nor any of their folders has changed since a pass
    /// that verified them all; after a few recorded changes, only the albums they touched are
    /// worked out (see `AlbumChanges`); otherwise a full pass, in which a folder whose links and
    /// stamp are those of the last pass is not read again (see `Stamps`).
    func syncGeneratedAlbums(_ report: inout AlbumSyncReport) throws {
        let generation = try index.generation()
        let stamps = try loadStamps()
        if stampsStillHold(stamps, generation: generation) { return }
        if try syncChangedAlbums(stamps, generation: generation, &report) { return }
        var verified: [String: Verification] = [:]
        let albums = try writeGeneratedAlbums(lastStamps: stamps, verified: &verified, &report)
        let rootsAt = Date().timeIntervalSince1970
        let problems = report.problems.count
        try removeGeneratedAlbums(notIn: albums, &report)
        if report.problems.count == problems {
            for top in [""] + AlbumLinker.generatedRoots where !albums.contains(top) { verified[top] = (rootsAt, nil) }
        }
        let fresh = freshStamps(generation: generation, albums: albums, verified: verified)
        try saveStamps(fresh)
        try startChanges(after: fresh, albums: albums)
        try saveListingOrder(of: albums)
    }

    /// Writes each generated album that its stamp does not vouch for; records in `verified` each
    /// one found or made as it should be. Returns the paths of all of them.
    func writeGeneratedAlbums(lastStamps stamps: Stamps?, verified: inout [String: Verification],
                              _ report: inout AlbumSyncReport) throws -> Set<String> {
        var albums = Set<String>()
        var new: [GeneratedAlbum] = []
        try forEachGeneratedAlbum { album in
            albums.insert(album.path)
            let stamp = stamps?.folders[album.path] ?? nil
            // Neither stamped nor on disk (every album of a first scan): written after the loop,
            // several at once (`writeNewFolders`).
            if stamp == nil, lstat(album.path) == nil {
                new.append(album)
            } else {
                verified[album.path] = try verifyOrWrite(album, stamp: stamp, &report)
            }
        }
        try writeNewFolders(new, verified: &verified, &report)
        return albums
    }

    /// Finds `album`'s folder as it should be, by its stamp or by reading it, or writes it.
    /// Returns when it was verified and its digest; nil when it could not be written.
    /// A new folder (every album of a first scan) is written a batch of entries at a time, its
    /// digest hashed as they go; an existing folder is first checked a batch at a time
    /// (`exactDigest`), and only one that differs has the whole album's entries made at once.
    func verifyOrWrite(_ album: GeneratedAlbum, stamp last: FolderStamp?, _ report: inout AlbumSyncReport) throws -> Verification? {
        report.albumsComputed += 1
        var digest: String?
        if let last {
            digest = album.digest()
            if last.digest == digest, AlbumLinker.sameFolder(folderStamp(album.path), last) {
                return (last.verifiedAt, digest)
            }
        }
        let problems = report.problems.count
        let at = Date().timeIntervalSince1970
        if let open = try openFolder(album.path) {
            if let exact = exactDigest(of: album, in: open) {
                digest = exact
            } else {
                let folder = album.folder()
                digest = digest ?? AlbumLinker.digest(folder)
                let existing = (open, read(open, depth: AlbumLinker.depth(of: album.path)))
                if try write(folder, existing: existing, &report) { report.foldersWritten += 1 }
            }
        } else {
            let written = try writeNewFolder(album, &report)
            digest = digest ?? written
        }
        return report.problems.count == problems ? (at, digest) : nil
    }

    /// Writes `album`'s folder, which is not on disk, a batch of entries at a time; returns its
    /// digest, hashed as the entries go.
    func writeNewFolder(_ album: GeneratedAlbum, _ report: inout AlbumSyncReport) throws -> String {
        let hashed = AlbumDigest()
        try rebuild(album.path, replacing: nil, &report) { build, report in
            album.forEachBatch { batch in
                hashed.add(batch)
                for e in batch { makeLink(e, in: build, shownAs: build, &report) }
            }
        }
        report.foldersWritten += 1
        return hashed.finalize()
    }

    /// Generated albums with nothing left in them go (and their emptied `Years/`… folders):
    /// under each of `tops` ("Years", …, or "Screenshots" itself), the folders not in `albums`.
    func removeGeneratedAlbums(notIn albums: Set<String>, under tops: [String] = AlbumLinker.generatedRoots,
                               _ report: inout AlbumSyncReport) throws {
        for top in tops {
            if AlbumLinker.isTopLevelAlbum(top) {
                if !albums.contains(top), lstat(top)?.isDirectory == true {
                    try removeLinkFolder(top, keepForeign: false, &report)
                    report.foldersRemoved += 1
                }
                continue
            }
            guard let holder = try openFolder(top) else { continue }
            // Only folders: a file there is the owned-paths check's to report; a build folder
            // is `cleanLeftovers`'.
            for name in holder.names() where !albums.contains(top + "/" + name) && !name.hasPrefix(AlbumLinker.buildPrefix) {
                guard holder.lstat(name)?.isDirectory == true else { continue }
                try removeLinkFolder(name, in: holder, album: top + "/" + name, keepForeign: false, &report)
                report.foldersRemoved += 1
            }
            unlinkat(albumsFD, top, AT_REMOVEDIR)  // only when nothing is left in it
        }
    }
}
