import Foundation
@_exported import MetadataCore

extension MetadataReader {
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
            if RawSignature.isTIFF(head), let tags = TIFFReader.annotations(source) {
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

/// `MetadataReader` and `XMPSidecar.merge` behind the core's `MetadataReading`, which PhotoLibrary
/// and Tracker read files through (found by `MetadataReaders` wherever this module is linked).
public struct CodecMetadataReader: MetadataReading {
    public init() {}

    public func read(_ source: ByteSource, fileName: String, now: Date) throws -> MediaMetadata {
        try MetadataReader.read(source, fileName: fileName, now: now)
    }

    public func incompleteness(_ source: ByteSource, format: MediaFormat) -> String? {
        MetadataReader.incompleteness(source, format: format)
    }

    public var sidecarMaximumSize: Int { XMPSidecar.maximumSize }

    public func mergeSidecar(_ packet: [UInt8], into m: inout MediaMetadata, stamp: XMPSidecar) -> Bool {
        XMPSidecar.merge(packet, into: &m, stamp: stamp)
    }
}
