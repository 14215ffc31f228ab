// Helpers shared by the fuzz targets (the FuzzSupport module of Fuzz/Package.swift).
import Metadata

/// Runs a metadata reader. A thrown MetadataError is a correct answer when its message is what a
/// scan may print on stderr: one line of printable text (no control characters from the file's
/// bytes: NUL, ESC, newlines). Any other error, or a message that breaks that, stops the fuzzer.
public func reading<T>(_ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch let e as MetadataError {
        let printable = !e.message.isEmpty
            && e.message.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }
        precondition(printable, "MetadataError is not one line of printable text: \(e.message.debugDescription)")
        return nil
    } catch {
        preconditionFailure("not a MetadataError: \(error)")
    }
}
