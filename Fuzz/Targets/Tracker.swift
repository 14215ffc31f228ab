// The painting tracker's store (`Tracker/tracker.json`, decoded by `TrackerFile.decode`, versions
// 1 and 2). Checked besides "no crash": every error is a `ShoeboxError` of one line; what decodes
// has each id once, passes the integrity check without trapping (its repair is stable: checking
// the repaired data finds nothing more to repair), and encodes to bytes that decode to the same
// data at the current version.
import Foundation
import PhotoLibrary
@testable import Tracker

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let decoded: TrackerData
    do {
        decoded = try TrackerFile.decode(bytes).data
    } catch let e as ShoeboxError {
        precondition(!e.description.contains("\n"), "a damaged tracker file must be said in one line: \(e.description.debugDescription)")
        return 0
    } catch {
        preconditionFailure("TrackerFile.decode threw a non-Shoebox error: \(error)")
    }
    precondition(Set(decoded.miniatures.map(\.id)).count == decoded.miniatures.count, "a miniature id twice")
    let checked = TrackerIntegrity.check(decoded)
    precondition(!TrackerIntegrity.check(checked.data).repaired, "the integrity repair is not stable")
    for p in checked.data.photos where TrackerIntegrity.isPhotoFile(p.file) {
        precondition(LibraryPath.isValid(p.file) && p.file.split(separator: "/").count == 3, "an unsafe photo path passed: \(p.file)")
    }
    guard let again = try? TrackerFile.decode(TrackerFile.encode(decoded)) else { preconditionFailure("the encoding does not decode") }
    precondition(again.data == decoded && again.version == TrackerFile.currentVersion, "the data does not survive its own encoding")
    return 0
}
