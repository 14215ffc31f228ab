// Helpers shared by the fuzz targets (the FuzzSupport module of Fuzz/Package.swift).
import Glibc
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

/// The input in an unlinked temporary file, as the pipeline hands decoders a descriptor
/// (memfd_create does not import into Swift). The caller closes it.
public func temporaryFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var template = Array("/tmp/shoebox-fuzz-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    precondition(fd >= 0, "mkstemp failed")
    unlink(template)
    var written = 0
    while written < size {
        let n = write(fd, data + written, size - written)
        precondition(n > 0, "write to the temporary file failed")
        written += n
    }
    return fd
}
