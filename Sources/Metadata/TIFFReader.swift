import MetadataCore
import CLazyCodecs
import Foundation

/// A plain TIFF (a scan, an editor's export) through libtiff: the first directory's size and
/// orientation, its EXIF and GPS directories, its embedded XMP (tag 700) and its IPTC (tag 33723,
/// or the Photoshop resources of tag 34377). Only tags are read, no strip or tile.
enum TIFFReader {
    static func read(_ source: ByteSource) throws -> (metadata: MediaMetadata, exif: EXIFFields?, xmp: XMPFields?) {
        let tiff = try TIFFFile(source, name: "the TIFF")
        guard let w = tiff.uint32(UInt32(TIFFTAG_IMAGEWIDTH)), let h = tiff.uint32(UInt32(TIFFTAG_IMAGELENGTH)),
              w > 0, h > 0 else {
            throw MetadataError(.corrupt, "corrupt TIFF: no image size in its first directory")
        }
        try checkPixelBudget(width: Int(w), height: Int(h))
        var m = MediaMetadata(format: .tiff, pixelWidth: Int(w), pixelHeight: Int(h))
        let (xmp, iptc) = annotations(tiff)
        var exif = EXIFFields()
        if let o = tiff.uint16(UInt32(TIFFTAG_ORIENTATION)), (1...8).contains(Int(o)) { exif.orientation = Int(o) }
        exif.make = tiff.text(UInt32(TIFFTAG_MAKE))
        exif.model = tiff.text(UInt32(TIFFTAG_MODEL))
        exif.software = tiff.text(UInt32(TIFFTAG_SOFTWARE))
        let modified = tiff.text(UInt32(TIFFTAG_DATETIME))
        // The sub-directories last: reading one replaces the current directory's tags.
        let exifOffset = tiff.offset(UInt32(TIFFTAG_EXIFIFD)), gpsOffset = tiff.offset(UInt32(TIFFTAG_GPSIFD))
        if let exifOffset, shoebox_TIFFReadEXIFDirectory(tiff.handle, exifOffset) == 1 {
            let offset = tiff.text(UInt32(EXIFTAG_OFFSETTIME))
            exif.modifiedAt = modified.flatMap { DateText.exif($0, subSeconds: tiff.text(UInt32(EXIFTAG_SUBSECTIME)), offset: offset, source: .exifModified) }
            exif.takenAt = captureDate(tiff, fallbackOffset: offset)
            exif.hasExposure = [EXIFTAG_EXPOSURETIME, EXIFTAG_FNUMBER, EXIFTAG_ISOSPEEDRATINGS]
                .contains { tiff.field(UInt32($0)) { _, _ in true } == true }
        } else {
            exif.modifiedAt = modified.flatMap { DateText.exif($0, subSeconds: nil, offset: nil, source: .exifModified) }
        }
        if let gpsOffset, shoebox_TIFFReadGPSDirectory(tiff.handle, gpsOffset) == 1 { exif.gps = gps(tiff) }
        m.orientation = exif.orientation ?? 1
        iptc?.apply(to: &m)
        return (m, exif == EXIFFields() ? nil : exif, xmp)
    }

    /// What a person wrote into the first directory: XMP (tag 700) and IPTC-IIM (tag 33723, else
    /// the IPTC resource of Photoshop's tag 34377).
    static func annotations(_ tiff: TIFFFile) -> (xmp: XMPFields?, iptc: IPTCFields?) {
        let xmp = tiff.bytes(UInt32(TIFFTAG_XMLPACKET), limit: XMP.maximumSize).flatMap(XMP.properties).map(XMP.fields)
        let iptc = tiff.bytes(UInt32(TIFFTAG_RICHTIFFIPTC), limit: IPTC.maximumSize).flatMap(IPTC.parse(iim:))
            ?? tiff.bytes(UInt32(TIFFTAG_PHOTOSHOP), limit: IPTC.maximumSize).flatMap { IPTC.parse(photoshop: IPTC.photoshopSignature + $0) }
        return (xmp, iptc)
    }

    /// `annotations` of any TIFF-structured file (a camera raw file); nil when libtiff cannot
    /// open it, which says nothing about the file (LibRaw reads it).
    static func annotations(_ source: ByteSource) -> (xmp: XMPFields?, iptc: IPTCFields?)? {
        guard let tiff = try? TIFFFile(source, name: "the raw file") else { return nil }
        return annotations(tiff)
    }


    /// DateTimeOriginal, else DateTimeDigitized, each with its sub-seconds and offset.
    private static func captureDate(_ tiff: TIFFFile, fallbackOffset: String?) -> CaptureDate? {
        let candidates: [(Int32, Int32, Int32)] = [
            (EXIFTAG_DATETIMEORIGINAL, EXIFTAG_SUBSECTIMEORIGINAL, EXIFTAG_OFFSETTIMEORIGINAL),
            (EXIFTAG_DATETIMEDIGITIZED, EXIFTAG_SUBSECTIMEDIGITIZED, EXIFTAG_OFFSETTIMEDIGITIZED),
        ]
        for (dateTag, subTag, offsetTag) in candidates {
            guard let t = tiff.text(UInt32(dateTag)) else { continue }
            let offset = tiff.text(UInt32(offsetTag)) ?? fallbackOffset
            if let d = DateText.exif(t, subSeconds: tiff.text(UInt32(subTag)), offset: offset) { return d }
        }
        return nil
    }

    /// Latitude and longitude from the GPS directory: three rationals each, which libtiff keeps
    /// as floats or doubles depending on its version (asked of the field, not assumed).
    private static func gps(_ tiff: TIFFFile) -> GPSCoordinate? {
        func degrees(_ tag: Int32) -> Double? {
            guard let field = shoebox_TIFFFieldWithTag(tiff.handle, UInt32(tag)) else { return nil }
            let size = shoebox_TIFFFieldSetGetSize(field)
            return tiff.field(UInt32(tag)) { a, _ -> Double? in
                guard let p = a.load(as: UnsafeRawPointer?.self) else { return nil }
                let dms: [Double] = size == 8 ? (0..<3).map { p.load(fromByteOffset: $0 * 8, as: Double.self) }
                    : (0..<3).map { Double(p.load(fromByteOffset: $0 * 4, as: Float.self)) }
                guard dms.allSatisfy(\.isFinite) else { return nil }
                return dms[0] + dms[1] / 60 + dms[2] / 3600
            }
        }
        guard let lat = degrees(GPSTAG_LATITUDE), let lon = degrees(GPSTAG_LONGITUDE) else { return nil }
        let south = tiff.text(UInt32(GPSTAG_LATITUDEREF))?.uppercased().hasPrefix("S") ?? false
        let west = tiff.text(UInt32(GPSTAG_LONGITUDEREF))?.uppercased().hasPrefix("W") ?? false
        return GPSCoordinate.validated(lat: south ? -lat : lat, lon: west ? -lon : lon)
    }
}

extension TIFFFile {
    /// An IFD offset tag (EXIF, GPS): 64-bit in libtiff 4.
    func offset(_ tag: UInt32) -> toff_t? {
        field(tag) { a, _ -> toff_t? in
            let v = a.load(as: UInt64.self)
            return v > 0 ? v : nil
        }
    }
}
