import CZlib
import Foundation

/// A zip archive written as it goes, its entries *stored* (method 0: not compressed), so a file
/// taken out of it is byte for byte the one put in — curation's "Share" of several originals, the
/// tracker's CSV export. ZIP64 records are written where a size, an offset or the entry count
/// outgrows the classic fields.
///
/// Written here rather than through a library: the linked libraries have no zip writer (zlib
/// only deflates; minizip and libzip are not among Shoebox's dependencies), and a stored archive
/// is a few fixed records around the bytes (PKWARE APPNOTE 6.3.10, sections 4.3 and 4.5). The
/// CRC-32 is zlib's.
///
///     var zip = StoredZip()
///     send(zip.add(name: "IMG_0001.jpg", bytes: bytes, modified: date))
///     send(zip.finish())
public struct StoredZip: Sendable {
    private struct Entry: Sendable {
        var name: [UInt8]
        var crc: UInt32
        var size: UInt64
        var offset: UInt64
        var time: UInt16
        var date: UInt16
    }

    private var entries: [Entry] = []
    private var names = Set<String>()
    /// Bytes handed out so far: the next local header's offset.
    private var written: UInt64 = 0

    public init() {}

    /// The local header and `bytes` of one more entry, to send as they are. A name already used
    /// gets " (2)", " (3)"… before its extension: two entries of one name would hide one.
    public mutating func add(name: String, bytes: [UInt8], modified: Date) -> [UInt8] {
        header(name: name, size: UInt64(bytes.count), crc: Self.crc32(bytes), modified: modified) + bytes
    }

    /// The local header of an entry whose `size` bytes (CRC-32 `crc`) the caller sends next, all
    /// of them: the next entry's offset counts on it.
    public mutating func header(name: String, size: UInt64, crc: UInt32, modified: Date) -> [UInt8] {
        let unique = uniqueName(name)
        let (time, date) = Self.dosTime(modified)
        let entry = Entry(name: Array(unique.utf8), crc: crc, size: size, offset: written, time: time, date: date)
        entries.append(entry)
        let big = size >= 0xFFFF_FFFF
        var out = Bytes()
        out.u32(0x0403_4b50)
        out.u16(big ? 45 : 20)
        out.u16(0x0800)                       // names in UTF-8
        out.u16(0)                            // stored
        out.u16(time); out.u16(date)
        out.u32(crc)
        out.u32(big ? 0xFFFF_FFFF : UInt32(size)); out.u32(big ? 0xFFFF_FFFF : UInt32(size))
        out.u16(UInt16(entry.name.count)); out.u16(big ? 20 : 0)
        out.bytes += entry.name
        if big { out.u16(0x0001); out.u16(16); out.u64(size); out.u64(size) }
        written += UInt64(out.bytes.count) + size
        return out.bytes
    }

    /// The central directory and the end records: the archive's last bytes.
    public mutating func finish() -> [UInt8] {
        let start = written
        var out = Bytes()
        for e in entries { central(e, into: &out) }
        let size = UInt64(out.bytes.count)
        let needs64 = entries.count >= 0xFFFF || start >= 0xFFFF_FFFF || size >= 0xFFFF_FFFF
        if needs64 {
            let record = start + size
            out.u32(0x0606_4b50); out.u64(44); out.u16(45); out.u16(45); out.u32(0); out.u32(0)
            out.u64(UInt64(entries.count)); out.u64(UInt64(entries.count)); out.u64(size); out.u64(start)
            out.u32(0x0706_4b50); out.u32(0); out.u64(record); out.u32(1)
        }
        out.u32(0x0605_4b50); out.u16(0); out.u16(0)
        let count: UInt16 = needs64 ? 0xFFFF : UInt16(entries.count)
        out.u16(count); out.u16(count)
        out.u32(needs64 ? 0xFFFF_FFFF : UInt32(size)); out.u32(needs64 ? 0xFFFF_FFFF : UInt32(start))
        out.u16(0)
        written += UInt64(out.bytes.count)
        return out.bytes
    }

    private func central(_ e: Entry, into out: inout Bytes) {
        let bigSize = e.size >= 0xFFFF_FFFF, bigOffset = e.offset >= 0xFFFF_FFFF
        var extra = Bytes()
        if bigSize || bigOffset {
            extra.u16(0x0001)
            extra.u16(UInt16((bigSize ? 16 : 0) + (bigOffset ? 8 : 0)))
            if bigSize { extra.u64(e.size); extra.u64(e.size) }
            if bigOffset { extra.u64(e.offset) }
        }
        out.u32(0x0201_4b50)
        out.u16(45 | (3 << 8))                // made by: ZIP64-aware, Unix (the mode below)
        out.u16(bigSize || bigOffset ? 45 : 20)
        out.u16(0x0800); out.u16(0); out.u16(e.time); out.u16(e.date); out.u32(e.crc)
        out.u32(bigSize ? 0xFFFF_FFFF : UInt32(e.size)); out.u32(bigSize ? 0xFFFF_FFFF : UInt32(e.size))
        out.u16(UInt16(e.name.count)); out.u16(UInt16(extra.bytes.count)); out.u16(0)
        out.u16(0); out.u16(0)
        out.u32(UInt32(0o100644) << 16)       // a regular file, rw-r--r--
        out.u32(bigOffset ? 0xFFFF_FFFF : UInt32(e.offset))
        out.bytes += e.name
        out.bytes += extra.bytes
    }

    private mutating func uniqueName(_ name: String) -> String {
        let clean = name.isEmpty ? "file" : name
        var candidate = clean, n = 2
        while names.contains(candidate.lowercased()) {
            let ext = (clean as NSString).pathExtension
            let stem = ext.isEmpty ? clean : String(clean.dropLast(ext.count + 1))
            candidate = "\(stem) (\(n))" + (ext.isEmpty ? "" : ".\(ext)")
            n += 1
        }
        names.insert(candidate.lowercased())
        return candidate
    }

    /// zlib's CRC-32 of `bytes` (continuing from `crc` for a file read in parts).
    public static func crc32(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            var value = UInt(crc)
            var start = 0
            // zlib takes a 32-bit length: a huge buffer goes in slices.
            while start < buffer.count {
                let count = min(buffer.count - start, 1 << 30)
                value = CZlib.crc32(value, buffer.baseAddress! + start, UInt32(count))
                start += count
            }
            return UInt32(value)
        }
    }

    /// MS-DOS time and date (local time, 2-second steps, 1980–2107), as zip keeps them.
    static func dosTime(_ date: Date) -> (time: UInt16, date: UInt16) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let year = min(max((c.year ?? 1980) - 1980, 0), 127)
        let time = UInt16((c.hour ?? 0) << 11 | (c.minute ?? 0) << 5 | (c.second ?? 0) / 2)
        let day = UInt16(year << 9 | (c.month ?? 1) << 5 | (c.day ?? 1))
        return (time, (c.year ?? 1980) < 1980 ? UInt16(1 << 5 | 1) : day)
    }
}

/// Little-endian fields, as every zip record has them.
private struct Bytes {
    var bytes: [UInt8] = []
    mutating func u16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    mutating func u32(_ v: UInt32) { for i in 0..<4 { bytes.append(UInt8((v >> (8 * UInt32(i))) & 0xFF)) } }
    mutating func u64(_ v: UInt64) { for i in 0..<8 { bytes.append(UInt8((v >> (8 * UInt64(i))) & 0xFF)) } }
}
