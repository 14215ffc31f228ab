import ArgumentParser
import Foundation
import PhotoLibrary

/// `--json`, the same option on every command that prints: its result as one JSON document on
/// stdout, in one of the public shapes of PhotoLibrary's JSON/ folder; messages stay on stderr.
/// (`watch` has none: it prints a log, not a result.)
struct JSONOutput: ParsableArguments {
    @Flag(help: "Print the result as one JSON document on stdout (messages stay on stderr).")
    var json = false

    /// Prints one document of the public contract, and a newline.
    func print<Shape: PublicJSONShape>(_ shape: Shape) throws {
        FileHandle.standardOutput.write(try ShoeboxJSON.document(shape))
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}
