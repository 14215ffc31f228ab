import Analysis
import Curation
import Foundation
import PhotoLibrary
import Testing
import TestSupport

/// Curation through the session layer alone, as the web server will drive it: add photos (their
/// scores waited for by the real analysis, passed in as `Curation.add` asks), top 5, share into
/// a folder, make the album — no CLI type, no subprocess.
@Suite(.serialized)
struct CurationSessionFlowTests {
    /// A scanned private copy of the sample library, opened as a front end opens it.
    static func opened() throws -> (LibrarySession, TestRoll.Made) {
        let copy = try TestRoll.sampleCopy()
        let session = try LibrarySession(try Library.initialize(at: copy.root), features: [Curation.feature])
        _ = try session.scan()
        return (session, copy)
    }

    /// Photos that stand for themselves (not a Live Photo's movie), the first `count`.
    static func photos(_ session: LibrarySession, _ count: Int) throws -> [Asset] {
        let all = try session.read { try $0.assets(matching: AssetQuery()) }
        return Array(all.filter { $0.kind == .photo && $0.livePhotoOf == nil }.prefix(count))
    }

    static func tempFolder() throws -> URL {
        let url = Scratch.root.appendingPathComponent("shoebox-session-share-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.appendingPathComponent("shared")
    }

    @Test func addWaitsForScoresThenTopFiveAreSharedByteForByteAndMadeAnAlbum() throws {
        let (session, copy) = try Self.opened()
        let picks = try Self.photos(session, 8)
        #expect(picks.allSatisfy { $0.analysis == nil }, "the scan analyses nothing")

        // The front end's two modules: Curation orders the steps, Analysis waits for the scores.
        var analysis: AnalysisRunner.Report?
        let added = try Curation.add(session, picks.map(\.path)) { ids in
            analysis = try Analysis.run(session, ids: ids, wait: true)
        }
        #expect(added.named == 8 && added.added == 8 && added.entries.count == 8)
        #expect(analysis?.analysed == 8 && analysis?.left == 0, "\(String(describing: analysis))")
        // Every photo analysed by the current analyser before `add` returned, and only those.
        for e in added.entries { #expect(e.asset.analysis?.version == AssetAnalysis.currentVersion, "\(e.asset.path)") }
        let others = try session.read { try $0.assets(matching: AssetQuery()) }.filter { a in !picks.contains { $0.id == a.id } }
        #expect(others.allSatisfy { $0.analysis == nil })
        // Best score first, unscored last.
        let scores = added.entries.map(\.asset.score)
        let scored = scores.compactMap { $0 }
        #expect(!scored.isEmpty)
        #expect(scored == scored.sorted(by: >))
        #expect(scores.prefix(scored.count).allSatisfy { $0 != nil }, "\(scores)")
        #expect(added.unscored == 8 - scored.count)

        // Top 5: the first five of the list, nothing else.
        let top = try Curation.change(session, .top(5))
        #expect(top.selectedCount == 5)
        #expect(top.entries.filter(\.selected).map(\.asset.id) == top.entries.prefix(5).map(\.asset.id))
        #expect(try Curation.list(session).filter(\.selected).count == 5, "the selection was saved")

        // Share: each selected original (and a Live Photo's movie) in the folder, byte for byte.
        let folder = try Self.tempFolder()
        let placed = try Curation.share(session, to: folder.path, copy: true)
        #expect(placed.filter { !$0.isCompanion }.map(\.id) == top.entries.prefix(5).map(\.asset.id))
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == Set(placed.map(\.name)))
        for p in placed {
            let original = try Data(contentsOf: copy.root.appendingPathComponent(p.source))
            #expect(try Data(contentsOf: folder.appendingPathComponent(p.name)) == original, "\(p.name) differs from \(p.source)")
            #expect(p.method == .copy)
        }

        // The album: the whole list, in score order, an ordinary user album.
        let (album, _) = try Curation.album(session)
        #expect(album.title.hasPrefix(CurationAlbum.prefix))
        #expect(album.entries.map(\.id) == top.entries.map(\.asset.id))
        let links = try FileManager.default.contentsOfDirectory(atPath: copy.root.appendingPathComponent("Albums/" + album.path).path)
        #expect(links.count == 8)

        // Clear: the list goes, no photo is touched.
        #expect(try Curation.clear(session) == 8)
        #expect(try Curation.list(session).isEmpty)
        for a in picks { #expect(FileManager.default.fileExists(atPath: copy.root.appendingPathComponent(a.path).path)) }
    }

    /// A photo changed since the scan: the wait gives it up (named, with a typed cause and
    /// remedy, no CLI words), it still joins the list unscored, and sharing it shares nothing.
    @Test func aChangedPhotoIsNamedJoinsUnscoredAndIsNotShared() throws {
        let (session, copy) = try Self.opened()
        let picks = try Self.photos(session, 3)
        let changed = picks[0]
        let handle = try FileHandle(forWritingTo: copy.root.appendingPathComponent(changed.path))
        handle.seekToEndOfFile()
        handle.write(Data("appended after the scan".utf8))
        try handle.close()

        let started = Date()
        var analysis: AnalysisRunner.Report?
        let added = try Curation.add(session, picks.map(\.path)) { analysis = try Analysis.run(session, ids: $0, wait: true) }
        #expect(Date().timeIntervalSince(started) < 60)
        let left = try #require(analysis?.notAnalysed)
        #expect(left.map(\.path) == [changed.path])
        #expect(left.first?.error.cause == .original(path: changed.path, .changed))
        #expect(left.first?.error.remedy as? AnalysisRemedy == .scanThenAnalyse)
        #expect(left.first.map { !$0.error.description.contains("shoebox") } == true, "\(left)")
        #expect(added.entries.count == 3 && added.unscored >= 1)
        #expect(added.entries.last?.asset.id == changed.id, "unscored ranks last")

        let folder = try Self.tempFolder()
        _ = try Curation.change(session, .top(5))
        do {
            _ = try Curation.share(session, to: folder.path, copy: false)
            Issue.record("a changed original was shared")
        } catch let e as ShoeboxError {
            #expect(e.cause == .original(path: changed.path, .changed))
            #expect(e.remedy as? CurationRemedy == .scanThenShareAgain)
        }
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).isEmpty)
    }

    /// The list's own errors carry their remedy and name no command.
    @Test func errorsSayWhatHappenedAndCarryTheirRemedy() throws {
        let (session, _) = try Self.opened()
        func failure(_ body: () throws -> Void) -> ShoeboxError? {
            do { try body() } catch let e as ShoeboxError { return e } catch { Issue.record("\(error)") }
            return nil
        }
        let empty = failure { _ = try Curation.change(session, .top(5)) }
        #expect(empty?.remedy as? CurationRemedy == .addPhotos)
        let picks = try Self.photos(session, 2)
        _ = try Curation.add(session, picks.map(\.path)) { _ in }
        let rank = failure { _ = try Curation.change(session, .select(["7"])) }
        #expect(rank?.remedy as? CurationRemedy == .listRanks)
        let none = failure { _ = try Curation.change(session, .removeSelected) }
        #expect(none?.description == "must select photos")
        try FileManager.default.removeItem(at: session.library.root.appendingPathComponent(".shoebox/curation.json"))
        try Data("[1,2".utf8).write(to: session.library.root.appendingPathComponent(".shoebox/curation.json"))
        let damaged = failure { _ = try Curation.list(session) }
        #expect(damaged?.remedy as? CurationRemedy == .clearList)
        for e in [empty, rank, damaged] { #expect(e.map { !$0.description.contains("shoebox ") } == true, "\(String(describing: e))") }
        #expect(try Curation.clear(session) == nil, "a damaged list is cleared too")
    }
}
