// Tidy's session files: `.shoebox/tidy.json` (`TidyState.decode`) and `.shoebox/tidy-<session>.list`
// (`TidyList`), the first byte choosing which. Checked besides "no crash": every error is a
// `ShoeboxError` of one line; a state that decodes encodes back to the same state; every line of
// a list that reads gives an item or nil (never a trap), with ids once each in a group.
import Foundation
import PhotoLibrary
import Tidy

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let bytes = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if data[0] & 1 == 0 {
        let state: TidyState
        do {
            state = try TidyState.decode(bytes)
        } catch let e as ShoeboxError {
            precondition(!e.description.contains("\n"), "a damaged session must be said in one line: \(e.description.debugDescription)")
            return 0
        } catch {
            preconditionFailure("TidyState.decode threw a non-Shoebox error: \(error)")
        }
        precondition(state.position <= state.items && state.positionAssets <= state.totalAssets, "a position outside the list")
        let again = try? TidyState.decode(state.encoded())
        precondition(again == state, "the session does not survive its own encoding")
        return 0
    }
    guard let list = TidyList(bytes) else { return 0 }
    for n in 0..<min(list.count, 10_000) {
        guard let item = list.item(at: n) else { continue }
        precondition(Set(item.members).count == item.members.count, "an id twice in one item")
        precondition(list.memberCount(at: n) == item.members.count, "line \(n): counted \(list.memberCount(at: n)) members, read \(item.members.count)")
        let alone = TidyList(TidyList.encode([item], session: list.session))
        precondition(alone?.item(at: 0) == item, "an item does not survive its own encoding")
    }
    return 0
}
