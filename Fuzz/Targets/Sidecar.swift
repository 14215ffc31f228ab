// Sidecar JSON (`SidecarStore.decode`), then what Shoebox does with a decoded sidecar: the public
// JSON of `list`/`show --json` (AssetJSON: dates, year, upright size) and the sidecar written back
// (by JSONEncoder and by the streaming writer a scan uses).
import Foundation
@testable import PhotoLibrary

let store = SidecarStore(library: Library(root: URL(fileURLWithPath: "/nonexistent/fuzz-library")))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let sidecar = try? store.decode(bytes, name: "fuzz.json") else { return 0 }
    _ = try? ShoeboxJSON.makeEncoder(pretty: false).encode(AssetJSON(sidecar.asset, liveVideo: nil))
    _ = try? ShoeboxJSON.makeEncoder(pretty: true).encode(sidecar)
    // As a scan writes it since issue 33: the streaming writer, not JSONEncoder.
    _ = try? SidecarStore.encode([sidecar.asset])
    _ = (sidecar.asset.name, sidecar.asset.folder, sidecar.asset.stem)
    return 0
}
