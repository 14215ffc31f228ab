// `.trashinfo` files (`TrashInfo.parse`, and `parseStated` + `place` as another tool's item is
// read), which other tools write into Recently Deleted/info/, and the path validator every path
// read from a file goes through (`LibraryPath`).
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
    // What a foreign tool's `Path=` is placed as (absolute under either of the library's
    // folders, else relative): inside, whatever the bytes.
    if let stated = try? TrashInfo.parseStated(bytes),
       let placed = try? TrashInfo.place(stated.path, roots: ["/library", "/mnt/real/library/"]) {
        precondition(LibraryPath.isValid(placed), "a placed Path= leads out of the library: \(placed.debugDescription)")
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
