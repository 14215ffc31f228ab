// EXIF through libexif (`EXIF.parse`): the input is the TIFF data that follows "Exif\0\0", as a
// JPEG APP1 segment, a PNG eXIf chunk or a HEIC Exif item hands it over.
@testable import Metadata

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let block = EXIF.header + Array(UnsafeBufferPointer(start: data, count: size))
    if let f = EXIF.parse(block) { _ = f.takenAt?.iso8601 }
    return 0
}
