import Analysis
import Foundation
import Memories
import PhotoLibrary
import Testing
import TestSupport

/// Memories' main flow through the session layer alone, as the web server will drive it: the
/// sources of the analysed sample library, a collage of a year (read, decoded, no lock), and its
/// save into `Collages/`, where it is indexed — in-process, no CLI type, no subprocess.
@Suite(.serialized)
struct MemoriesSessionFlowTests {
    /// A scanned copy of the sample library, analysed in-process (scores, faces, previews).
    static func analysedSample() throws -> (LibrarySession, URL) {
        let copy = try TestRoll.sampleCopy()
        let session = try LibrarySession(try Library.initialize(at: copy.root), features: [])
        _ = try session.scan()
        let runner = AnalysisRunner(writer: session.writer) { try PixelAnalyzer() }
        let report = try runner.run(withWriterLock: session.lockedSection())
        #expect(report.analysed > 0 && report.left == 0, "analysed \(report.analysed), left \(report.left)")
        return (session, copy.root)
    }

    /// Width and height of a JPEG, as ImageMagick reads it.
    static func size(_ jpeg: URL) throws -> String {
        try TestRoll.run("/usr/bin/identify", ["-format", "%w×%h %m", jpeg.path]).stdout
    }

    @Test func aCollageOfAYearIsSavedIntoCollagesAndIndexed() throws {
        let (session, root) = try Self.analysedSample()
        let memories = Memories(session: session)
        let sources = try memories.sources()
        let year = try #require(sources.years.max { $0.count < $1.count })
        #expect(year.count >= 6, "\(sources.years.map { ($0.year, $0.count) })")

        let collage = try memories.collage(of: .year(year.year), seed: 1)
        #expect(collage.cells.count == 6 && Set(collage.cells.map(\.asset.id)).count == 6)
        #expect(collage.cells.allSatisfy { $0.asset.year == year.year && !$0.asset.path.hasPrefix("Collages/") })
        // The same seed, the same collage; nothing was written by making it.
        #expect(try memories.collage(of: .year(year.year), seed: 1).jpeg == collage.jpeg)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Collages").path))

        let saved = try memories.save(collage)
        #expect(saved.path.hasPrefix("Collages/\(year.year) ") && saved.path.hasSuffix(".jpg"), "\(saved.path)")
        let file = root.appendingPathComponent(saved.path)
        #expect(try Data(contentsOf: file) == Data(collage.jpeg))
        #expect(try Self.size(file) == "1200×1500 JPEG")
        let indexed = try #require(try session.read { try $0.asset(id: saved.id) })
        #expect(indexed.path == saved.path && indexed.state == .present)

        // A saved collage is not a photo a memory shows: the year counts the same.
        #expect(try memories.sources().years.first { $0.year == year.year }?.count == year.count)
        let doctor = try LibrarySession.doctor(session.library, features: [])
        #expect(doctor.healthy, "\(doctor.checks.filter { $0.status != .ok }.map(\.detail))")
    }

    @Test func anEmptyYearCarriesItsRemedyAndNoCommand() throws {
        let copy = try TestRoll.sampleCopy()
        let session = try LibrarySession(try Library.initialize(at: copy.root), features: [])
        _ = try session.scan()
        let error = try #require(throws: ShoeboxError.self) { try Memories(session: session).collage(of: .year(1999), seed: 1) }
        #expect(error.description == "No photos from 1999" && (error.remedy as? MemoriesRemedy) == .listYears)
    }
}
