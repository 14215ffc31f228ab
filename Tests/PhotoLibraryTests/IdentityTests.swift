import Foundation
import Testing
@testable import PhotoLibrary

/// `FileIdentity.resolve` and `KnownFiles`: the rules scan and watch share for what a freshly
/// read file is. Pure: no files, no index.
struct IdentityTests {
    static func record(_ id: String, _ path: String, _ state: AssetState, sha: String, firstSeen: Double = 1,
                       inode: UInt64 = 1) -> Index.FileRecord {
        Index.FileRecord(id: AssetID(trusted: id), path: path, state: state, size: 10, mtimeNS: 5, inode: inode,
                         sha256: sha, firstSeen: firstSeen)
    }

    static func resolve(_ path: String, _ sha: String, _ records: [Index.FileRecord], gone: Set<String> = [],
                        claimed: Set<String> = [], allowTrashed: Bool = true) -> (FileIdentity, String?) {
        let (identity, displaced) = FileIdentity.resolve(
            path: path, sha256: sha, in: KnownFiles(records), claimed: Set(claimed.map(AssetID.init(trusted:))),
            allowTrashed: allowTrashed) { gone.contains($0.path) }
        return (identity, displaced?.rawValue)
    }

    @Test func aTouchedFileIsTheSameAssetAndNotEdited() {
        let (identity, displaced) = Self.resolve("a.jpg", "s1", [Self.record("A", "a.jpg", .present, sha: "s1")])
        #expect(identity == .samePath(AssetID(trusted: "A"), edited: false))
        #expect(displaced == nil)
    }

    @Test func anEditInPlaceKeepsTheId() {
        let (identity, _) = Self.resolve("a.jpg", "s2", [Self.record("A", "a.jpg", .present, sha: "s1")])
        #expect(identity == .samePath(AssetID(trusted: "A"), edited: true))
    }

    @Test func contentWhoseFileVanishedIsAMove() {
        let records = [Self.record("A", "old/a.jpg", .present, sha: "s1")]
        let (identity, _) = Self.resolve("new/a.jpg", "s1", records, gone: ["old/a.jpg"])
        #expect(identity == .found(AssetID(trusted: "A"), was: .vanished))
        // The same content while the first file is still there is a copy: a new asset.
        #expect(Self.resolve("new/a.jpg", "s1", records).0 == .new)
    }

    @Test func aFileMovedOverAnotherDisplacesIt() {
        let records = [Self.record("A", "a.jpg", .present, sha: "s1"), Self.record("B", "b.jpg", .present, sha: "s2")]
        // `mv b.jpg a.jpg`: a.jpg now holds B's content and b.jpg is gone.
        let (identity, displaced) = Self.resolve("a.jpg", "s2", records, gone: ["b.jpg"])
        #expect(identity == .found(AssetID(trusted: "B"), was: .vanished))
        #expect(displaced == "A")
    }

    @Test func missingContentReturnsNewestFirstAndTrashedOnlyWhenAllowed() {
        let records = [Self.record("OLD", "x.jpg", .missing, sha: "s1", firstSeen: 10),
                       Self.record("NEW", "y.jpg", .missing, sha: "s1", firstSeen: 20),
                       Self.record("T", "z.jpg", .trashed, sha: "s3")]
        #expect(Self.resolve("w.jpg", "s1", records).0 == .found(AssetID(trusted: "NEW"), was: .missing))
        #expect(Self.resolve("w.jpg", "s1", records, claimed: ["NEW"]).0 == .found(AssetID(trusted: "OLD"), was: .missing))
        #expect(Self.resolve("w.jpg", "s1", records, claimed: ["NEW", "OLD"]).0 == .new)
        #expect(Self.resolve("w.jpg", "s3", records).0 == .found(AssetID(trusted: "T"), was: .trashed))
        #expect(Self.resolve("w.jpg", "s3", records, allowTrashed: false).0 == .new)
    }

    @Test func aVanishedFileIsPreferredToAMissingOne() {
        let records = [Self.record("M", "m.jpg", .missing, sha: "s1", firstSeen: 99),
                       Self.record("V", "v.jpg", .present, sha: "s1", firstSeen: 1)]
        #expect(Self.resolve("n.jpg", "s1", records, gone: ["v.jpg"]).0 == .found(AssetID(trusted: "V"), was: .vanished))
    }

    @Test func knownFilesFollowCommittedChanges() throws {
        var known = KnownFiles([Self.record("A", "a.jpg", .present, sha: "s1")])
        var asset = try #require(LibraryFixtures.asset(id: "A", path: "a.jpg", sha: "s1"))
        asset.path = "b.jpg"
        known.update(with: [asset])
        #expect(known.present(at: "a.jpg") == nil)
        #expect(known.present(at: "b.jpg")?.id.rawValue == "A")
        asset.state = .missing
        known.update(with: [asset])
        #expect(known.present(at: "b.jpg") == nil)
        #expect(known.bySHA["s1"] == [AssetID(trusted: "A")])
        known.forget([asset.id])
        #expect(known.bySHA["s1"] == nil && known.byID.isEmpty)
    }
}
