// `.shoebox/config.toml` (`LibrarySettings.parse`, the TOML subset reader), given text as
// `LibrarySettings.load` gives it: only valid UTF-8 gets that far.
@testable import PhotoLibrary

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    _ = try? LibrarySettings.parse(text)
    return 0
}
