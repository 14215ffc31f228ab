// The whole of what a scan does with a file's bytes (`MetadataReader.read`): format sniffing, the
// reader for that format, the merge of EXIF/XMP/container values, then `incompleteness`.
// Checked besides "no crash" (FuzzSupport): every failure is a MetadataError of one line of
// printable text, as the scan prints it on stderr next to the file's name.
@testable import Metadata
@testable import MetadataCore  // DateText, ISO6709 and the sniff live in the codec-free core
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let source = MemoryByteSource(bytes)
    if let m = reading({ try MetadataReader.read(source, fileName: "fuzz") }) {
        _ = m.takenAt?.iso8601
        _ = (m.uprightWidth, m.uprightHeight, m.hasCameraMetadata)
    }
    if let format = MetadataReader.sniff(Array(bytes.prefix(MetadataReader.sniffLength))) {
        _ = MetadataReader.incompleteness(source, format: format)
    }
    return 0
}
