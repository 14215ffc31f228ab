import Foundation
import Testing
@testable import PhotoLibrary
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A scan's workers read each file below the library's descriptor: a folder replaced by a link
/// after the walk (a sync client, a script, another user of a shared disk) is not read through.
@Suite("A scanned file is read only inside the library")
struct ProbeConfinementTests {
    @Test func aFolderSwappedForALinkAfterTheWalkIsNotReadThrough() throws {
        let dir = try ScratchFolder()
        defer { dir.remove() }
        let fm = FileManager.default
        let root = URL(fileURLWithPath: dir.path + "/lib")
        let outside = dir.path + "/outside"
        try fm.createDirectory(atPath: root.path + "/inside", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let photo = TestRoll.repositoryRoot.appendingPathComponent("test-data/photos/path.jpg").path
        try fm.copyItem(atPath: photo, toPath: root.path + "/inside/a.jpg")
        try fm.copyItem(atPath: photo, toPath: outside + "/a.jpg")
        let library = try Library.initialize(at: root)
        let probe = FileProbe(library: library, now: Date())
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 4096)
        defer { buffer.deallocate() }

        // Where the walk saw it: read and hashed as `sha256sum` hashes it.
        guard case .indexed(let read) = probe.probe("inside/a.jpg", buffer: buffer) else {
            Issue.record("the photo inside the library was not read")
            return
        }
        #expect(read.sha256 == (try FileHashTests.sha256sum(photo)))

        // The folder moved away and a link to the outside folder put at its name: refused.
        try fm.moveItem(atPath: root.path + "/inside", toPath: root.path + "/moved")
        #expect(symlink(outside, root.path + "/inside") == 0)
        let throughFolder = probe.probe("inside/a.jpg", buffer: buffer)
        guard case .failed(let problem) = throughFolder else {
            Issue.record("read through a link to \(outside): \(throughFolder)")
            return
        }
        #expect(problem.reason == FileProbe.linkOnTheWay)

        // A link where the file was: refused too.
        #expect(symlink(outside + "/a.jpg", root.path + "/moved/b.jpg") == 0)
        guard case .failed(let leaf) = probe.probe("moved/b.jpg", buffer: buffer) else {
            Issue.record("read through a link at the file's own name")
            return
        }
        #expect(leaf.reason == FileProbe.linkOnTheWay)
        // The file that stayed inside, under its folder's new name, is still read.
        guard case .indexed = probe.probe("moved/a.jpg", buffer: buffer) else {
            Issue.record("the photo in the renamed folder was not read")
            return
        }
    }
}
