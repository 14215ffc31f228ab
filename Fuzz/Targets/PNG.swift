// PNG (`PNGReader.read`, `PNGReader.incompleteness`): Shoebox's chunk walk, libpng's simplified API
// on the header it assembles, and the eXIf/iTXt XMP chunks handed on to libexif and XMLParser.
@testable import Metadata
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let source = MemoryByteSource(Array(UnsafeBufferPointer(start: data, count: size)))
    _ = reading { try PNGReader.read(source) }
    _ = PNGReader.incompleteness(source)
    return 0
}
