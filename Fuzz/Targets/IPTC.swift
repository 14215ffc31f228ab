// IPTC-IIM through libiptcdata (`IPTC.parse(photoshop:)`): the input is what follows
// "Photoshop 3.0\0" in a JPEG APP13 segment (8BIM image resources, libiptcdata finding 0x0404
// among them), and the same bytes as IIM data sets directly (`IPTC.parse(iim:)`).
@testable import Metadata

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for f in [IPTC.parse(photoshop: IPTC.photoshopSignature + bytes), IPTC.parse(iim: bytes)] {
        if let f { _ = f.takenAt?.iso8601; _ = f.takenAt?.year }
    }
    return 0
}
