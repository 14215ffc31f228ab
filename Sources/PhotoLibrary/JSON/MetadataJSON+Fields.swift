import Foundation
import MetadataCore

/// The objects of a `MediaMetadata` as `ShoeboxJSON` writes them, on `MetadataJSON.Parser`'s
/// tokens. Each key at most once (`once(bit)`): a document with a duplicate goes to JSONDecoder,
/// the reference.
extension MetadataJSON.Parser {
    mutating func metadata() -> MediaMetadata? {
        var format: MediaFormat?
        var pixelWidth: Int?, pixelHeight: Int?, orientation: Int?
        var takenAt: CaptureDate?
        var gps: GPSCoordinate?
        var make: String?, model: String?, software: String?, city: String?, country: String?
        var persons: [String]?
        var faces: [FaceRegion]?
        var duration: Double?
        var contentIdentifier: String?
        var rawType: String?
        var modifiedAt: CaptureDate?, hasExposure: Bool?
        var keywords: [String]?
        var seen: UInt32 = 0
        func once(_ bit: Int) -> Bool { defer { seen |= 1 << bit }; return seen & (1 << bit) == 0 }
        let ok = object { p, key in
            switch key {
            case "format":
                guard once(0), let k = p.key() else { return false }
                switch k {
                case "jpeg": format = .jpeg
                case "png": format = .png
                case "heic": format = .heic
                case "mp4": format = .mp4
                case "mov": format = .mov
                case "raw": format = .raw
                case "tiff": format = .tiff
                default: return false
                }
            case "pixelWidth": guard once(1) else { return false }; pixelWidth = p.int(); return pixelWidth != nil
            case "pixelHeight": guard once(2) else { return false }; pixelHeight = p.int(); return pixelHeight != nil
            case "orientation": guard once(3) else { return false }; orientation = p.int(); return orientation != nil
            case "takenAt": return once(4) && p.optional(&takenAt) { $0.captureDate() }
            case "gps":
                guard once(5) else { return false }
                if p.null() { gps = nil; return true }
                var lat: Double?, lon: Double?
                guard p.object({ p, key in
                    switch key {
                    case "lat": guard lat == nil else { return false }; lat = p.double(); return lat != nil
                    case "lon": guard lon == nil else { return false }; lon = p.double(); return lon != nil
                    default: return p.skipValue()
                    }
                }), let lat, let lon else { return false }
                gps = GPSCoordinate(lat: lat, lon: lon)
            case "make": return once(6) && p.optionalString(&make)
            case "model": return once(7) && p.optionalString(&model)
            case "software": return once(8) && p.optionalString(&software)
            case "city": return once(9) && p.optionalString(&city)
            case "country": return once(10) && p.optionalString(&country)
            case "persons":
                guard once(11), let list = p.strings() else { return false }
                persons = list
            case "faces":
                guard once(12) else { return false }
                var list: [FaceRegion] = []
                guard p.array({ p in
                    guard let f = p.face() else { return false }
                    list.append(f)
                    return true
                }) else { return false }
                faces = list
            case "duration":
                guard once(13) else { return false }
                if p.null() { duration = nil; return true }
                duration = p.double()
                return duration != nil
            case "contentIdentifier": return once(14) && p.optionalString(&contentIdentifier)
            // Rare (a sidecar beside the photo): JSONDecoder reads those rows.
            case "xmpSidecar": return p.null()
            case "rawType": return once(15) && p.optionalString(&rawType)
            case "modifiedAt": return once(16) && p.optional(&modifiedAt) { $0.captureDate() }
            case "hasExposure": return once(17) && p.optional(&hasExposure) { $0.bool() }
            case "keywords": return once(18) && p.optional(&keywords) { $0.strings() }
            default:
                return p.skipValue()
            }
            return true
        }
        guard ok, let format, let pixelWidth, let pixelHeight, let orientation, let persons, let faces else { return nil }
        return MediaMetadata(format: format, pixelWidth: pixelWidth, pixelHeight: pixelHeight, orientation: orientation,
                             takenAt: takenAt, gps: gps, make: make, model: model, software: software, persons: persons,
                             faces: faces, city: city, country: country, duration: duration,
                             contentIdentifier: contentIdentifier, rawType: rawType,
                             modifiedAt: modifiedAt, hasExposure: hasExposure, keywords: keywords)
    }

    /// An array of strings.
    mutating func strings() -> [String]? {
        var list: [String] = []
        guard array({ p in
            guard let s = p.string() else { return false }
            list.append(s)
            return true
        }) else { return nil }
        return list
    }

    mutating func captureDate() -> CaptureDate? {
        var date: Date?, offset: Int?, source: DateSource?
        var seen: UInt32 = 0
        func once(_ bit: Int) -> Bool { defer { seen |= 1 << bit }; return seen & (1 << bit) == 0 }
        guard object({ p, key in
            switch key {
            case "date":
                guard once(0) else { return false }
                if let k = p.key(), let d = MetadataJSON.date(k.bytes) {
                    date = d
                    return true
                }
                return false
            case "utcOffsetSeconds":
                guard once(1) else { return false }
                if p.null() { offset = nil; return true }
                offset = p.int()
                return offset != nil
            case "source":
                guard once(2), let k = p.key() else { return false }
                switch k {
                case "exif": source = .exif
                case "xmp": source = .xmp
                case "iptc": source = .iptc
                case "exif_modified": source = .exifModified
                case "container": source = .container
                case "filename": source = .filename
                case "mtime": source = .mtime
                default: return false
                }
            default:
                return p.skipValue()
            }
            return true
        }), let date, let source else { return nil }
        return CaptureDate(date: date, utcOffsetSeconds: offset, source: source)
    }

    mutating func face() -> FaceRegion? {
        var x: Double?, y: Double?, w: Double?, h: Double?, name: String?
        var seen: UInt32 = 0
        func once(_ bit: Int) -> Bool { defer { seen |= 1 << bit }; return seen & (1 << bit) == 0 }
        guard object({ p, key in
            switch key {
            case "x": guard once(0) else { return false }; x = p.double(); return x != nil
            case "y": guard once(1) else { return false }; y = p.double(); return y != nil
            case "w": guard once(2) else { return false }; w = p.double(); return w != nil
            case "h": guard once(3) else { return false }; h = p.double(); return h != nil
            case "name": return once(4) && p.optionalString(&name)
            default: return p.skipValue()
            }
        }), let x, let y, let w, let h else { return nil }
        return FaceRegion(x: x, y: y, w: w, h: h, name: name)
    }
}
