// MP4/MOV (`ISOBMFF.readVideo`, `ISOBMFF.incompleteness`): the box walk, mvhd/tkhd/hdlr, Apple's
// keys/ilst metadata, udta (©xyz ISO 6709 positions, ©mak …).
@testable import Metadata
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let source = MemoryByteSource(Array(UnsafeBufferPointer(start: data, count: size)))
    if let m = reading({ try ISOBMFF.readVideo(source, format: .mov) }) { _ = m.takenAt?.iso8601 }
    _ = ISOBMFF.incompleteness(source, format: .mp4)
    return 0
}
