// The small text parsers behind EXIF, XMP and QuickTime values: EXIF dates with sub-seconds and
// offsets, ISO 8601, UTC offsets, ISO 6709 positions, XMP GPS degrees. The input is up to three
// NUL-separated strings (EXIF date, SubSecTime, OffsetTime); the others read it whole.
@testable import Metadata
@testable import MetadataCore  // DateText, ISO6709 and the sniff live in the codec-free core

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parts = text.split(separator: "\0", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
    let exif = DateText.exif(parts[0], subSeconds: parts.count > 1 ? parts[1] : nil,
                             offset: parts.count > 2 ? parts[2] : nil)
    _ = exif?.iso8601
    _ = exif?.year
    _ = DateText.iso8601(text, source: .xmp)?.iso8601
    _ = DateText.utcOffset(text)
    _ = DateText.milliseconds(fraction: text)
    _ = ISO6709.parse(text)
    _ = XMP.xmpDegrees(text)
    return 0
}
