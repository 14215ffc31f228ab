import Foundation
import Testing
import TestSupport
@testable import PhotoLibrary

/// `doctor` composed of the checks each subsystem provides: every finding under its own name,
/// in the order `doctor` has always printed them, on copies of the committed sample library.
@Suite(.serialized)
struct DoctorTests {
    static func statuses(_ report: DoctorReport) -> [String: DoctorReport.Status] {
        Dictionary(report.checks.map { ($0.name, $0.status) }, uniquingKeysWith: { a, _ in a })
    }

    @Test func aFreshlyScannedLibraryIsHealthyInTheUsualOrder() throws {
        let (library, _, roll, _) = try LibraryTests.scannedSample()
        let report = try library.doctor()
        #expect(report.checks.map(\.name)
            == ["owned folders", "config", "index", "sidecars", "permissions", "inotify", "disk space", "symlinks", "albums", "recently deleted"])
        let status = Self.statuses(report)
        for name in ["index", "sidecars", "permissions", "symlinks", "albums", "recently deleted"] {
            #expect(status[name] == .ok, "\(name): \(report.checks.first { $0.name == name }?.detail ?? "")")
        }
        #expect(report.checks.first { $0.name == "index" }?.detail.hasPrefix("\(roll.entries.count) files indexed,") == true)
    }

    /// One fault per subsystem: each is found by its own check, in its place, with its fix.
    @Test func eachSubsystemReportsItsOwnFault() throws {
        let (library, index, _, _) = try LibraryTests.scannedSample()
        let fm = FileManager.default
        // Writing: a sidecar lost, and a journal left by an interrupted scan.
        let someID = try #require(try index.allAssets().first?.id)
        try fm.removeItem(at: library.sidecarURL(for: someID))
        try Data("[]".utf8).write(to: ScanJournal(library: library).url)
        // Ingest: a file named like a photo that is not one.
        try Data("shopping list\n".utf8).write(to: library.url(for: "notes.jpg"))
        // Albums: a link that leads nowhere in a generated album.
        let album = try #require(try AlbumLinker(library: library, index: index).desired().first)
        try fm.createSymbolicLink(atPath: library.root.path + "/Albums/" + album.path + "/999 gone.jpg",
                                  withDestinationPath: String(repeating: "../", count: album.path.split(separator: "/").count + 1) + "nowhere.jpg")
        // Recently Deleted: a .trashinfo whose file is not there.
        let info = library.url(for: "Recently Deleted/info")
        try fm.createDirectory(at: info, withIntermediateDirectories: true)
        try Data("[Trash Info]\nPath=gone.jpg\nDeletionDate=2026-11-01T10:00:00\n".utf8)
            .write(to: info.appendingPathComponent("gone.jpg.trashinfo"))

        let report = try library.doctor()
        #expect(report.checks.map(\.name) == ["owned folders", "config", "index", "sidecars", "journal", "unindexable", "permissions", "inotify",
                                              "disk space", "symlinks", "albums", "recently deleted"])
        let status = Self.statuses(report)
        #expect(status["index"] == .ok)  // notes.jpg cannot be indexed: a scan would not help
        #expect(status["sidecars"] == .problem && status["journal"] == .warning && status["unindexable"] == .warning)
        #expect(status["albums"] == .problem && status["recently deleted"] == .problem)
        #expect(!report.healthy)
        let byName = Dictionary(report.checks.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byName["sidecars"]?.detail == "1 assets without a sidecar, 0 sidecars not in the index")
        #expect(byName["sidecars"]?.fix?.hasSuffix(" rebuild") == true)
        #expect(byName["unindexable"]?.detail.hasPrefix("1 file cannot be indexed (1 damaged or not photos: repair, convert or remove them): notes.jpg: ") == true)
        #expect(byName["albums"]?.detail == "1 album folders differ from the index, 1 links lead nowhere")
        #expect(byName["recently deleted"]?.detail.hasPrefix("1 .trashinfo files without their file, 0 trashed") == true)
    }
}
