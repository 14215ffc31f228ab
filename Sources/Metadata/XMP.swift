import MetadataCore
import Foundation

/// What Shoebox takes from an XMP packet.
struct XMPFields: Equatable {
    var persons: [String] = []
    var faces: [FaceRegion] = []
    var city: String?
    var country: String?
    var takenAt: CaptureDate?
    var gps: GPSCoordinate?
    /// `xmp:Rating`: -1 (rejected) to 5.
    var rating: Int?
    /// `dc:subject`, in file order.
    var keywords: [String] = []
}

/// A qualified XMP name: namespace URI and local name.
struct XMPName: Hashable {
    var uri: String
    var name: String
    init(_ uri: String, _ name: String) { self.uri = uri; self.name = name }
}

/// An RDF property value in the three shapes XMP uses.
indirect enum XMPValue: Equatable {
    case text(String)
    case array([XMPValue])
    case structure([XMPName: XMPValue])

    var text: String? {
        switch self {
        case .text(let s): return s.isEmpty ? nil : s
        case .array(let a): return a.first?.text  // an Alt or a one-item Bag read as text
        case .structure(let s): return s[XMPName(XMP.ns.rdf, "value")]?.text
        }
    }

    /// Items of an array; a lone value counts as a one-item array (writers disagree).
    var items: [XMPValue] {
        if case .array(let a) = self { return a }
        return [self]
    }

    /// A structure field by local name: the namespaces of struct fields vary between writers
    /// (stArea, stDim, mwg-rs …), their local names do not.
    subscript(_ local: String) -> XMPValue? {
        guard case .structure(let s) = self else { return nil }
        if let hit = s.first(where: { $0.key.name == local }) { return hit.value }
        return nil
    }
}

typealias XMPProperties = [XMPName: XMPValue]

enum XMP {
    /// Hostile-input limits: a real packet is a few KiB; Adobe caps JPEG XMP at 64 KiB
    /// plus extended chunks, so 4 MiB is generous.
    static let maximumSize = 4 << 20
    static let maximumDepth = 64
    static let maximumNodes = 200_000

    enum ns {
        static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
        static let xml = "http://www.w3.org/XML/1998/namespace"
        static let xmp = "http://ns.adobe.com/xap/1.0/"
        static let xmpNote = "http://ns.adobe.com/xmp/note/"
        static let exif = "http://ns.adobe.com/exif/1.0/"
        static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
        static let iptcCore = "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"
        static let iptcExt = "http://iptc.org/std/Iptc4xmpExt/2008-02-29/"
        static let mwgRegions = "http://www.metadataworkinggroup.com/schemas/regions/"
        static let microsoftPhoto = "http://ns.microsoft.com/photo/1.2/"
        static let dc = "http://purl.org/dc/elements/1.1/"
    }

    /// Parses a packet into its properties; nil when it is not XMP Shoebox will read
    /// (too big, a DTD — XMP never has one, so entity tricks are refused outright — too deep, not XML).
    static func properties(_ packet: [UInt8]) -> XMPProperties? {
        guard !packet.isEmpty, packet.count <= maximumSize else { return nil }
        var bytes = utf8(packet)
        while let last = bytes.last, last == 0 || last == 0x20 || last == 0x0A { bytes.removeLast() }
        // What follows the root element — the padding (kilobytes of spaces left for rewriting in
        // place) and the closing `<?xpacket end?>` — is not given to the parser.
        if let end = endOfRoot(bytes) { bytes.removeSubrange(end...) }
        if contains(bytes, "<!DOCTYPE") || contains(bytes, "<!ENTITY") { return nil }
        guard let root = XMPTree.parse(bytes) else { return nil }
        guard let rdf = root.first(uri: ns.rdf, name: "RDF") else { return nil }
        var props = XMPProperties()
        for d in rdf.children where d.uri == ns.rdf && d.name == "Description" {
            props.merge(description(d)) { first, _ in first }
        }
        return props
    }

    static func fields(_ props: XMPProperties) -> XMPFields {
        var f = XMPFields()
        func p(_ uri: String, _ name: String) -> XMPValue? { props[XMPName(uri, name)] }

        for v in p(ns.iptcExt, "PersonInImage")?.items ?? [] {
            if let n = v.text?.trimmedWhitespace(), !n.isEmpty { f.persons.append(n) }
        }
        // The MWG property is mwg-rs:Regions (its type is RegionInfo, which some writers use as the name).
        f.faces = mwgFaces(p(ns.mwgRegions, "Regions") ?? p(ns.mwgRegions, "RegionInfo")) + microsoftFaces(p(ns.microsoftPhoto, "RegionInfo"))
        for face in f.faces { if let n = face.name { f.persons.append(n) } }
        f.persons = deduplicated(f.persons)

        let locations = (p(ns.iptcExt, "LocationCreated")?.items ?? []) + (p(ns.iptcExt, "LocationShown")?.items ?? [])
        f.city = p(ns.photoshop, "City")?.text ?? locations.lazy.compactMap { $0["City"]?.text }.first
        f.country = p(ns.photoshop, "Country")?.text ?? locations.lazy.compactMap { $0["CountryName"]?.text }.first
            ?? p(ns.iptcCore, "CountryCode")?.text ?? locations.lazy.compactMap { $0["CountryCode"]?.text }.first

        for (uri, name) in [(ns.exif, "DateTimeOriginal"), (ns.photoshop, "DateCreated"), (ns.xmp, "CreateDate")] {
            if let t = p(uri, name)?.text, let d = DateText.iso8601(t, source: .xmp) { f.takenAt = d; break }
        }
        if let la = p(ns.exif, "GPSLatitude")?.text.flatMap(xmpDegrees),
           let lo = p(ns.exif, "GPSLongitude")?.text.flatMap(xmpDegrees) {
            f.gps = GPSCoordinate.validated(lat: la, lon: lo)
        }
        // Lightroom writes "3", some tools "3.0"; anything outside -1…5 is not a rating.
        if let t = p(ns.xmp, "Rating")?.text, let r = Double(t.trimmedWhitespace()),
           r.isFinite, (-1...5).contains(r) { f.rating = Int(r.rounded()) }
        f.keywords = deduplicated((p(ns.dc, "subject")?.items ?? []).compactMap {
            $0.text?.trimmedWhitespace() }.filter { !$0.isEmpty })
        return f
    }

    /// The GUID of the ExtendedXMP that completes this packet (JPEG only).
    static func extendedGUID(_ props: XMPProperties) -> String? {
        props[XMPName(ns.xmpNote, "HasExtendedXMP")]?.text
    }

    // MARK: RDF

    /// Properties of an rdf:Description (or of a parseType="Resource" element): attributes are
    /// simple properties, child elements are properties of any shape.
    private static func description(_ node: Node) -> XMPProperties {
        var props = XMPProperties()
        for a in node.attributes where a.uri != ns.rdf && a.uri != ns.xml && !a.uri.isEmpty {
            props[XMPName(a.uri, a.name)] = .text(a.value)
        }
        for c in node.children where !(c.uri == ns.rdf && c.name == "li") {
            if props[XMPName(c.uri, c.name)] == nil { props[XMPName(c.uri, c.name)] = value(c) }
        }
        return props
    }

    private static func value(_ p: Node) -> XMPValue {
        if let r = p.attribute(ns.rdf, "resource") { return .text(r) }
        if p.attribute(ns.rdf, "parseType") == "Resource" { return .structure(description(p)) }
        if let first = p.children.first, first.uri == ns.rdf {
            switch first.name {
            case "Bag", "Seq", "Alt":
                return .array(first.children.filter { $0.uri == ns.rdf && $0.name == "li" }.map(value))
            case "Description":
                return .structure(description(first))
            default: break
            }
        }
        let qualifiers = p.attributes.contains { $0.uri != ns.rdf && $0.uri != ns.xml && !$0.uri.isEmpty }
        if qualifiers || !p.children.isEmpty { return .structure(description(p)) }
        return .text(p.text.trimmedWhitespaceAndNewlines())
    }

    // MARK: Regions

    /// MWG regions: centre x/y and size, normalised to the upright image (the MWG spec's
    /// convention: regions follow the displayed image, so no orientation is applied here).
    private static func mwgFaces(_ info: XMPValue?) -> [FaceRegion] {
        guard let info else { return [] }
        let dims = info["AppliedToDimensions"]
        let dimW = dims?["w"]?.text.flatMap(Double.init), dimH = dims?["h"]?.text.flatMap(Double.init)
        var out: [FaceRegion] = []
        for region in info["RegionList"]?.items ?? [] {
            if let type = region["Type"]?.text, type != "Face" { continue }
            guard let area = region["Area"],
                  var cx = area["x"]?.text.flatMap(Double.init), var cy = area["y"]?.text.flatMap(Double.init),
                  var w = area["w"]?.text.flatMap(Double.init), var h = area["h"]?.text.flatMap(Double.init)
            else { continue }
            if let unit = area["unit"]?.text, unit.lowercased() == "pixel" {
                guard let dimW, let dimH, dimW > 0, dimH > 0 else { continue }
                cx /= dimW; w /= dimW; cy /= dimH; h /= dimH
            }
            let name = region["Name"]?.text?.trimmedWhitespace()
            if let face = face(x: cx - w / 2, y: cy - h / 2, w: w, h: h, name: name) { out.append(face) }
        }
        return out
    }

    /// Windows Photo Gallery regions: "x, y, w, h" with x/y the top-left corner, normalised.
    private static func microsoftFaces(_ info: XMPValue?) -> [FaceRegion] {
        guard let info else { return [] }
        var out: [FaceRegion] = []
        for region in info["Regions"]?.items ?? [] {
            let name = region["PersonDisplayName"]?.text?.trimmedWhitespace()
            let parts = (region["Rectangle"]?.text ?? "").split(separator: ",")
                .compactMap { Double($0.trimmedWhitespace()) }
            guard parts.count == 4 else { continue }
            if let face = face(x: parts[0], y: parts[1], w: parts[2], h: parts[3], name: name) { out.append(face) }
        }
        return out
    }

    private static func face(x: Double, y: Double, w: Double, h: Double, name: String?) -> FaceRegion? {
        guard [x, y, w, h].allSatisfy(\.isFinite), w > 0, h > 0, w <= 1.5, h <= 1.5, abs(x) <= 2, abs(y) <= 2
        else { return nil }
        return FaceRegion(x: x, y: y, w: w, h: h, name: name?.isEmpty == true ? nil : name)
    }

    // MARK: Helpers

    /// XMP GPS: "38,43.02N" (degrees, decimal minutes) or "38,43,1.2N"; a plain signed decimal too.
    static func xmpDegrees(_ text: String) -> Double? {
        var t = text.trimmedWhitespace().uppercased()
        guard let last = t.last else { return nil }
        var sign = 1.0
        if "NSEW".contains(last) {
            if last == "S" || last == "W" { sign = -1 }
            t.removeLast()
        }
        let parts = t.split(separator: ",").map { Double($0.trimmedWhitespace()) }
        guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ $0 != nil }) else { return nil }
        let v = parts.enumerated().reduce(0.0) { $0 + $1.element! / [1, 60, 3600][$1.offset] }
        return sign * v
    }

    /// The packet as valid UTF-8 without an XML declaration: invalid sequences are replaced before
    /// parsing (libxml2 stops at the first, and the rest of a packet with one stray byte is
    /// worth reading), and a declaration that could make libxml2 transcode from another encoding
    /// is dropped (XMP is UTF-8 in JPEG and PNG; `decodeText` read UTF-16 and UTF-32 already).
    static func utf8(_ packet: [UInt8]) -> [UInt8] {
        // A packet that opens with "<" but not a declaration, in valid UTF-8 without control
        // characters — a camera's or an editor's, nearly always — is already what this makes.
        if packet.first == UInt8(ascii: "<"), packet.count > 1, packet[1] != 0, !packet.starts(with: Array("<?xml ".utf8)),
           !packet.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }),
           String(validating: packet, as: UTF8.self) != nil {
            return packet
        }
        var text = decodeText(packet)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.hasPrefix("<?xml "), let end = trimmed.range(of: "?>") {
            text = String(trimmed[end.upperBound...])
        }
        // Control characters other than tab/newline are not XML; libxml2 would stop at them anyway.
        return Array(text.utf8).map { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D ? 0x20 : $0 }
    }

    /// Where the packet's `</x:xmpmeta>` ends, the last one, searched from the end; nil when it has none.
    static func endOfRoot(_ bytes: [UInt8]) -> Int? {
        let close = Array("</x:xmpmeta>".utf8)
        var i = bytes.count - close.count
        while i >= 0 {
            if bytes[i] == UInt8(ascii: "<"), bytes.hasPrefix(close, at: i) { return i + close.count }
            i -= 1
        }
        return nil
    }

    static func deduplicated(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    private static func contains(_ bytes: [UInt8], _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard bytes.count >= n.count else { return false }
        var i = 0
        while i + n.count <= bytes.count {
            guard let j = bytes[i...(bytes.count - n.count)].firstIndex(of: n[0]) else { return false }
            if bytes.hasPrefix(n, at: j) { return true }
            i = j + 1
        }
        return false
    }
}
