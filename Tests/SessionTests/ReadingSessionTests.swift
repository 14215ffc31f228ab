import Foundation
import GRDB
import Testing
import TestSupport
@testable import PhotoLibrary
@testable import Tidy

/// A session opened for reading (`LibrarySession(…, forReading: true)`, what `list`, `show`,
/// `album list`… open): it reads what a writing session reads and writes nothing to the index —
/// unless the index must be migrated first, or the session writes.
@Suite(.serialized)
struct ReadingSessionTests {
    /// A scanned private copy of the sample library, its index closed (as after `shoebox scan`).
    static func scannedSample(features: [LibraryFeature] = []) throws -> Library {
        let copy = try TestRoll.sampleCopy()
        let library = try Library.initialize(at: copy.root)
        _ = try LibrarySession(library, features: features).scan()
        return library
    }

    /// The index's bytes, its modification time and which of its -wal and -shm files exist.
    static func indexFiles(_ library: Library) throws -> (bytes: Data, mtime: Date, others: [String]) {
        let path = library.indexURL.path
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let others = ["-wal", "-shm"].filter { FileManager.default.fileExists(atPath: path + $0) }
        return (try Data(contentsOf: library.indexURL), try #require(attributes[.modificationDate] as? Date), others)
    }

    static func migrations(_ library: Library) throws -> [String] {
        try DatabaseQueue(path: library.indexURL.path).read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
        }
    }

    @Test func aReadingSessionReadsWhatAWritingOneReadsAndWritesNothing() throws {
        let library = try Self.scannedSample(features: [Tidy.feature])
        let expected = try LibrarySession(library, features: [Tidy.feature]).read { try $0.allAssets() }
        let before = try Self.indexFiles(library)
        #expect(before.others.isEmpty, "a closed index has no -wal or -shm: \(before.others)")
        Thread.sleep(forTimeInterval: 0.02)  // a write now would show in the modification time
        do {
            let session = try LibrarySession(library, features: [Tidy.feature], forReading: true)
            #expect(try session.read { try $0.allAssets() } == expected)
            #expect(try session.read { try $0.count(state: .present) } == expected.filter { $0.state == .present }.count)
        }
        let after = try Self.indexFiles(library)
        #expect(after.bytes == before.bytes, "the index's bytes changed")
        #expect(after.mtime == before.mtime, "the index was written")
        #expect(after.others.isEmpty, "left behind: \(after.others)")
    }

    @Test func anIndexBehindTheSchemaIsMigratedBeforeItIsRead() throws {
        // Scanned without Tidy: its index on the decision field was never made.
        let library = try Self.scannedSample()
        #expect(!(try Self.migrations(library)).contains { $0.contains("decision") })
        let expected = try LibrarySession(library).read { try $0.allAssets() }
        do {
            let session = try LibrarySession(library, features: [Tidy.feature], forReading: true)
            #expect(try session.read { try $0.allAssets() } == expected)
        }
        let migrated = try Self.migrations(library)
        #expect(migrated.contains { $0.contains("decision") }, "\(migrated)")
        #expect(try Self.indexFiles(library).others.isEmpty)
    }

    @Test func anIndexOfAnOlderShoeboxIsMigratedBeforeItIsRead() throws {
        let library = try Self.scannedSample()
        let expected = try LibrarySession(library).read { try $0.allAssets() }
        // As an index made before the perceptual hash had its own column (migration v6).
        try DatabaseQueue(path: library.indexURL.path).write { db in
            try db.execute(sql: "ALTER TABLE asset DROP COLUMN phash; DELETE FROM grdb_migrations WHERE identifier = 'v6'")
        }
        let session = try LibrarySession(library, forReading: true)
        #expect(try session.read { try $0.allAssets() } == expected)
        #expect(try session.read { index in try index.read { db in try db.columns(in: "asset").contains { $0.name == "phash" } } })
        #expect(try Self.migrations(library).contains("v6"))
    }

    @Test func aWriteInAReadingSessionIsSeenByItsNextReads() throws {
        let library = try Self.scannedSample()
        let session = try LibrarySession(library, forReading: true)
        let photo = try #require(try session.read { try $0.assets(matching: AssetQuery()) }.first { $0.kind == .photo })
        let present = try session.read { try $0.count(state: .present) }
        _ = try session.write { w in try w.trash.trash([photo]) { Issue.record("trash failed: \($0)") } }
        #expect(try session.read { try $0.asset(id: photo.id)?.state } == .trashed)
        #expect(try session.read { try $0.count(state: .present) } < present)
        // And another process's next read (a new session) sees it as well.
        #expect(try LibrarySession(library, forReading: true).read { try $0.asset(id: photo.id)?.state } == .trashed)
    }
}
