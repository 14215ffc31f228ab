import Composer
import Foundation
import PhotoLibrary
import TestSupport
import XCTest

/// `compose export` is all or nothing (issue 28): what it writes outside the library goes when
/// the save into the library cannot happen — a busy writer lock included — and the draft stays.
/// Run in-process through `StoryExport.run`, the one entry point every front end calls.
final class ComposerExportOutsideTests: XCTestCase {
    func testABusyLibraryLeavesNoFileOutsideAndTheDraft() throws {
        let c = try Composing.library()
        try c.ok(["add", "wide.jpg"])
        let library = Library(root: c.root)
        let session = try LibrarySession(library)
        let target = c.out.appendingPathComponent("story.heic").path
        let held = try LibraryLock(library: library)
        for save in [true, false] {
            XCTAssertThrowsError(try StoryExport.run(session, to: .file(target), save: save, lockTimeout: 0.3)) { error in
                XCTAssertEqual((error as? ShoeboxError)?.code, .locked, "\(error)")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: target), "save: \(save)")
        }
        withExtendedLifetime(held) {}
        XCTAssertEqual(try c.draft().count, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: c.out.path), [])
    }

    func testAFailedSaveTakesTheFileOutsideBack() throws {
        let c = try Composing.library()
        try c.ok(["add", "wide.jpg"])
        // Collages/ is a file: the save cannot be made.
        try Data("not a folder".utf8).write(to: c.file("Collages"))
        let target = c.out.appendingPathComponent("story.heic")
        let r = try c.cli.run(["compose", "export", "-o", target.path, "--save"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(r.stderrLines.count, 1, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path))
        XCTAssertEqual(try c.draft().count, 1)
        // With the way clear, the same command writes both and clears the draft.
        try FileManager.default.removeItem(at: c.file("Collages"))
        let done = try c.cli.json(["compose", "export", "-o", target.path, "--save"]) as! [String: Any]
        XCTAssertEqual(done["file"] as? String, target.path)
        XCTAssertNotNil(done["saved"] as? [String: Any])
        XCTAssertTrue(FileManager.default.fileExists(atPath: target.path))
        XCTAssertEqual(try c.draft().count, 0)
    }
}
