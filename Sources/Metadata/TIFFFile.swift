import MetadataCore
import CLazyCodecs
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TIFF opened in libtiff over a `ByteSource` (a descriptor the caller opened, or memory):
/// libtiff reads through these procs only, never a path. Its errors and warnings are kept for the
/// one line a failure says instead of going to stderr, and no single allocation it makes may pass
/// `maxAllocation`, so a forged strip size is refused before memory is taken.
public final class TIFFFile {
    /// The libtiff handle; valid until this object goes.
    public let handle: OpaquePointer
    private let reader: Reader
    /// Over this, libtiff's allocations fail (a 120-megapixel strip-chopped image needs far less).
    static let maxAllocation: tmsize_t = 256 << 20

    /// Opens `source` read-only, without memory-mapping it. `name` only for messages.
    public init(_ source: ByteSource, name: String) throws {
        try LazyCodecs.tiff()
        reader = Reader(source)
        guard let options = shoebox_TIFFOpenOptionsAlloc() else { throw MetadataError(.io, "libtiff could not start") }
        defer { shoebox_TIFFOpenOptionsFree(options) }
        let context = Unmanaged.passUnretained(reader).toOpaque()
        shoebox_TIFFOpenOptionsSetMaxSingleMemAlloc(options, Self.maxAllocation)
        shoebox_TIFFOpenOptionsSetErrorHandlerExtR(options, { _, context, module, format, arguments in
            TIFFFile.Reader.from(context).note(module, format, arguments)
            return 1
        }, context)
        // Unknown private tags and the like: nothing a user can act on.
        shoebox_TIFFOpenOptionsSetWarningHandlerExtR(options, { _, _, _, _, _ in 1 }, context)
        // "m": no memory mapping (the procs below are the only way in).
        guard let tif = shoebox_TIFFClientOpenExt(name, "rm", context, Self.readProc, Self.writeProc, Self.seekProc,
                                          Self.closeProc, Self.sizeProc, Self.mapProc, Self.unmapProc, options) else {
            throw MetadataError(reader.failed ? .io : .corrupt, "not a TIFF libtiff can read: \(reader.lastError ?? "no valid directory")")
        }
        handle = tif
    }

    deinit { shoebox_TIFFClose(handle) }

    /// The first error libtiff reported, for messages ("Not enough data for scanline 12").
    public var lastError: String? { reader.lastError }

    /// A tag of the current directory: `body` gets the pointers libtiff writes through (as many
    /// as the tag's type needs; the rest are scratch), and runs only when the tag is there.
    func field<T>(_ tag: UInt32, _ body: (UnsafeMutableRawPointer, UnsafeMutableRawPointer) -> T?) -> T? {
        // Four 16-byte slots: no tag writes more than a count and a pointer (or three values).
        let slots = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        defer { slots.deallocate() }
        slots.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
        let arguments: [CVarArg] = [0, 16, 32, 48].map { OpaquePointer(slots + $0) }
        let found: Int32 = withVaList(arguments) { list in shoebox_TIFFVGetField(handle, tag, list) }
        return found == 1 ? body(slots, slots + 16) : nil
    }

    /// A tag's value as libtiff stores it: 32-bit unsigned.
    public func uint32(_ tag: UInt32) -> UInt32? { field(tag) { a, _ in a.load(as: UInt32.self) } }
    public func uint16(_ tag: UInt32) -> UInt16? { field(tag) { a, _ in a.load(as: UInt16.self) } }

    /// An ASCII tag, trimmed; nil when absent or blank.
    func text(_ tag: UInt32) -> String? {
        field(tag) { a, _ -> String? in
            guard let p = a.load(as: UnsafePointer<CChar>?.self) else { return nil }
            let s = String(cString: p).trimmedWhitespaceAndControls()
            return s.isEmpty ? nil : s
        }
    }

    /// A byte-array tag given as a 32-bit count and a pointer (XMP, IPTC, Photoshop resources),
    /// copied; at most `limit` bytes are taken.
    public func bytes(_ tag: UInt32, limit: Int) -> [UInt8]? {
        field(tag) { a, b -> [UInt8]? in
            let count = Int(a.load(as: UInt32.self))
            guard count > 0, count <= limit, let p = b.load(as: UnsafeRawPointer?.self) else { return nil }
            return Array(UnsafeRawBufferPointer(start: p, count: count))
        }
    }

    /// The procs' state: where reads go and what libtiff complained of.
    final class Reader {
        let source: ByteSource
        var position: Int64 = 0
        var lastError: String?
        /// A read of the source itself failed (not the data being bad).
        var failed = false

        init(_ source: ByteSource) { self.source = source }

        static func from(_ context: UnsafeMutableRawPointer?) -> Reader {
            Unmanaged<Reader>.fromOpaque(context!).takeUnretainedValue()
        }

        func note(_ module: UnsafePointer<CChar>?, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?) {
            guard lastError == nil, let format, let arguments else { return }
            var buffer = [CChar](repeating: 0, count: 512)
            _ = vsnprintf(&buffer, buffer.count, format, arguments)
            // The message is file bytes at times (a tag's text): one line, printable.
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            lastError = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
        }

        func read(into buffer: UnsafeMutableRawPointer, _ size: Int) -> Int {
            guard size > 0, position >= 0, position < source.count else { return 0 }
            if let file = source as? FileByteSource {
                var done = 0
                while done < size {
                    let n = pread(file.fd, buffer + done, size - done, off_t(position) + off_t(done))
                    if n < 0 && errno == EINTR { continue }
                    if n < 0 { failed = true; return -1 }
                    if n == 0 { break }
                    done += n
                }
                position += Int64(done)
                return done
            }
            guard let bytes = try? source.read(at: position, length: size) else { failed = true; return -1 }
            bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            position += Int64(bytes.count)
            return bytes.count
        }
    }

    private static let readProc: TIFFReadWriteProc = { context, buffer, size in
        guard let buffer else { return -1 }
        return tmsize_t(Reader.from(context).read(into: buffer, Int(size)))
    }
    private static let writeProc: TIFFReadWriteProc = { _, _, _ in -1 }
    private static let seekProc: TIFFSeekProc = { context, offset, whence in
        let reader = Reader.from(context)
        let base: Int64
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = reader.position
        case SEEK_END: base = reader.source.count
        default: return toff_t(bitPattern: -1)
        }
        let (target, overflow) = base.addingReportingOverflow(Int64(bitPattern: offset))
        guard !overflow, target >= 0 else { return toff_t(bitPattern: -1) }
        reader.position = target
        return toff_t(target)
    }
    private static let closeProc: TIFFCloseProc = { _ in 0 }
    private static let sizeProc: TIFFSizeProc = { context in toff_t(Reader.from(context).source.count) }
    private static let mapProc: TIFFMapFileProc = { _, _, _ in 0 }
    private static let unmapProc: TIFFUnmapFileProc = { _, _, _ in }
}
