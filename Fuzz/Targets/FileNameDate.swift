// Dates in file names (`FileNameDate.parse`): IMG_20230514_123456, "Screenshot 2024-05-01 at 10.11.12" …
// The input is the file name (any bytes: Linux file names need not be UTF-8).
@testable import Metadata

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let name = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let d = FileNameDate.parse(name) {
        _ = d.iso8601
        _ = d.year
    }
    return 0
}
