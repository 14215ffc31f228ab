// XMP packets (`XMP.properties`, `XMP.fields`): libxml2's SAX2 parser (`XMPTree`) under Shoebox's
// limits on size, depth and nodes, then the RDF walk (persons, face regions, places, dates, GPS).
@testable import Metadata

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let packet = Array(UnsafeBufferPointer(start: data, count: size))
    if let props = XMP.properties(packet) {
        _ = XMP.extendedGUID(props)
        let f = XMP.fields(props)
        _ = f.takenAt?.iso8601
    }
    return 0
}
