import MetadataCore
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

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
        if contains(bytes, "<!DOCTYPE") || contains(bytes, "<!ENTITY") { return nil }
        guard let root = TreeBuilder.parse(Data(bytes)) else { return nil }
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
            if let n = v.text?.trimmingCharacters(in: .whitespaces), !n.isEmpty { f.persons.append(n) }
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
        if let t = p(ns.xmp, "Rating")?.text, let r = Double(t.trimmingCharacters(in: .whitespaces)),
           r.isFinite, (-1...5).contains(r) { f.rating = Int(r.rounded()) }
        f.keywords = deduplicated((p(ns.dc, "subject")?.items ?? []).compactMap {
            $0.text?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
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
        return .text(p.text.trimmingCharacters(in: .whitespacesAndNewlines))
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
            let name = region["Name"]?.text?.trimmingCharacters(in: .whitespaces)
            if let face = face(x: cx - w / 2, y: cy - h / 2, w: w, h: h, name: name) { out.append(face) }
        }
        return out
    }

    /// Windows Photo Gallery regions: "x, y, w, h" with x/y the top-left corner, normalised.
    private static func microsoftFaces(_ info: XMPValue?) -> [FaceRegion] {
        guard let info else { return [] }
        var out: [FaceRegion] = []
        for region in info["Regions"]?.items ?? [] {
            let name = region["PersonDisplayName"]?.text?.trimmingCharacters(in: .whitespaces)
            let parts = (region["Rectangle"]?.text ?? "").split(separator: ",")
                .compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
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
        var t = text.trimmingCharacters(in: .whitespaces).uppercased()
        guard let last = t.last else { return nil }
        var sign = 1.0
        if "NSEW".contains(last) {
            if last == "S" || last == "W" { sign = -1 }
            t.removeLast()
        }
        let parts = t.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ $0 != nil }) else { return nil }
        let v = parts.enumerated().reduce(0.0) { $0 + $1.element! / [1, 60, 3600][$1.offset] }
        return sign * v
    }

    /// The packet as valid UTF-8 without an XML declaration. Foundation's XMLParser on Linux traps
    /// (force-unwraps) when libxml2, recovering from an error, hands it a name that is not valid
    /// UTF-8, so invalid sequences are replaced before parsing, and a declaration that could make
    /// libxml2 transcode from another encoding is dropped (XMP is UTF-8 in JPEG and PNG). And
    /// processing instructions get data (`withInstructionData`).
    static func utf8(_ packet: [UInt8]) -> [UInt8] {
        var text = decodeText(packet)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.hasPrefix("<?xml "), let end = trimmed.range(of: "?>") {
            text = String(trimmed[end.upperBound...])
        }
        // Control characters other than tab/newline are not XML; libxml2 would stop at them anyway.
        return withInstructionData(Array(text.utf8).map { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D ? 0x20 : $0 })
    }

    /// `<?name?>` made `<?name ?>`. libxml2 reports a processing instruction without data with a
    /// NULL pointer, which Foundation's XMLParser hands to strlen: a crash (found by Fuzz/run).
    /// With the space its data is empty instead of absent. XMP has no such instructions (inside
    /// a comment or CDATA, text gains a space). Linear: a scan for the name stops at the next "<".
    static func withInstructionData(_ b: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            if b[i] == UInt8(ascii: "<"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "?") {
                var j = i + 2
                scan: while j < b.count {
                    switch b[j] {
                    case UInt8(ascii: "?"), UInt8(ascii: ">"), UInt8(ascii: "<"), 0x20, 0x09, 0x0A, 0x0D: break scan
                    default: j += 1
                    }
                }
                if j + 1 < b.count, b[j] == UInt8(ascii: "?"), b[j + 1] == UInt8(ascii: ">") {
                    out += b[i..<j]
                    out.append(0x20)
                    i = j
                    continue
                }
            }
            out.append(b[i])
            i += 1
        }
        return out
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

// MARK: - XML tree

/// An element with its namespace resolved (attributes too, which XMLParser leaves prefixed).
final class Node {
    let uri: String
    let name: String
    var attributes: [(uri: String, name: String, value: String)] = []
    var children: [Node] = []
    var text = ""

    init(uri: String, name: String) { self.uri = uri; self.name = name }

    func attribute(_ uri: String, _ name: String) -> String? {
        attributes.first { $0.uri == uri && $0.name == name }?.value
    }

    /// Depth-first search; the tree is at most `XMP.maximumDepth` deep.
    func first(uri: String, name: String) -> Node? {
        if self.uri == uri && self.name == name { return self }
        for c in children { if let hit = c.first(uri: uri, name: name) { return hit } }
        return nil
    }
}

/// Builds a bounded tree with Foundation's XMLParser (libxml2 underneath) with namespace
/// processing, never fetching external entities; too deep or too many nodes aborts the parse.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [Node]
    private var prefixes: [String: [String]] = ["xml": [XMP.ns.xml]]
    private var nodes = 0
    private(set) var refused = false

    private override init() {
        stack = [Node(uri: "", name: "#document")]
    }

    static func parse(_ data: Data) -> Node? {
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        _ = parser.parse()  // a recoverable error still leaves a usable tree
        parser.delegate = nil
        guard !builder.refused, let root = builder.stack.first else { return nil }
        return root
    }

    private func refuse(_ parser: XMLParser) {
        refused = true
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
        prefixes[prefix, default: []].append(namespaceURI)
    }

    func parser(_ parser: XMLParser, didEndMappingPrefix prefix: String) {
        _ = prefixes[prefix]?.popLast()
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard !refused else { return }
        nodes += 1
        guard stack.count <= XMP.maximumDepth, nodes <= XMP.maximumNodes else { return refuse(parser) }
        let node = Node(uri: namespaceURI ?? "", name: elementName)
        for (key, value) in attributeDict.sorted(by: { $0.key < $1.key }) {
            if let colon = key.firstIndex(of: ":") {
                let prefix = String(key[..<colon])
                if prefix == "xmlns" { continue }
                let uri = prefixes[prefix]?.last ?? ""
                node.attributes.append((uri, String(key[key.index(after: colon)...]), value))
            } else if key != "xmlns" {
                node.attributes.append(("", key, value))
            }
        }
        stack.last!.children.append(node)
        stack.append(node)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard !refused, stack.count > 1 else { return }
        stack.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !refused, stack.count > 1 else { return }
        let node = stack.last!
        // Text only matters in leaves; a cap keeps a hostile megabyte of text from piling up twice.
        if node.text.utf8.count < 64 << 10 { node.text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        self.parser(parser, foundCharacters: String(decoding: CDATABlock, as: UTF8.self))
    }
}
