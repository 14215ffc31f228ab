// Camera raw files through LibRaw (`RAWReader.read` from memory, `libraw_open_buffer`), their
// embedded preview (`RAWPreview.jpeg`), and the whole read as a scan does it for a file named .dng (TIFF-based raws are chosen by name).
// LibRaw itself is Debian's build, not instrumented: coverage guides through Shoebox's side,
// AddressSanitizer still sees what LibRaw does to the buffer handed to it.
@testable import Metadata
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let source = MemoryByteSource(bytes)
    if let m = reading({ try RAWReader.read(source) }) {
        _ = (m.takenAt?.iso8601, m.uprightWidth, m.uprightHeight, m.gps)
    }
    if let jpeg = reading({ try RAWPreview.jpeg(source) }) {
        _ = jpeg?.count
    }
    if let m = reading({ try MetadataReader.read(source, fileName: "fuzz.dng") }) {
        _ = (m.rawType, m.takenAt?.iso8601)
    }
    return 0
}
