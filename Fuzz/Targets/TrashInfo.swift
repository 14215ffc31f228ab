// `.trashinfo` files (`TrashInfo.parse`), which other tools write into Recently Deleted/info/.
// Checked besides "no crash": what parses renders and parses back to the same path and date
// (`Fuzz/run` sets TZ=UTC: in a zone with DST, a local time in the repeated hour is ambiguous).
import Foundation
@testable import PhotoLibrary

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let info = try? TrashInfo.parse(bytes, root: "/library") else { return 0 }
    let rendered = info.render()
    guard let again = try? TrashInfo.parse(Data(rendered.utf8)) else {
        preconditionFailure("rendered .trashinfo does not parse: \(rendered.debugDescription)")
    }
    precondition(again == info, "round trip changed \(info) into \(again)")
    return 0
}
