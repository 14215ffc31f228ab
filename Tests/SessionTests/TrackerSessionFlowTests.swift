import Foundation
import PhotoLibrary
import Testing
import TestSupport
import Tracker

/// The painting tracker's main flow through the session layer alone, as the web server will
/// drive it: a project, a miniature and a recipe linked to it, photos from a library asset and
/// from a file outside, an export, and the project's removal taking its miniatures and photo
/// copies with it — on a scanned copy of the sample library, no CLI type, no subprocess.
@Suite(.serialized)
struct TrackerSessionFlowTests {
    /// A scanned private copy of the sample library, opened with the tracker's feature.
    static func opened() throws -> (LibrarySession, URL) {
        let copy = try TestRoll.sampleCopy()
        let session = try LibrarySession(try Library.initialize(at: copy.root), features: [Tracker.feature])
        _ = try session.scan()
        return (session, copy.root)
    }

    /// Findings the tracker said, kept for the test to look at.
    final class Heard: @unchecked Sendable {
        var findings: [TrackerFinding] = []
    }

    static func bytes(_ root: URL, _ path: String) throws -> Data { try Data(contentsOf: root.appendingPathComponent(path)) }

    static func photoCopies(_ root: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Tracker/photos").path)) ?? []).sorted()
    }

    /// A JPEG photo of the sample library (an asset the tracker can take).
    static func jpegAsset(_ session: LibrarySession) throws -> Asset {
        try #require(try session.read { try $0.assets(matching: AssetQuery()) }
            .first { $0.kind == .photo && $0.path.lowercased().hasSuffix(".jpg") && $0.duplicateOf == nil })
    }

    @Test func aProjectIsBuiltWithPhotosExportedAndRemovedWithItsMiniaturesAndCopies() throws {
        let (session, root) = try Self.opened()
        let heard = Heard()
        let tracker = Tracker(session: session, note: { heard.findings.append($0) })

        let project = try tracker.addProject(gameSystem: "40k", army: "Ultramarines", name: "Strike force")
        #expect(project.game_system == .warhammer40K)
        // Ids may be shortened to a unique prefix.
        let mini = try tracker.addMini(project: String(project.id.prefix(8)), name: "Captain", type: .character)
        let recipe = try tracker.addRecipe(name: "Blue armour", type: .character, steps: ["Prime", "Base"], paints: ["Macragge Blue"],
                                           techniques: ["Edge highlight"])
        #expect(try tracker.link(recipe: recipe.id, mini: mini.id).recipe_ids == [recipe.id])

        // One photo from an asset of the library (by its path), one from a file outside it.
        let asset = try Self.jpegAsset(session)
        let fromAsset = try tracker.addPhoto(mini: mini.id, from: .asset(asset.path))
        let outside = root.deletingLastPathComponent().appendingPathComponent("kite.jpg")
        try FileManager.default.copyItem(at: TestRoll.repositoryRoot.appendingPathComponent("test-data/photos/kite.jpg"), to: outside)
        let fromFile = try tracker.addPhoto(mini: mini.id, from: .file(outside.path))
        #expect(try Self.bytes(root, fromAsset.file) == Self.bytes(root, asset.path), "the copy is byte for byte")
        #expect(try Self.bytes(root, fromFile.file) == Data(contentsOf: outside))
        #expect(Self.photoCopies(root).count == 2)
        #expect(Set(try tracker.photos(ofMini: mini.id).map(\.id)) == [fromAsset.id, fromFile.id])
        #expect(try tracker.miniature(mini.id).photo_ids == [fromAsset.id, fromFile.id])

        // The export of the project: one JSON file outside the library, photos by reference.
        let folder = root.deletingLastPathComponent().appendingPathComponent("export")
        let exported = try tracker.export(project: project.id, format: .json, to: folder.path)
        #expect(exported.files == [folder.path + "/tracker.json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("tracker.json"))) as? [String: Any])
        #expect((json["projects"] as? [Any])?.count == 1 && (json["recipes"] as? [Any])?.count == 1)
        #expect(Set(((json["photos"] as? [[String: Any]]) ?? []).compactMap { $0["file"] as? String }) == [fromAsset.file, fromFile.file])

        // The removal names what went with the project; its copies are gone, the original stays.
        let removal = try tracker.removeProject(String(project.id.prefix(6)))
        #expect(removal.kind == .project && removal.id == project.id && removal.miniatureIDs == [mini.id])
        #expect(Set(removal.photos.map(\.id)) == [fromAsset.id, fromFile.id] && removal.filesRemoved.count == 2)
        #expect(Self.photoCopies(root).isEmpty)
        #expect(try tracker.projects().isEmpty && tracker.miniatures(ofProject: nil).isEmpty)
        #expect(try tracker.recipes(ofType: nil).map(\.id) == [recipe.id], "recipes are independent of projects")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(asset.path).path))
        #expect(heard.findings.isEmpty, "\(heard.findings)")
        let doctor = try LibrarySession.doctor(session.library, features: [Tracker.feature])
        #expect(doctor.healthy && doctor.checks.contains { $0.name == "tracker" && $0.status == .ok })
    }

    @Test func aRecipeRemovalNamesTheMiniaturesItWasLinkedTo() throws {
        let (session, _) = try Self.opened()
        let tracker = Tracker(session: session)
        let project = try tracker.addProject(gameSystem: "Age of Sigmar", army: "Nighthaunt", name: nil)
        let a = try tracker.addMini(project: project.id, name: "Spirit", type: .troop)
        let b = try tracker.addMini(project: project.id, name: "Knight", type: .character)
        let recipe = try tracker.addRecipe(name: "Ghostly", type: nil, steps: ["Drybrush"], paints: [], techniques: [])
        _ = try tracker.link(recipe: recipe.id, mini: a.id)
        _ = try tracker.link(recipe: recipe.id, mini: b.id)
        #expect(try tracker.unlink(recipe: recipe.id, mini: b.id).recipe_ids.isEmpty)
        _ = try tracker.link(recipe: recipe.id, mini: b.id)
        let removal = try tracker.removeRecipe(recipe.id)
        #expect(removal.kind == .recipe && Set(removal.miniatureIDs) == [a.id, b.id] && removal.photos.isEmpty)
        #expect(try tracker.miniatures(ofProject: project.id).allSatisfy { $0.recipe_ids.isEmpty })
    }

    @Test func anUnknownIdCarriesItsRemedyAndNoCommand() throws {
        let (session, _) = try Self.opened()
        let tracker = Tracker(session: session)
        let error = try #require(throws: ShoeboxError.self) { try tracker.miniature("nope-nope") }
        #expect(error.code == .notFound && (error.remedy as? TrackerRemedy) == .listIDs(.miniature))
        #expect(!error.description.contains("shoebox"), "\(error)")
    }

    @Test func anAssetChangedSinceTheScanIsRefusedByTheSessionsOpenerAndNothingIsCopied() throws {
        let (session, root) = try Self.opened()
        let tracker = Tracker(session: session)
        let mini = try tracker.addMini(project: try tracker.addProject(gameSystem: "hh", army: "Word Bearers", name: nil).id,
                                       name: "Chaplain", type: .character)
        let asset = try Self.jpegAsset(session)
        // Another file of other contents put at its path since the scan.
        let url = root.appendingPathComponent(asset.path)
        let other = try Data(contentsOf: TestRoll.repositoryRoot.appendingPathComponent("test-data/photos/kite.jpg"))
        try FileManager.default.removeItem(at: url)
        try other.write(to: url)
        let error = try #require(throws: ShoeboxError.self) { try tracker.addPhoto(mini: mini.id, from: .asset(asset.id.rawValue)) }
        guard case .original(let path, let problem)? = error.cause else { Issue.record("cause: \(String(describing: error.cause))"); return }
        #expect(path == asset.path && problem == .changed)
        #expect((error.remedy as? LibraryRemedy) == .scan)
        #expect(try Self.photoCopies(root).isEmpty && tracker.miniature(mini.id).photo_ids.isEmpty)
    }

    @Test func aCopyLeftByAKilledChangeIsDeletedByTheNextWriteOfAnyKind() throws {
        let (session, root) = try Self.opened()
        let tracker = Tracker(session: session)
        let mini = try tracker.addMini(project: try tracker.addProject(gameSystem: "aos", army: "Seraphon", name: nil).id,
                                       name: "Saurus", type: .troop)
        let kept = try tracker.addPhoto(mini: mini.id, from: .asset(try Self.jpegAsset(session).path))
        // A kill between a copy and the save that records it leaves a copy no record names.
        let photos = root.appendingPathComponent("Tracker/photos")
        let stray = UUID().uuidString.lowercased() + ".jpg"
        try Data([0xFF, 0xD8, 0xFF]).write(to: photos.appendingPathComponent(stray))
        let before = try LibrarySession.doctor(session.library, features: [Tracker.feature])
        let warning = try #require(before.checks.first { $0.name == "tracker photos" })
        #expect(warning.status == .warning && (warning.remedy as? LibraryRemedy) == .scan && warning.fix == nil)

        // A scan is a write: the tracker's recovery runs first.
        _ = try session.scan()
        #expect(Self.photoCopies(root) == [String(kept.file.dropFirst("Tracker/photos/".count))])
        #expect(try LibrarySession.doctor(session.library, features: [Tracker.feature]).checks.allSatisfy { $0.name != "tracker photos" })
    }
}
