import MetadataCore
import Foundation

/// AXS File Concatenation Protocol: a trailer some older tools (AXS, FotoStation's forerunners,
/// some Nikon software) append to a JPEG or TIFF to carry IPTC-IIM outside the image's own
/// structure. Only its "IPTC" record is taken. Layout (ExifTool's reading of the AXS
/// specification): the file ends with 12 bytes, "AXS!" (big-endian) or "AXS*" (little-endian), the
/// offset of the header, and a checksum; the header repeats the mark, then a 16-bit version, a
/// 16-bit count of 12-byte entries (4-byte tag, 32-bit size, 32-bit offset from the file's start)
/// and 4 bytes, and the entries follow it.
enum AFCP {
    /// More entries than this is not a trailer anyone wrote (there are four kinds of record).
    static let maximumEntries = 64

    /// The IPTC-IIM bytes of the trailer, when the file ends with one that holds them; nil for
    /// anything that does not check out (bounds, marks), never an error: metadata is best-effort.
    static func iptc(_ source: ByteSource) -> [UInt8]? {
        guard source.count >= 24, let tail = try? source.read(at: source.count - 12, length: 12), tail.count == 12,
              tail.starts(with: Array("AXS".utf8)), tail[3] == UInt8(ascii: "!") || tail[3] == UInt8(ascii: "*") else { return nil }
        let bigEndian = tail[3] == UInt8(ascii: "!")
        func u32(_ b: [UInt8], _ i: Int) -> Int64 {
            let v = b.be32(i) ?? 0
            return Int64(bigEndian ? v : v.byteSwapped)
        }
        func u16(_ b: [UInt8], _ i: Int) -> Int {
            let v = UInt16(b.be16(i) ?? 0)
            return Int(bigEndian ? v : v.byteSwapped)
        }
        let start = u32(tail, 4)
        guard start >= 0, start + 12 <= source.count - 12,
              let header = try? source.read(at: start, length: 12), header.count == 12, header.prefix(4).elementsEqual(tail.prefix(4)) else { return nil }
        let entries = u16(header, 6)
        guard entries > 0, entries <= maximumEntries,
              let directory = try? source.read(at: start + 12, length: entries * 12), directory.count == entries * 12 else { return nil }
        for i in 0..<entries where directory[(i * 12)..<(i * 12 + 4)].elementsEqual("IPTC".utf8) {
            let size = u32(directory, i * 12 + 4), offset = u32(directory, i * 12 + 8)
            guard size > 0, size <= Int64(IPTC.maximumSize), offset >= 0, offset + size <= source.count,
                  let bytes = try? source.read(at: offset, length: Int(size)), bytes.count == Int(size) else { return nil }
            return bytes
        }
        return nil
    }
}
