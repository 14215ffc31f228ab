import Foundation
import Testing
@testable import Metadata
import TestSupport

/// Issue 14: the JPEG a raw file carries for the analysis pipeline, on DNGs made by
/// `scripts/make-dng` (pidng), one with a preview IFD as cameras write it, one raw-only.
@Suite("raw files' embedded preview", .enabled(if: ExiftoolFiles.available))
struct RAWPreviewTests {
    let dir: URL
    init() throws { dir = try ExiftoolFiles.folder() }

    func dng(_ name: String, _ args: [String] = []) throws -> URL {
        let venv = ProcessInfo.processInfo.environment["SHOEBOX_TOOLS"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/shoebox-tools").path
        let out = dir.appendingPathComponent(name)
        try TestRoll.run(venv + "/pidng/bin/python", [TestRoll.repositoryRoot.appendingPathComponent("scripts/make-dng").path,
                                                      TestRoll.repositoryRoot.appendingPathComponent("test-data/photos/coffee.jpg").path,
                                                      out.path] + args)
        return out
    }

    func preview(_ url: URL) throws -> [UInt8]? {
        let fd = open(url.path, O_RDONLY)
        #expect(fd >= 0)
        defer { close(fd) }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        return try RAWPreview.jpeg(FileByteSource(fd: fd, size: Int64(size)))
    }

    @Test("a DNG's JPEG preview comes back whole, at its size, from the file and from memory")
    func previewOfADNG() throws {
        let url = try dng("preview.dng", ["--preview=160x120"])
        let jpeg = try #require(try preview(url))
        #expect(jpeg.starts(with: [0xFF, 0xD8]) && jpeg.suffix(2).elementsEqual([0xFF, 0xD9]))
        let m = try MetadataReader.read(MemoryByteSource(jpeg), fileName: "preview.jpg")
        #expect(m.format == .jpeg && m.pixelWidth == 160 && m.pixelHeight == 120)
        #expect(try RAWPreview.jpeg(MemoryByteSource(try bytes(url))) == jpeg)
        // Byte for byte what exiftool extracts: the camera's JPEG, nothing added.
        _ = try TestRoll.run(try #require(ExiftoolFiles.exiftool), ["-q", "-b", "-PreviewImage", "-w", "%d%f.exiftool.jpg", url.path])
        let exiftool = try bytes(dir.appendingPathComponent("preview.exiftool.jpg"))
        #expect(jpeg.count == exiftool.count && jpeg == exiftool)
        // The raw itself is still the photo: its size is the sensor's, not the preview's.
        #expect(try readMetadata(url).pixelWidth == 320)
    }

    @Test("a raw-only DNG has no preview")
    func rawOnly() throws {
        #expect(try preview(try dng("raw-only.dng")) == nil)
    }

    @Test("a preview whose bytes were overwritten is one clear error, a cut file too")
    func damaged() throws {
        var b = try bytes(try dng("damaged.dng", ["--preview=160x120"]))
        let jpeg = try #require(try RAWPreview.jpeg(MemoryByteSource(b)))
        let at = try #require((0..<(b.count - 2)).last { b[$0] == 0xFF && b[$0 + 1] == 0xD8 && b[$0 + 2] == 0xFF })
        b.replaceSubrange(at..<(at + 16), with: [UInt8](repeating: 0, count: 16))
        #expect(jpeg.count > 1000)
        let error = #expect(throws: MetadataError.self) { _ = try RAWPreview.jpeg(MemoryByteSource(b)) }
        #expect(error?.code == .corrupt && error?.message.contains("embedded preview") == true)
        #expect(throws: MetadataError.self) { _ = try RAWPreview.jpeg(MemoryByteSource(Array(b.prefix(200)))) }
    }
}
