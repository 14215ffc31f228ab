// JPEG (`JPEGReader.read`, `JPEGReader.incompleteness`): Shoebox's marker walk, TurboJPEG's header
// read on the stream it assembles, APP1 EXIF/XMP/ExtendedXMP, and the search for the end marker.
@testable import Metadata
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let source = MemoryByteSource(Array(UnsafeBufferPointer(start: data, count: size)))
    _ = reading { try JPEGReader.read(source) }
    _ = JPEGReader.incompleteness(source)
    return 0
}
