import Foundation
import Testing
@testable import PhotoLibrary

/// A first scan's walk held compactly (`WalkedFiles`, issue 33) gives back each file as it was
/// found, and the photos read again for a changed XMP sidecar join it in walk order, so the
/// scan reads every file once and in the index's order.
struct WalkedFilesTests {
    static func entry(_ path: String, inode: UInt64) -> LibraryWalker.Entry {
        var st = stat()
        st.st_size = Int(inode) * 100
        st.st_ino = __ino_t(inode)
        st.st_mode = S_IFREG | 0o644
        return LibraryWalker.Entry(path: path, stat: FileStat(st))
    }

    @Test func eachFileComesBackAsItWasFoundNamesOfEveryKindIncluded() {
        let found = ["2024/a.jpg", "2024/Été à Paris/ß €.heic", "2024/日本/写真.jpg", "2025/\u{1F4F7}.jpg", "x"]
            .enumerated().map { Self.entry($0.element, inode: UInt64($0.offset + 1)) }
        let walked = WalkedFiles(found)
        #expect(walked.count == found.count)
        #expect(walked.map(\.path) == found.map(\.path))
        #expect(walked.map(\.stat) == found.map(\.stat))
    }

    @Test func photosReadAgainJoinTheListInWalkOrder() {
        let walked = WalkedFiles(["2024/b.jpg", "2024/d.jpg", "2025/f.jpg"].enumerated().map { Self.entry($0.element, inode: UInt64($0.offset + 1)) })
        let again = ["2023/z.jpg", "2024/c.jpg", "2026/a.jpg"].enumerated().map { Self.entry($0.element, inode: UInt64($0.offset + 10)) }
        let merged = walked.merging(again)
        #expect(merged.map(\.path) == ["2023/z.jpg", "2024/b.jpg", "2024/c.jpg", "2024/d.jpg", "2025/f.jpg", "2026/a.jpg"])
        #expect(merged.first { $0.path == "2024/c.jpg" }?.stat.inode == 11)
        #expect(WalkedFiles().merging(again).map(\.path) == again.map(\.path))
    }
}
