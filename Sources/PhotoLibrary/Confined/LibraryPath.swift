import Foundation

/// A path inside the library, relative to its folder, as the index, a sidecar, a `.trashinfo`
/// or the command line gives it. Each is validated before any file operation uses it: a sidecar
/// or index row edited to say `../outside/x.jpg` must never make Shoebox read, move or write
/// outside the library.
public enum LibraryPath {
    /// Whether `path` is relative, normalised and inside: not empty, no leading or trailing
    /// "/", no empty, "." or ".." component, no NUL byte.
    public static func isValid(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.first != 0x2F, bytes.last != 0x2F, !bytes.contains(0) else { return false }
        for component in bytes.split(separator: 0x2F, omittingEmptySubsequences: false) {
            if component.isEmpty || component.elementsEqual([0x2E]) || component.elementsEqual([0x2E, 0x2E]) { return false }
        }
        return true
    }

    /// `path` when valid; otherwise throws one line naming where it came from.
    @discardableResult
    public static func validated(_ path: String, from source: @autoclosure () -> String) throws -> String {
        guard isValid(path) else {
            throw ShoeboxError(.unsafeLayout, "\(source()) names the path \(String(reflecting: path)), which is not inside the library; it is ignored")
        }
        return path
    }

    /// The folder part of a valid path ("" for a name at the top).
    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// The last component of a valid path.
    static func leaf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
