import Foundation

/// What a file is, from its first bytes, without any image library: the part of reading a file
/// every command may need (the tracker's format check, an upload's sniff). Reading the headers
/// (`read`, `incompleteness`) is the Metadata module's, through its codecs.
public enum MetadataReader {
    /// Bytes `read` fetches to decide the format (enough for an ftyp box's list of brands).
    package static let sniffLength = 4096

    package static let heifBrands: Set<String> = ["heic", "heix", "mif1", "msf1", "heim", "heis", "hevc", "hevx"]
    package static let avifBrands: Set<String> = ["avif", "avis"]
    static let mp4Brands: Set<String> = [
        "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9", "mp41", "mp42", "avc1",
        "M4V ", "M4VH", "M4VP", "mmp4", "3gp4", "3gp5", "3gp6", "3gp7", "3g2a", "3g2b", "3g2c",
        "dash", "MSNV", "XAVC", "f4v ", "NDAS", "NDSC", "NDSH", "NDSM", "NDSP", "NDSS", "NDXC", "NDXH",
        "NDXM", "NDXP", "NDXS", "CAEP", "hvc1",
    ]
    /// Boxes a QuickTime movie written without ftyp (older cameras) starts with.
    static let bareQuickTimeBoxes: Set<String> = ["moov", "mdat", "wide", "free", "skip", "pnot"]

    /// Format from the first bytes (at least 64 bytes when available); nil when not a
    /// JPEG/PNG/HEIC(HEIF)/MP4/MOV file. AVIF, though HEIF-based, is not HEIC and gives nil.
    public static func sniff(_ head: [UInt8]) -> MediaFormat? {
        if RawSignature.sniff(head) { return .raw }
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        guard head.count >= 12, let size = head.sniffBE32(0) else { return nil }
        let type = String(decoding: head[4..<8], as: UTF8.self)
        if type == "ftyp" {
            let major = String(decoding: head[8..<12], as: UTF8.self)
            var brands = [major]
            // Compatible brands follow the minor version; only those within the box and the head.
            var i = 16
            while i + 4 <= min(head.count, Int(min(size, 4096))) {
                brands.append(String(decoding: head[i..<i + 4], as: UTF8.self))
                i += 4
            }
            // An AVIF may carry only the generic HEIF brands (mif1/msf1) besides avif/avis.
            let hevcBrands = heifBrands.subtracting(["mif1", "msf1"])
            let isAVIF = brands.contains(where: avifBrands.contains) && !brands.contains(where: hevcBrands.contains)
            if major == "qt  " { return .mov }
            if heifBrands.contains(major) { return isAVIF ? nil : .heic }
            if avifBrands.contains(major) { return nil }
            if mp4Brands.contains(major) { return .mp4 }
            if brands.contains(where: { $0 == "heic" || $0 == "heix" }) { return .heic }
            if brands.contains("qt  ") { return .mov }
            if brands.contains(where: mp4Brands.contains) && !brands.contains(where: avifBrands.contains) { return .mp4 }
            return nil
        }
        if bareQuickTimeBoxes.contains(type), size == 0 || size == 1 || size >= 8 { return .mov }
        return nil
    }

    /// Extensions of plain TIFF images; a TIFF header under another extension (a raw format
    /// Shoebox does not read: PEF, NRW, ERF …) is not taken for one.
    package static let tiffExtensions: Set<String> = ["tif", "tiff"]

    /// `sniff`, and the TIFF family by its header and the name's extension: a TIFF-based camera
    /// raw file (DNG, CR2, NEF, ARW) by a raw extension, a plain TIFF (or BigTIFF) by `.tif`,
    /// `.tiff` or none.
    public static func sniff(_ head: [UInt8], fileName: String) -> MediaFormat? {
        if let format = sniff(head) { return format }
        if RawSignature.isTIFF(head) && RawSignature.extensions.contains(rawType(fileName) ?? "") { return .raw }
        guard RawSignature.isTIFF(head) || isBigTIFF(head) else { return nil }
        let ext = (fileName as NSString).pathExtension.lowercased()
        return ext.isEmpty || tiffExtensions.contains(ext) ? .tiff : nil
    }

    package static func isBigTIFF(_ head: [UInt8]) -> Bool {
        head.starts(with: [0x49, 0x49, 0x2B, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2B])
    }

    /// The lower-case extension of `fileName` when it is a raw format's.
    package static func rawType(_ fileName: String) -> String? {
        let ext = (fileName as NSString).pathExtension.lowercased()
        return RawSignature.extensions.contains(ext) ? ext : nil
    }

}

/// Camera raw files recognisable by their first bytes (and, for the TIFF-based ones, their
/// extension). LibRaw reads them (Metadata's `RAWReader`); knowing one needs no library.
package enum RawSignature {
    /// Extensions of the raw formats Shoebox indexes. TIFF-based ones (DNG, CR2, NEF, ARW) share
    /// their first bytes with any TIFF: the extension decides those; the rest have their own marks.
    package static let extensions: Set<String> = ["dng", "cr2", "cr3", "nef", "arw", "raf", "rw2", "orf"]

    /// Raw formats recognisable from their first bytes alone.
    package static func sniff(_ head: [UInt8]) -> Bool {
        func starts(_ s: String) -> Bool { head.starts(with: Array(s.utf8)) }
        if starts("FUJIFILMCCD-RAW") || starts("IIRO") || starts("IIRS") || starts("MMOR") { return true }
        if starts("IIU\0") { return true }  // Panasonic RW2
        // Canon CR3: an ISO-BMFF file of major brand 'crx ' — not a video.
        return head.count >= 12 && head[4..<8].elementsEqual("ftyp".utf8) && head[8..<12].elementsEqual("crx ".utf8)
    }

    package static func isTIFF(_ head: [UInt8]) -> Bool {
        head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
    }
}

extension [UInt8] {
    /// The big-endian 32-bit value at `offset`, nil past the end (the sniff's own: Metadata's
    /// byte helpers are that module's).
    fileprivate func sniffBE32(_ offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= count else { return nil }
        return UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8 | UInt32(self[offset + 3])
    }
}
