import Foundation
import Testing
@testable import PhotoLibrary
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
}
