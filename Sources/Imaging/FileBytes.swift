#if canImport(Glibc)
import Glibc
#endif

/// Reading an already-open descriptor with `fstat` and `pread` only: the caller opened it
/// confined to the library, and its offset may be shared with someone else.
enum FileBytes {
    static func size(_ fd: Int32, name: String) throws -> Int64 {
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            throw ImagingError(.io, name, "cannot stat: \(String(cString: strerror(errno)))")
        }
        return Int64(st.st_size)
    }

    /// The whole file, refused beyond `limit` bytes before reading.
    static func readAll(_ fd: Int32, name: String, limit: Int) throws -> [UInt8] {
        let size = try size(fd, name: name)
        guard size <= Int64(limit) else {
            throw ImagingError(.tooLarge, name, "\(size) bytes, over the \(limit)-byte limit for a still image")
        }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        var done = 0
        try bytes.withUnsafeMutableBytes { buf in
            while done < Int(size) {
                let n = pread(fd, buf.baseAddress! + done, Int(size) - done, off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw ImagingError(.io, name, "cannot read: \(String(cString: strerror(errno)))")
                }
                if n == 0 { break }  // shrank under us: decode what is there
                done += n
            }
        }
        if done < bytes.count { bytes.removeSubrange(done...) }
        return bytes
    }
}
