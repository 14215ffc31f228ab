import Foundation
@testable import Metadata

/// Builders for hostile and edge-case files, made from real files in the tests themselves.
enum Craft {
    /// A JPEG with its APP1 segments removed and `segments` (marker, payload) inserted after SOI.
    static func jpeg(_ base: [UInt8], inserting segments: [(UInt8, [UInt8])], keepAPP1: Bool = false) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        for (marker, payload) in segments {
            precondition(payload.count + 2 <= 0xFFFF)
            out += [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        var pos = 2
        while pos + 4 <= base.count, base[pos] == 0xFF {
            let marker = base[pos + 1]
            let length = Int(base[pos + 2]) << 8 | Int(base[pos + 3])
            if marker == 0xDA { break }
            if marker != 0xE1 || keepAPP1 { out += base[pos..<pos + 2 + length] }
            pos += 2 + length
        }
        return out + base[pos...]
    }

    /// Offset of the first SOF segment's marker.
    static func sofOffset(_ jpeg: [UInt8]) -> Int? {
        var pos = 2
        while pos + 4 <= jpeg.count, jpeg[pos] == 0xFF {
            let marker = jpeg[pos + 1]
            if JPEGReader.isSOF(marker) { return pos }
            pos += 2 + (Int(jpeg[pos + 2]) << 8 | Int(jpeg[pos + 3]))
        }
        return nil
    }

    /// Same JPEG with the frame header claiming another size.
    static func jpeg(_ base: [UInt8], claiming width: Int, _ height: Int) -> [UInt8] {
        var out = base
        let sof = sofOffset(base)!
        out[sof + 5] = UInt8(height >> 8); out[sof + 6] = UInt8(height & 0xFF)
        out[sof + 7] = UInt8(width >> 8); out[sof + 8] = UInt8(width & 0xFF)
        return out
    }

    static func xmpSegment(_ xml: String) -> (UInt8, [UInt8]) {
        (0xE1, JPEGReader.xmpSignature + Array(xml.utf8))
    }

    static func exifSegment(tiff: [UInt8]) -> (UInt8, [UInt8]) {
        (0xE1, EXIF.header + tiff)
    }

    /// A PNG with `chunks` inserted after IHDR (CRCs computed, though Shoebox does not check them).
    static func png(_ base: [UInt8], inserting chunks: [(String, [UInt8])]) -> [UInt8] {
        var out = Array(base[0..<33])
        for (type, data) in chunks { out += chunk(type, data) }
        return out + base[33...]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let t = Array(type.utf8)
        return be32(data.count) + t + data + be32(Int(crc32(t + data)))
    }

    static func pngXMP(_ xml: String) -> (String, [UInt8]) {
        ("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + Array(xml.utf8))
    }

    static func be32(_ v: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }

    static func be16(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in data {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    /// An XMP packet with the given rdf:Description body and namespace declarations.
    static func xmp(_ body: String) -> String {
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"
            xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/"
            xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#"
            xmlns:stDim="http://ns.adobe.com/xap/1.0/sType/Dimensions#"
            xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
            xmlns:exif="http://ns.adobe.com/exif/1.0/"
            xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            xmlns:xmpNote="http://ns.adobe.com/xmp/note/"
            xmlns:MP="http://ns.microsoft.com/photo/1.2/"
            xmlns:MPRI="http://ns.microsoft.com/photo/1.2/t/RegionInfo#"
            xmlns:MPReg="http://ns.microsoft.com/photo/1.2/t/Region#"\(body)
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """
    }

    /// A big-endian TIFF with IFD0 entries (tag, type, count, 4-byte value or offset) and extra data after it.
    static func tiff(ifd0 entries: [(Int, Int, Int, [UInt8])], entryCount: Int? = nil, next: Int = 0, tail: [UInt8] = []) -> [UInt8] {
        var out: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A] + be32(8)
        out += be16(entryCount ?? entries.count)
        for (tag, type, count, value) in entries {
            out += be16(tag) + be16(type) + be32(count) + (value + [0, 0, 0, 0]).prefix(4)
        }
        out += be32(next)
        return out + tail
    }
}
