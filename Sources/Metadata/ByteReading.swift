/// Bounded, overflow-safe access to untrusted bytes: everything a header claims is checked
/// against what is really there before it is used as an offset or a length.

/// Thrown by `ByteCursor` when a structure claims more bytes than it holds. Internal only:
/// readers turn it into a `MetadataError` with the format's name, or ignore it for best-effort metadata.
struct OutOfBytes: Error {}

/// Reads big- or little-endian integers from a byte array, failing instead of trapping.
struct ByteCursor {
    let bytes: [UInt8]
    private(set) var position: Int
    var bigEndian = true

    init(_ bytes: [UInt8], at position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    var remaining: Int { max(0, bytes.count - position) }

    mutating func skip(_ n: Int) throws {
        guard n >= 0, n <= remaining else { throw OutOfBytes() }
        position += n
    }

    mutating func u8() throws -> UInt8 {
        guard remaining >= 1 else { throw OutOfBytes() }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u16() throws -> UInt16 {
        guard remaining >= 2 else { throw OutOfBytes() }
        defer { position += 2 }
        let a = UInt16(bytes[position]), b = UInt16(bytes[position + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    mutating func u32() throws -> UInt32 {
        guard remaining >= 4 else { throw OutOfBytes() }
        var v: UInt32 = 0
        for i in 0..<4 {
            let byte = UInt32(bytes[position + (bigEndian ? i : 3 - i)])
            v = v << 8 | byte
        }
        position += 4
        return v
    }

    mutating func u64() throws -> UInt64 {
        let hi = UInt64(try u32()), lo = UInt64(try u32())
        return bigEndian ? hi << 32 | lo : lo << 32 | hi
    }

    mutating func take(_ n: Int) throws -> [UInt8] {
        guard n >= 0, n <= remaining else { throw OutOfBytes() }
        defer { position += n }
        return Array(bytes[position..<position + n])
    }

    /// Bytes up to (not including) the next NUL, which is consumed; nil when there is none.
    mutating func cString() -> [UInt8]? {
        guard let end = bytes[position...].firstIndex(of: 0) else { return nil }
        defer { position = end + 1 }
        return Array(bytes[position..<end])
    }
}

extension Array where Element == UInt8 {
    func be16(_ i: Int) -> Int? {
        guard i >= 0, i + 2 <= count else { return nil }
        return Int(self[i]) << 8 | Int(self[i + 1])
    }

    func be32(_ i: Int) -> UInt32? {
        guard i >= 0, i + 4 <= count else { return nil }
        return UInt32(self[i]) << 24 | UInt32(self[i + 1]) << 16 | UInt32(self[i + 2]) << 8 | UInt32(self[i + 3])
    }

    func hasPrefix(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
        guard offset >= 0, offset + prefix.count <= count else { return false }
        for (i, b) in prefix.enumerated() where self[offset + i] != b { return false }
        return true
    }
}

/// A four-character code as a string for messages ("moov"); unprintable bytes become '?'.
func fourCC(_ v: UInt32) -> String {
    String(decoding: [24, 16, 8, 0].map { s -> UInt8 in
        let b = UInt8(truncatingIfNeeded: v >> UInt32(s))
        return (0x20...0x7E).contains(b) ? b : UInt8(ascii: "?")
    }, as: UTF8.self)
}

func fourCC(_ s: StaticString) -> UInt32 {
    precondition(s.utf8CodeUnitCount == 4)
    let p = s.utf8Start
    return UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
}

/// Serves small reads (marker and chunk headers) from a window read ahead in one `pread`,
/// so walking thousands of PNG chunks or JPEG markers costs a handful of system calls.
final class WindowedReader {
    let source: ByteSource
    let count: Int64
    private var windowStart: Int64 = 0
    private var window: [UInt8] = []
    private let windowSize: Int

    init(_ source: ByteSource, windowSize: Int = 64 << 10) {
        self.source = source
        self.count = source.count
        self.windowSize = windowSize
    }

    /// Up to `length` bytes at `offset` (fewer only at the end of the source).
    func read(at offset: Int64, length: Int) throws -> [UInt8] {
        guard offset >= 0, length > 0, offset < count else { return [] }
        if length > windowSize / 2 { return try source.read(at: offset, length: length) }
        let windowEnd = windowStart + Int64(window.count)
        if offset < windowStart || offset + Int64(length) > windowEnd {
            // A short window that already reaches the end of the source cannot grow.
            if !(offset >= windowStart && windowEnd == count && offset <= windowEnd) {
                window = try source.read(at: offset, length: windowSize)
                windowStart = offset
            }
        }
        let start = Int(offset - windowStart)
        let end = Swift.min(window.count, start + length)
        guard start < end else { return [] }
        return Array(window[start..<end])
    }
}

/// The pixel budget beyond which Shoebox refuses a file as a decompression bomb.
let maximumPixels: Int64 = 500_000_000

func checkPixelBudget(width: Int, height: Int) throws {
    let (product, overflow) = Int64(width).multipliedReportingOverflow(by: Int64(height))
    if overflow || product > maximumPixels {
        throw MetadataError(.tooLarge,
                            "image header claims \(width)×\(height) pixels, beyond the 500-megapixel limit")
    }
}
