// The curation list file (`.shoebox/curation.json`, decoded by `CurationState.decode`). Checked
// besides "no crash": every error is a `ShoeboxError` of one line, and what decodes encodes
// back to bytes that decode to the same list (ids once each, the selection inside the list).
import Foundation
import Curation
import PhotoLibrary

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let state: CurationState
    do {
        state = try CurationState.decode(bytes)
    } catch let e as ShoeboxError {
        precondition(!e.description.contains("\n"), "a damaged list must be said in one line: \(e.description.debugDescription)")
        return 0
    } catch {
        preconditionFailure("CurationState.decode threw a non-Shoebox error: \(error)")
    }
    precondition(Set(state.items).count == state.items.count, "an id listed twice")
    precondition(state.selected.isSubset(of: Set(state.items)), "a selected id outside the list")
    let again = try? CurationState.decode(state.encoded())
    precondition(again == state, "the list does not survive its own encoding")
    return 0
}
