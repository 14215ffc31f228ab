// SHA-256 of one file through `SHA256Hasher`, read as a scan reads it (1 MiB `pread`s), for
// bench/build.py's throughput row beside `sha256sum`. Prints "HEX SECONDS".
//   hash-bench FILE
import Foundation
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: hash-bench FILE\n".utf8))
    exit(2)
}
let path = CommandLine.arguments[1]
let fd = open(path, O_RDONLY)
guard fd >= 0 else {
    FileHandle.standardError.write(Data("hash-bench: \(path): \(String(cString: strerror(errno)))\n".utf8))
    exit(1)
}
let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 4096)
let start = DispatchTime.now().uptimeNanoseconds
let hasher = SHA256Hasher()
var offset: off_t = 0
while true {
    let n = pread(fd, buffer.baseAddress!, buffer.count, offset)
    if n < 0 && errno == EINTR { continue }
    guard n >= 0 else {
        FileHandle.standardError.write(Data("hash-bench: \(path): \(String(cString: strerror(errno)))\n".utf8))
        exit(1)
    }
    if n == 0 { break }
    hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
    offset += off_t(n)
}
let hex = hasher.finalize()
let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
print(hex, String(format: "%.4f", seconds))
