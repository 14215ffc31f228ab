import Foundation
import Testing
import TestSupport
@testable import PhotoLibrary
@testable import Tidy

/// Tidy through the session layer alone, in-process: exactly the calls a web server makes (no
/// subprocess, no CLI type). A scanned copy of the sample library, whose byte-identical copies
/// make groups of similar shots without any analysis.
@Suite(.serialized)
struct TidySessionFlowTests {
    static func opened() throws -> LibrarySession {
        let copy = try TestRoll.sampleCopy()
        let session = try LibrarySession(try Library.initialize(at: copy.root), features: [Tidy.feature])
        _ = try session.scan()
        return session
    }

    static func exists(_ session: LibrarySession, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: session.library.root.appendingPathComponent(path).path)
    }

    static func asset(_ session: LibrarySession, _ id: AssetID) throws -> Asset {
        try #require(try session.read { try $0.asset(id: id) })
    }

    /// Photos on their own: no Live Photo, no copy of another.
    static func plainPhotos(_ session: LibrarySession) throws -> [Asset] {
        let groups = Set(try Tidy.similarGroups(session).groups.flatMap { $0.assets.map(\.id) })
        return try session.read { try $0.assets(matching: AssetQuery()) }.filter {
            $0.kind == .photo && !groups.contains($0.id) && (try? session.index.liveVideos(for: [$0.id]).isEmpty) == true
        }
    }

    /// Links under `Albums/` whose target is not there.
    static func danglingLinks(_ session: LibrarySession) -> [String] {
        let albums = session.library.root.appendingPathComponent("Albums").path
        let fm = FileManager.default
        return (fm.enumerator(atPath: albums)?.allObjects as? [String] ?? []).filter { rel in
            (try? fm.destinationOfSymbolicLink(atPath: albums + "/" + rel)) != nil && !fm.fileExists(atPath: albums + "/" + rel)
        }
    }

    @Test func aReviewDecidesAGroupUndoesUnmarksAndEmpties() throws {
        let session = try Self.opened()
        let started = try Tidy.start(session, .all)
        let first = try #require(started.current)
        #expect(started.status.position == 0 && started.status.total > 0)

        // The item under review deleted: marked, and the next item comes.
        let (deleted, afterDelete) = try Tidy.decide(session, .delete)
        #expect(Set(deleted.ids) == Set(first.open))
        #expect(afterDelete.current?.index == first.index + 1)
        #expect(afterDelete.status.marked == first.open.count)
        #expect(Set(try Tidy.pile(session, .delete).assets.map(\.id)) == Set(first.open))

        // A group of copies put on the maybe pile photo by photo, then reviewed again as one item:
        // the best kept, the others deleted.
        let group = try #require(try Tidy.similarGroups(session).groups.first {
            $0.assets.count > 1 && Set($0.assets.map(\.id)).isDisjoint(with: first.open)
        })
        let members = Set(group.assets.map(\.id))
        for a in group.assets { _ = try Tidy.decide(session, .maybe, a.id.rawValue) }
        let maybes = try Tidy.start(session, .maybe)
        let reviewed = try #require(maybes.current)
        #expect(Set(reviewed.open) == members, "the group comes as one item")
        let best = reviewed.assets[0]
        let (kept, afterKeep) = try Tidy.decide(session, .keep, best.id.rawValue, others: .delete)
        #expect(kept.ids == [best.id])
        #expect(Set(kept.others) == members.subtracting([best.id]))
        #expect(afterKeep.status.done && afterKeep.current == nil)

        // Undo takes the whole group decision back: under review again, on the maybe pile.
        let (undone, afterUndo) = try Tidy.undo(session)
        #expect(Set(undone.marks.map(\.id)) == members)
        #expect(afterUndo.current?.index == reviewed.index)
        #expect(Set(try Tidy.pile(session, .maybe).assets.map(\.id)) == members)

        // Decided again; one of the others put back (kept).
        let (again, _) = try Tidy.decide(session, .keep, best.id.rawValue, others: .delete)
        let spared = again.others[0]
        #expect(try Tidy.unmark(session, spared.rawValue).assets.first?.tidyMark?.decision == .keep)

        // `empty`: the first item's photos and the group's deleted ones go to Recently Deleted.
        let gone = first.open + again.others.filter { $0 != spared }
        let paths = try gone.map { try Self.asset(session, $0).path }
        let emptied = try Tidy.empty(session) { Issue.record("not moved: \($0)") }
        #expect(emptied.removed == gone.count && emptied.failed == 0)
        for p in paths { #expect(!Self.exists(session, p), "\(p) left the library") }
        let trashed = Set(try session.read { try $0.assets(state: .trashed) }.map(\.id))
        #expect(Set(gone).isSubset(of: trashed))
        let sparedPath = try Self.asset(session, spared).path
        #expect(Self.exists(session, best.path) && Self.exists(session, sparedPath))
        let status = try Tidy.snapshot(session).status
        #expect(status.marked == 0 && status.removed == gone.count)

        // Undo stops at the empty, with a remedy a front end words.
        do {
            _ = try Tidy.undo(session)
            Issue.record("undo went past the empty")
        } catch let e as ShoeboxError {
            #expect(e.remedy as? TidyRemedy == .restoreEmptied, "\(e)")
        }
    }

    /// `tidy list` and `tidy similar` read their assets a batch at a time (issue 33): in batches
    /// of 3 (2,000 in use) the same items, groups and companions as in one batch; of a listing
    /// longer than a batch every pairing is read once, which must give each batch what the batch
    /// alone finds.
    @Test func listingsInBatchesAreTheWholeListings() throws {
        let session = try Self.opened()
        _ = try Tidy.start(session, .all)
        let review = try Tidy.readable(session)
        func items(batch: Int) throws -> (items: [[AssetID]], indexes: [Int], companions: [AssetID: String], batches: Int) {
            var out: ([[AssetID]], [Int], [AssetID: String], Int) = ([], [], [:], 0)
            try Tidy(reading: session).forEachBatch(of: review, from: 0, batch: batch) { items, companions in
                out.0 += items.map { $0.assets.map(\.id) }
                out.1 += items.map(\.index)
                out.2.merge(companions) { a, _ in a }
                out.3 += 1
            }
            return out
        }
        let whole = try items(batch: Tidy.listingBatch), small = try items(batch: 3)
        #expect(whole.batches == 1 && small.batches > 2)
        #expect(small.items == whole.items && small.indexes == whole.indexes && !whole.items.isEmpty)
        #expect(small.companions == whole.companions && !whole.companions.isEmpty, "the sample library has Live Photos")
        func groups(batch: Int) throws -> (groups: [[AssetID]], companions: [AssetID: String]) {
            var out: ([[AssetID]], [AssetID: String]) = ([], [:])
            try Tidy.forEachSimilarGroup(session, batch: batch) { groups, companions in
                out.0 += groups.map { $0.assets.map(\.id) }
                out.1.merge(companions) { a, _ in a }
            }
            return out
        }
        let allGroups = try groups(batch: Tidy.listingBatch), smallGroups = try groups(batch: 1)
        #expect(smallGroups.groups == allGroups.groups && allGroups.groups.count > 1)
        #expect(smallGroups.companions == allGroups.companions)
        #expect(allGroups.groups == (try Tidy.similarGroups(session).groups.map { $0.assets.map(\.id) }))
    }

    @Test func readingTakesNoWriterLock() throws {
        let session = try Self.opened()
        _ = try Tidy.start(session, .all)
        _ = try Tidy.decide(session, .delete)
        // Another process is writing: every read still answers (a read that waited for the lock
        // would fail after 30 s, the lock being held throughout).
        let other = try LibraryLock(library: session.library, timeout: 1)
        let shown = try Tidy.snapshot(session, countingUnreviewed: true)
        #expect(shown.current != nil && shown.status.marked > 0)
        #expect(try Tidy.items(session, all: true).items.isEmpty == false)
        #expect(try Tidy.pile(session, .delete).assets.count == shown.status.marked)
        _ = try Tidy.similarGroups(session)
        withExtendedLifetime(other) {}
    }

    /// `tidy empty` killed after moving `moved` of `marked` into Recently Deleted, before the
    /// index knew: the change in the session, the files and their info files in the trash.
    static func killEmpty(afterMoving moved: [Asset], of marked: [Asset], in session: LibrarySession) throws {
        let store = TidyStore(library: session.library)
        var state = try #require(try store.loadState())
        let now = Date()
        state.log.append(TidyState.Change(kind: .empty, item: nil, positionBefore: state.position, positionAssetsBefore: state.positionAssets,
                                          marks: marked.map { TidyState.Mark(id: $0.id, from: $0.tidyMark, to: TidyMark(decision: .emptied, at: now, session: state.session)) },
                                          done: false))
        try store.save(state)
        let trash = session.library.root.appendingPathComponent(RecentlyDeleted.folderName)
        for folder in ["files", "info"] {
            try FileManager.default.createDirectory(at: trash.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for a in moved {
            try Data(TrashInfo(path: a.path, deletionDate: now).render().utf8).write(to: trash.appendingPathComponent("info/\(a.name).trashinfo"))
            try FileManager.default.moveItem(at: session.library.root.appendingPathComponent(a.path), to: trash.appendingPathComponent("files/\(a.name)"))
        }
    }

    /// The hole: the next command finished a killed `empty` before Recently Deleted was reconciled,
    /// so the file already moved counted as not moved and kept its "delete" mark; restored, the
    /// next `empty` moved it out again; its album links dangled until a scan.
    @Test func aKilledEmptyIsFinishedWithTheFilesWhereTheyAre() throws {
        let session = try Self.opened()
        _ = try Tidy.start(session, .all)
        let photos = Array(try Self.plainPhotos(session).prefix(2))
        for p in photos { _ = try Tidy.decide(session, .delete, p.id.rawValue) }
        let marked = try photos.map { try Self.asset(session, $0.id) }
        try Self.killEmpty(afterMoving: [marked[0]], of: marked, in: session)
        #expect(!Self.danglingLinks(session).isEmpty, "the kill left album links to the moved photo")

        // Any write, not Tidy's: its repairs reconcile Recently Deleted, then finish Tidy's change.
        try session.write { _ in }
        #expect(Self.danglingLinks(session) == [])
        let moved = try Self.asset(session, marked[0].id)
        #expect(moved.state == .trashed && moved.tidyMark?.decision == .emptied)
        let status = try Tidy.snapshot(session).status
        #expect(status.removed == 1 && status.freedBytes == marked[0].size && status.marked == 1)

        // Restored, it stays: the next `empty` moves only the photo still marked.
        _ = try session.write { try $0.trash.restore([moved]) { Issue.record("not restored: \($0)") } }
        #expect(try Tidy.pile(session, .delete).assets.map(\.id) == [marked[1].id])
        let emptied = try Tidy.empty(session) { Issue.record("not moved: \($0)") }
        #expect(emptied.removed == 1 && emptied.sessionRemoved == 2)
        #expect(Self.exists(session, marked[0].path) && !Self.exists(session, marked[1].path))
    }

    @Test func aPhotoTrashedWhileMarkedAndRestoredIsNotMovedOutAgain() throws {
        let session = try Self.opened()
        _ = try Tidy.start(session, .all)
        let photo = try #require(try Self.plainPhotos(session).first)
        _ = try Tidy.decide(session, .delete, photo.id.rawValue)
        let marked = try Self.asset(session, photo.id)
        _ = try session.write { try $0.trash.trash([marked]) { Issue.record("not trashed: \($0)") } }
        _ = try session.write { try $0.trash.restore([try Self.asset(session, photo.id)]) { Issue.record("not restored: \($0)") } }
        #expect(try Tidy.pile(session, .delete).assets.isEmpty, "the decision was carried out by the trash")
        _ = try Tidy.empty(session) { Issue.record("not moved: \($0)") }
        #expect(Self.exists(session, photo.path))
    }
}
