import Foundation
import Testing
import TestSupport

/// The watcher follows the library's layout rule (`LibraryLayout`) for folders that appear
/// while it runs, as the scan does.
@Suite(.serialized)
struct WatcherLayoutTests {
    @Test func aFolderFilledUnderAHiddenNameThenRenamedIntoPlaceIsWatched() throws {
        let w = try Watched.start()
        defer { w.stop() }
        // A download or sync tool fills a hidden staging folder, then renames it into place.
        try w.write(".staging-1/a.jpg", w.distinctJPEG(9100))
        try w.write(".staging-1/sub/b.jpg", w.distinctJPEG(9101))
        usleep(200_000)
        try w.rename(".staging-1", "Imported")
        try w.waitUntilIndexEqualsDisk()
        #expect(try w.id("Imported/a.jpg") != nil && w.id("Imported/sub/b.jpg") != nil)
        // The folder (and the one under it) is watched now: later drops are seen without a scan.
        try w.write("Imported/c.jpg", w.distinctJPEG(9102))
        try w.write("Imported/sub/d.jpg", w.distinctJPEG(9103))
        try w.waitUntilIndexEqualsDisk(timeout: 10)
        #expect(try w.id("Imported/c.jpg") != nil && w.id("Imported/sub/d.jpg") != nil)
    }

    @Test func aSavedCollageIsIndexedAndTrackerPhotosAreNot() throws {
        let w = try Watched.start()
        defer { w.stop() }
        try w.write("Collages/2026-11-22 Lisbon.jpg", w.distinctJPEG(9200))
        try w.write("Tracker/photos/mini.jpg", w.distinctJPEG(9201))
        try w.waitUntilIndexEqualsDisk()
        #expect(try w.id("Collages/2026-11-22 Lisbon.jpg") != nil)
        #expect(try w.id("Tracker/photos/mini.jpg") == nil)
    }
}
