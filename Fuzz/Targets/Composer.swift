// The composer's draft file (`.shoebox/composer.json`, decoded by `ComposerDraft.decode`).
// Checked besides "no crash": every error is a `ShoeboxError` of one line, and what decodes
// holds 1–4 ids each once and encodes back to bytes that decode to the same draft.
import Composer
import Foundation
import PhotoLibrary

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let draft: ComposerDraft
    do {
        draft = try ComposerDraft.decode(bytes)
    } catch let e as ShoeboxError {
        precondition(!e.description.contains("\n"), "a damaged draft must be said in one line: \(e.description.debugDescription)")
        return 0
    } catch {
        preconditionFailure("ComposerDraft.decode threw a non-Shoebox error: \(error)")
    }
    precondition(draft.count <= ComposerDraft.capacity, "a draft of \(draft.count) photos")
    precondition(Set(draft.items).count == draft.items.count, "an id listed twice")
    let again = try? ComposerDraft.decode(draft.encoded())
    precondition(again == draft, "the draft does not survive its own encoding")
    return 0
}
