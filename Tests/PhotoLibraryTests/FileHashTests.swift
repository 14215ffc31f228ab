import Foundation
import Testing
@testable import PhotoLibrary
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The SHA-256 of a file as a scan computes it (streamed through a 1 MiB buffer), checked against
/// `sha256sum`.
struct FileHashTests {
    static func sha256sum(_ path: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        p.arguments = [path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }

    static func hash(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY)
        #expect(fd >= 0)
        defer { close(fd) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 4096)
        defer { buffer.deallocate() }
        return try FileProbe.sha256(fd: fd, buffer: buffer)
    }

    /// Sizes around a page and around the read buffer (a file read in one, two and many reads).
    @Test(arguments: [1, 4095, 4096, 4097, 1 << 20, (1 << 20) + 1, 5_234_567])
    func hashMatchesSha256sum(size: Int) throws {
        let dir = try ScratchFolder()
        defer { dir.remove() }
        var bytes = Data(count: size)
        var state = UInt64(size) &* 0x9E37_79B9_7F4A_7C15 | 1
        bytes.withUnsafeMutableBytes { raw in
            for i in 0..<raw.count {  // xorshift: distinct bytes at every offset, fast in a debug build
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                raw[i] = UInt8(truncatingIfNeeded: state)
            }
        }
        let path = dir.path + "/photo.jpg"
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(try FileHashTests.hash(path) == FileHashTests.sha256sum(path))
    }

    /// Real photos of the repository (the largest, 1.2 MB, takes two reads of the 1 MiB buffer) and
    /// an empty file: what a scan stores is what `sha256sum` prints.
    static let realFiles = ["test-data/photos/path.jpg", "test-data/photos/milkyway.jpg",
                            "test-data/people/LICENSES/dlib-examples-public-domain.txt",
                            "sample-library/2026/2026-10 Honolulu/IMG_0485.JPG"]

    @Test(arguments: realFiles)
    func aRealFileHashesAsSha256sumHashesIt(relative: String) throws {
        let path = TestRoll.repositoryRoot.appendingPathComponent(relative).path
        #expect(try FileHashTests.hash(path) == FileHashTests.sha256sum(path))
    }

    @Test func anEmptyFileHashesAsSha256sumHashesIt() throws {
        let dir = try ScratchFolder()
        defer { dir.remove() }
        let path = dir.path + "/empty.jpg"
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let expected = try FileHashTests.sha256sum(path)
        #expect(expected == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(try FileHashTests.hash(path) == expected)
        #expect(SHA256Hasher.hex(of: [UInt8]()) == expected)
    }

    /// The 1.2 MB photo fed in uneven pieces (a slice, `Data`, raw bytes), in one call, and again
    /// through the same hasher after a finalize: one digest, `sha256sum`'s.
    @Test func piecesOneCallAndAReusedHasherGiveOneDigest() throws {
        let path = TestRoll.repositoryRoot.appendingPathComponent(Self.realFiles[3]).path
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count > 1 << 20)
        let expected = try FileHashTests.sha256sum(path)
        let hasher = SHA256Hasher()
        for round in 0..<2 {
            var start = 0, piece = 1
            while start < bytes.count {
                let end = min(bytes.count, start + piece)
                switch piece % 3 {
                case 0: hasher.update(bytes[start..<end])
                case 1: hasher.update(Data(bytes[start..<end]))
                default: bytes[start..<end].withUnsafeBytes { hasher.update($0) }
                }
                start = end
                piece = piece * 7 + round + 1
            }
            #expect(hasher.finalize() == expected)
        }
        #expect(SHA256Hasher.hex(of: bytes) == expected)
    }
}
