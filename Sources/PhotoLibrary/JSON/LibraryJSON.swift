import Foundation

/// `init --json`: the library made. Public contract: `root` and `index`, absolute paths.
public struct LibraryJSON: PublicJSONShape, Sendable {
    var root: String
    var index: String

    public init(_ library: Library) {
        root = library.root.path
        index = library.indexURL.path
    }
}
