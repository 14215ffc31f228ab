import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One entry of a folder, as readdir(3) gives it.
public struct DirectoryEntry: Sendable {
    /// The name's bytes: Linux names are bytes, not necessarily UTF-8.
    public var nameBytes: [UInt8]
    /// `d_type` (`DT_DIR`, `DT_LNK`, `DT_REG`…); `DT_UNKNOWN` where the file system does not say.
    public var type: UInt8

    /// The name, or nil when it is not valid UTF-8 (it cannot be stored in the index or a sidecar).
    public var name: String? { String(validating: nameBytes, as: UTF8.self) }
}

/// Calls `body` with each entry of the folder at `path` ("." and ".." left out), in the order the
/// file system gives them, and the folder's descriptor for calls relative to it (`readlinkat`,
/// `fstatat`): no walk down the whole path again for each entry. Returns false when the folder
/// cannot be opened (`errno` says why).
@discardableResult
public func forEachDirectoryEntry(_ path: String, _ body: (_ entry: DirectoryEntry, _ folder: Int32) throws -> Void) rethrows -> Bool {
    guard let handle = opendir(path) else { return false }
    defer { closedir(handle) }
    try forEachEntry(of: handle, body)
    return true
}

/// `forEachDirectoryEntry(_:_:)` of a folder already open as `fd` (which stays open, the
/// caller's): a folder reached without following links is listed as it is, not by its path again.
/// Returns false when it cannot be read.
@discardableResult
public func forEachDirectoryEntry(fd: Int32, _ body: (_ entry: DirectoryEntry, _ folder: Int32) throws -> Void) rethrows -> Bool {
    let own = dup(fd)
    guard own >= 0 else { return false }
    guard let handle = fdopendir(own) else {
        close(own)
        return false
    }
    defer { closedir(handle) }
    // A duplicate shares the read position: start from the top whatever was listed before.
    rewinddir(handle)
    try forEachEntry(of: handle, body)
    return true
}

private func forEachEntry(of handle: OpaquePointer, _ body: (_ entry: DirectoryEntry, _ folder: Int32) throws -> Void) rethrows {
    let fd = dirfd(handle)
    while let ent = readdir(handle) {
        let bytes = withUnsafeBytes(of: ent.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
        if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
        try body(DirectoryEntry(nameBytes: bytes, type: ent.pointee.d_type), fd)
    }
}

/// The names in the folder at `path`, sorted; [] when it cannot be opened. Names that are not
/// valid UTF-8 are left out: Shoebox can neither index nor name them (the scan reports them).
public func directoryNames(_ path: String) -> [String] {
    var names: [String] = []
    forEachDirectoryEntry(path) { entry, _ in
        if let name = entry.name { names.append(name) }
    }
    return names.sorted()
}
