import ArgumentParser
import Foundation
import PhotoLibrary

/// `--json`, the same option on every command that prints: its result as one JSON document on
/// stdout, in one of the public shapes of PhotoLibrary's JSON/ folder; messages stay on stderr.
/// (`watch` has none: it prints a log, not a result.)
package struct JSONOutput: ParsableArguments {
    @Flag(help: "Print the result as one JSON document on stdout (messages stay on stderr).")
    package var json = false

    package init() {}

    /// Prints one document of the public contract, and a newline: through `JSONStreamWriter`
    /// (JSONEncoder's bytes, several times faster; a long list goes out as it is written).
    package func print<Shape: PublicJSONShape>(_ shape: Shape) throws {
        if JSONOutput.reference {
            FileHandle.standardOutput.write(try ShoeboxJSON.reference(shape))
            FileHandle.standardOutput.write(Data("\n".utf8))
            return
        }
        let writer = JSONStreamWriter { FileHandle.standardOutput.write(Data($0)) }
        try writer.write(shape)
        writer.raw("\n")
        writer.flush()
    }

    /// Prints an array whose elements `produce` hands out one by one (each batch read, written
    /// and let go: a listing of the whole library is never held), and a newline.
    package func printArray<Element: PublicJSONShape>(_ produce: (_ element: (Element) throws -> Void) throws -> Void) throws {
        if JSONOutput.reference {
            var all: [Element] = []
            try produce { all.append($0) }
            return try print(all)
        }
        let writer = JSONStreamWriter { FileHandle.standardOutput.write(Data($0)) }
        writer.beginArray()
        try produce { try writer.append($0) }
        writer.endArray()
        writer.raw("\n")
        writer.flush()
    }

    /// `SHOEBOX_JSON_REFERENCE=1`: every `--json` printed by JSONEncoder instead, whole, the
    /// way it was before the streaming writer: what the tests compare each command's output to.
    package static let reference = ProcessInfo.processInfo.environment["SHOEBOX_JSON_REFERENCE"] == "1"
}
