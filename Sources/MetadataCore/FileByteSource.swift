import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A byte source over an open file descriptor, read with `pread` so that several readers
/// (metadata, completeness check) can share one descriptor without seeking.
/// The descriptor stays owned by the caller.
public struct FileByteSource: ByteSource {
    public let fd: Int32
    public let count: Int64

    public init(fd: Int32, size: Int64) {
        self.fd = fd
        self.count = size
    }

    public func read(at offset: Int64, length: Int) throws -> [UInt8] {
        guard offset >= 0, offset < count, length > 0 else { return [] }
        let want = Int(min(Int64(length), count - offset))
        var out = [UInt8](repeating: 0, count: want)
        var done = 0
        while done < want {
            let n = out.withUnsafeMutableBytes { buf in
                pread(fd, buf.baseAddress! + done, want - done, off_t(offset) + off_t(done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw MetadataError(.io, "read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }  // the file shrank while we read it
            done += n
        }
        if done < want { out.removeLast(want - done) }
        return out
    }
}
