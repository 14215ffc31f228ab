// `.trashinfo` files (`TrashInfo.parse`), which other tools write into Recently Deleted/info/,
// and the path validator every path read from a file goes through (`LibraryPath`).
// Checked besides "no crash": what parses renders and parses back to the same path and date
// (`Fuzz/run` sets TZ=UTC: in a zone with DST, a local time in the repeated hour is ambiguous).
import Foundation
@testable import PhotoLibrary

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    // The path validator (`LibraryPath`) on the raw bytes: whatever it accepts stays inside.
    let raw = String(decoding: bytes, as: UTF8.self)
    if LibraryPath.isValid(raw) {
        precondition(!raw.hasPrefix("/") && !raw.split(separator: "/", omittingEmptySubsequences: false)
            .contains { $0 == ".." || $0 == "." || $0.isEmpty }, "LibraryPath accepted \(raw.debugDescription)")
    }
    guard let info = try? TrashInfo.parse(bytes, root: "/library") else { return 0 }
    let rendered = info.render()
    guard let again = try? TrashInfo.parse(Data(rendered.utf8)) else {
        preconditionFailure("rendered .trashinfo does not parse: \(rendered.debugDescription)")
    }
    precondition(again == info, "round trip changed \(info) into \(again)")
    precondition(LibraryPath.isValid(info.path), "a parsed Path= leads out of the library: \(info.path.debugDescription)")
    return 0
}
