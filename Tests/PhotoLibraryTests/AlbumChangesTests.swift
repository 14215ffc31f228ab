import Foundation
import Testing
import TestSupport
@testable import PhotoLibrary

/// After a few assets change, a sync works out and rewrites only the albums they left or
/// joined (`AlbumChanges`), and what it leaves on disk is what a full pass would.
@Suite(.serialized)
struct AlbumChangesTests {
    /// Every generated album folder holds exactly the links a full computation gives.
    static func expectAlbumsMatchTheIndex(_ linker: AlbumLinker, _ library: Library) throws {
        for album in try linker.generated() {
            let want = Dictionary(uniqueKeysWithValues: album.entries.map { ($0.linkName, $0.target) })
            #expect(try linker.links(of: album.path) == want, "\(album.path)")
        }
    }

    static func albums(of id: AssetID, _ linker: AlbumLinker) throws -> Set<String> {
        Set(try linker.generated().filter { $0.entries.contains { $0.id == id } }.map(\.path))
    }

    /// A sample library whose albums a pass has verified and stamped: the next sync has nothing to do.
    static func settledSample() throws -> (Library, Index, AlbumLinker, Int) {
        let (library, index, _, _) = try LibraryTests.scannedSample()
        let linker = AlbumLinker(library: library, index: index)
        Thread.sleep(forTimeInterval: AlbumLinker.stampMargin + 0.2)
        let full = try linker.sync()
        #expect(try linker.loadStamps()?.complete == true)
        #expect(try linker.sync().albumsComputed == 0)
        return (library, index, linker, full.albumsComputed)
    }

    @Test func oneMovedAssetRewritesOnlyItsAlbums() throws {
        let (library, index, linker, total) = try Self.settledSample()
        let asset = try #require(try index.allAssets().first { a in
            a.state == .present && a.duplicateOf == nil && a.livePhotoOf == nil && a.year != nil && a.place != nil
        })
        let before = try Self.albums(of: asset.id, linker)
        #expect(before.count >= 2 && before.count < total, "\(before) of \(total)")

        // The photo moves to another folder (as the scan or the watcher records it).
        var moved = asset
        moved.path = "Elsewhere/" + (asset.path as NSString).lastPathComponent
        try FileManager.default.createDirectory(at: library.url(for: "Elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: library.url(for: asset.path), to: library.url(for: moved.path))
        try AssetWriter(library: library, index: index).commit([moved])

        let report = try linker.sync()
        #expect(report.albumsComputed == before.count)
        #expect(report.foldersWritten == before.count)
        try Self.expectAlbumsMatchTheIndex(linker, library)

        // The folders just written wait to be stamped: the next syncs look at those only, then at nothing.
        let again = try linker.sync()
        let changes = try linker.loadChanges()
        #expect(again.albumsComputed == before.count, "\(again.albumsComputed) \(before) \(String(describing: changes))")
        Thread.sleep(forTimeInterval: AlbumLinker.stampMargin + 0.2)
        #expect(try linker.sync().foldersWritten == 0)
        #expect(try linker.loadStamps()?.complete == true)
        #expect(try linker.sync().albumsComputed == 0)
    }

    @Test func anAssetThatChangesPlaceLeavesOneAlbumAndJoinsANewOne() throws {
        let (library, index, linker, total) = try Self.settledSample()
        let asset = try #require(try index.allAssets().first { a in
            a.state == .present && a.duplicateOf == nil && a.livePhotoOf == nil && a.place != nil
        })
        let before = try Self.albums(of: asset.id, linker)
        var changed = asset
        changed.place = Place(city: "Testville", country: "Nowhere")
        try AssetWriter(library: library, index: index).commit([changed])
        let after = try Self.albums(of: asset.id, linker)
        let joined = after.subtracting(before)
        #expect(joined.count == 1 && joined.allSatisfy { $0.hasPrefix("Places/") }, "\(joined)")

        let report = try linker.sync()
        // Its albums before and after; every other album is trusted by its stamp.
        #expect(report.albumsComputed == before.union(after).count)
        #expect(report.albumsComputed < total)
        try Self.expectAlbumsMatchTheIndex(linker, library)

        // It goes missing: the albums it was in lose it, and one left empty goes.
        var gone = changed
        gone.state = .missing
        try AssetWriter(library: library, index: index).commit([gone])
        let emptied = try linker.sync()
        #expect(emptied.foldersRemoved == 1, "the new place held only this photo")
        // Its albums, and those the last sync wrote (not stamped yet), less the one left empty.
        #expect(emptied.albumsComputed == before.union(after).count - 1)
        #expect(!FileManager.default.fileExists(atPath: library.root.appendingPathComponent("Albums/" + joined.first!).path))
        try Self.expectAlbumsMatchTheIndex(linker, library)
    }

    @Test func aWriteThatWasNotRecordedMakesAFullPass() throws {
        let (library, index, linker, _) = try Self.settledSample()
        let asset = try #require(try index.allAssets().first { $0.state == .present && $0.year != nil })
        var changed = asset
        changed.place = Place(city: "Elsewhere", country: nil)
        // A write by something that does not keep the record (an older Shoebox): the record is behind.
        try index.setMeta(AlbumChanges.key, "")
        try AssetWriter(library: library, index: index).commit([changed])
        #expect(try linker.sync().albumsComputed == linker.generated().count)
        try Self.expectAlbumsMatchTheIndex(linker, library)
    }
}
