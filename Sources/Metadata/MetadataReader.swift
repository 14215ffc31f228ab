import Foundation

public enum MetadataReader {
    /// Bytes `read` fetches to decide the format (enough for an ftyp box's list of brands).
    static let sniffLength = 4096

    static let heifBrands: Set<String> = ["heic", "heix", "mif1", "msf1", "heim", "heis", "hevc", "hevx"]
    static let avifBrands: Set<String> = ["avif", "avis"]
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
        if RAWReader.sniff(head) { return .raw }
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        if head.hasPrefix(PNGReader.signature) { return .png }
        guard head.count >= 12, let size = head.be32(0) else { return nil }
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
    static let tiffExtensions: Set<String> = ["tif", "tiff"]

    /// `sniff`, and the TIFF family by its header and the name's extension: a TIFF-based camera
    /// raw file (DNG, CR2, NEF, ARW) by a raw extension, a plain TIFF (or BigTIFF) by `.tif`,
    /// `.tiff` or none.
    public static func sniff(_ head: [UInt8], fileName: String) -> MediaFormat? {
        if let format = sniff(head) { return format }
        if RAWReader.isTIFF(head) && RAWReader.extensions.contains(rawType(fileName) ?? "") { return .raw }
        guard RAWReader.isTIFF(head) || isBigTIFF(head) else { return nil }
        let ext = (fileName as NSString).pathExtension.lowercased()
        return ext.isEmpty || tiffExtensions.contains(ext) ? .tiff : nil
    }

    static func isBigTIFF(_ head: [UInt8]) -> Bool {
        head.starts(with: [0x49, 0x49, 0x2B, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2B])
    }

    /// The lower-case extension of `fileName` when it is a raw format's.
    static func rawType(_ fileName: String) -> String? {
        let ext = (fileName as NSString).pathExtension.lowercased()
        return RAWReader.extensions.contains(ext) ? ext : nil
    }

    /// Reads everything Shoebox needs without decoding pixels, fetching only the bytes it needs.
    /// `fileName` (last path component) is used for the file-name date fallback; dates after
    /// `now` + 1 day are implausible (`CaptureDate.isPlausible`).
    /// Throws MetadataError with a one-line user-facing message.
    public static func read(_ source: ByteSource, fileName: String, now: Date = Date()) throws -> MediaMetadata {
        guard source.count > 0 else { throw MetadataError(.empty, "empty file (0 bytes)") }
        let head = try source.read(at: 0, length: sniffLength)
        guard let format = sniff(head, fileName: fileName) else { throw MetadataError(.unrecognized, unrecognized(head)) }
        var m: MediaMetadata
        var exif: EXIFFields?, xmp: XMPFields?
        switch format {
        case .jpeg: (m, exif, xmp) = try JPEGReader.read(source)
        case .png: (m, exif, xmp) = try PNGReader.read(source)
        case .heic: (m, exif, xmp) = try HEIFReader.read(source)
        case .tiff: (m, exif, xmp) = try TIFFReader.read(source)
        case .mp4, .mov: m = try ISOBMFF.readVideo(source, format: format)
        case .raw:
            m = try RAWReader.read(source)
            m.rawType = rawType(fileName) ?? (head.count >= 12 && head[8..<12].elementsEqual("crx ".utf8) ? "cr3" : nil)
            // LibRaw gives no IPTC or XMP: a TIFF-based raw (NEF, CR2, ARW, DNG) carries them in
            // its first directory, as a TIFF does (Nikon's IPTC presets, a tool's keywords).
            if RAWReader.isTIFF(head), let tags = TIFFReader.annotations(source) {
                xmp = tags.xmp
                tags.iptc?.apply(to: &m)
            }
        }
        if format == .jpeg || format == .tiff || format == .raw {
            // An AFCP trailer's IPTC fills what the file's own IPTC left empty.
            AFCP.iptc(source).flatMap(IPTC.parse(iim:))?.apply(to: &m, underneath: true)
        }
        merge(&m, exif: exif, xmp: xmp, now: now)
        if m.takenAt == nil { m.takenAt = FileNameDate.parse(fileName).flatMap { $0.isPlausible(now: now) ? $0 : nil } }
        return m
    }

    /// Structural completeness (not a full decode). Returns nil when complete, else a short reason.
    public static func incompleteness(_ source: ByteSource, format: MediaFormat) -> String? {
        if source.count == 0 { return "file is empty (still being written?)" }
        switch format {
        case .jpeg: return JPEGReader.incompleteness(source)
        case .png: return PNGReader.incompleteness(source)
        case .heic, .mp4, .mov: return ISOBMFF.incompleteness(source, format: format)
        // LibRaw opened it; makers' containers have no common end to check. A TIFF's strips may
        // lie anywhere: its decode says when they are not all there.
        case .raw, .tiff: return nil
        }
    }

    /// EXIF wins over XMP field by field, XMP over what the format's reader put in `m` (IPTC-IIM
    /// in a JPEG, the container's own values in HEIC and videos). A capture date is the first
    /// plausible one in that order.
    static func merge(_ m: inout MediaMetadata, exif: EXIFFields?, xmp: XMPFields?, now: Date) {
        m.takenAt = [exif?.takenAt, xmp?.takenAt, m.takenAt].lazy.compactMap { $0 }.first { $0.isPlausible(now: now) }
        m.modifiedAt = exif?.modifiedAt.flatMap { $0.isPlausible(now: now) ? $0 : nil }
        m.hasExposure = exif?.hasExposure == true ? true : nil
        m.gps = exif?.gps ?? xmp?.gps ?? m.gps
        m.make = exif?.make ?? m.make
        m.model = exif?.model ?? m.model
        m.software = exif?.software ?? m.software
        m.contentIdentifier = exif?.contentIdentifier ?? m.contentIdentifier
        if let xmp {
            m.persons = XMP.deduplicated(m.persons + xmp.persons)
            m.faces += xmp.faces
            m.city = xmp.city ?? m.city
            m.country = xmp.country ?? m.country
            // Keywords add up rather than override: tools write IPTC and XMP lists that differ.
            let keywords = XMP.deduplicated((m.keywords ?? []) + xmp.keywords)
            m.keywords = keywords.isEmpty ? nil : keywords
        }
    }

    /// One line saying what the content is instead.
    static func unrecognized(_ head: [UInt8]) -> String {
        let what: String
        func starts(_ s: String) -> Bool { head.hasPrefix(Array(s.utf8)) }
        if starts("GIF8") { what = "a GIF image" }
        else if starts("RIFF"), head.count >= 12, String(decoding: head[8..<12], as: UTF8.self) == "WEBP" { what = "a WebP image" }
        else if starts("II*\0") || starts("MM\0*") { what = "a TIFF image or camera raw file" }
        else if head.count >= 12, String(decoding: head[4..<8], as: UTF8.self) == "ftyp" {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            // fourCC: the brand is file bytes, and the message goes to a terminal (NUL, ESC, newline …).
            what = avifBrands.contains(brand) ? "an AVIF image" : "an ISO media file of brand '\(fourCC(head.be32(8) ?? 0))'"
        }
        else if starts("%PDF") { what = "a PDF document" }
        else if starts("PK\u{3}\u{4}") { what = "a ZIP archive" }
        else if isText(head) { what = "text" }
        else if starts("BM") && head.count > 14 { what = "a BMP image" }
        else { what = "unknown binary data" }
        return "not a photo or video: content is \(what)"
    }

    private static func isText(_ head: [UInt8]) -> Bool {
        let sample = head.prefix(1024)
        guard !sample.isEmpty, !sample.contains(0) else { return false }
        let controls = sample.filter { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0x0C }.count
        guard controls == 0 else { return false }
        // The sample may end inside a multi-byte character.
        return (0...3).contains { String(validating: Array(sample.dropLast($0)), as: UTF8.self) != nil }
    }
}
