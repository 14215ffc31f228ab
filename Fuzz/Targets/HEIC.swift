// HEIC (`HEIFReader.read`): Shoebox's top-level box walk, libheif reading through Shoebox's
// heif_reader callbacks (with the mdat probing pattern and the real-read fallback), and the
// Exif/XMP items handed on to libexif and XMLParser; then the completeness check.
@testable import Metadata
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let source = MemoryByteSource(Array(UnsafeBufferPointer(start: data, count: size)))
    _ = reading { try HEIFReader.read(source) }
    _ = ISOBMFF.incompleteness(source, format: .heic)
    return 0
}
