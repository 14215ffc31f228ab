// User album JSON (`.shoebox/albums/<id>.json`, decoded as `UserAlbum`), the checks UserAlbums
// applies to it, and the names it turns into (SafeName). Checked besides "no crash": a folder
// name SafeName makes is one SafeName accepts as it is (UserAlbums refuses an album whose folder
// is not), and keeps SafeName's promises (no "/", no control characters, no leading dot or
// space, 1 to 255 bytes).
import Foundation
@testable import PhotoLibrary

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let album = try? ShoeboxJSON.makeDecoder().decode(UserAlbum.self, from: bytes) else { return 0 }
    // What UserAlbums.allIncludingDeleted checks before it takes an album.
    let accepted = album.schema <= UserAlbum.currentSchema && !album.folder.isEmpty && !album.folder.contains("/")
        && album.folder == SafeName.folder(album.folder, fallback: "Album")
    _ = (accepted, UserAlbums.isReserved(album.folder))
    for raw in [album.name, album.folder] {
        let folder = SafeName.folder(raw, fallback: "Album")
        check(folder, raw)
        precondition(SafeName.folder(folder, fallback: "Album") == folder,
                     "SafeName.folder is not stable: \(raw.debugDescription) → \(folder.debugDescription)")
    }
    let width = SafeName.positionWidth(for: album.members.count)
    for (position, name) in album.linked.keys.sorted().prefix(8).enumerated() {
        let link = SafeName.link(position: position + 1, width: width, fileName: name)
        check(link, name)
    }
    _ = try? ShoeboxJSON.makeEncoder(pretty: true).encode(album)
    return 0
}

func check(_ name: String, _ raw: String) {
    let u = Array(name.utf8)
    let ok = !u.isEmpty && u.count <= SafeName.maximumBytes && u.first != UInt8(ascii: ".") && u.first != UInt8(ascii: " ")
        && !u.contains(UInt8(ascii: "/")) && !u.contains { $0 < 0x20 || $0 == 0x7F }
    precondition(ok, "SafeName broke its promises: \(raw.debugDescription) → \(name.debugDescription)")
}
