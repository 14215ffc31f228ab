import CLibXML2

/// An element with its namespace resolved (its attributes' too).
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

/// Builds a bounded element tree of an XMP packet with libxml2's SAX2 push parser, which resolves
/// every element's and attribute's namespace itself. No network, no DTD (`XMP.properties` refuses
/// a packet that has one before it gets here, so no entity but XML's five exists), no processing
/// instruction or comment handler; errors go to a handler that drops them (libxml2 would print
/// them on stderr). Too deep or too many elements stops the parse and refuses the packet.
///
/// libxml2 directly rather than through Foundation's XMLParser: that wrapper made an NSString per
/// name, a dictionary per element and a delegate call per event — two thirds of the XMP's cost and
/// ~3 % of a cold scan of camera JPEGs (issue 33). libxml2 is the parser in both cases.
final class XMPTree {
    private var stack = [Node(uri: "", name: "#document")]
    private var elements = 0
    private var refused = false
    private var context: xmlParserCtxtPtr?

    /// libxml2's global state, set up once before any thread parses (its documented requirement):
    /// a static's initialiser runs exactly once, whichever thread reads it first.
    private static let libxml2SetUp: Void = xmlInitParser()

    /// The tree of `bytes` (UTF-8 without a declaration, see `XMP.utf8`); a packet libxml2 stops
    /// on part-way still gives what it read before (as Foundation's parser did); nil when refused.
    static func parse(_ bytes: [UInt8]) -> Node? {
        _ = libxml2SetUp
        let tree = XMPTree()
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { ctx, localname, _, uri, _, _, count, _, attributes in
            XMPTree.of(ctx).start(localname, uri, Int(count), attributes)
        }
        handler.endElementNs = { ctx, _, _, _ in XMPTree.of(ctx).end() }
        handler.characters = { ctx, text, length in XMPTree.of(ctx).characters(text, Int(length)) }
        handler.cdataBlock = { ctx, text, length in XMPTree.of(ctx).characters(text, Int(length)) }
        handler.serror = { _, _ in }
        let user = Unmanaged.passUnretained(tree).toOpaque()
        guard let context = xmlCreatePushParserCtxt(&handler, user, nil, 0, nil) else { return nil }
        defer { xmlFreeParserCtxt(context) }
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOERROR.rawValue))
        tree.context = context
        _ = bytes.withUnsafeBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { xmlParseChunk(context, $0, Int32(b.count), 1) }
        }
        tree.context = nil
        return tree.refused ? nil : tree.stack.first
    }

    private static func of(_ ctx: UnsafeMutableRawPointer?) -> XMPTree {
        Unmanaged<XMPTree>.fromOpaque(ctx!).takeUnretainedValue()
    }

    private func refuse() {
        refused = true
        if let context { xmlStopParser(context) }
    }

    /// `attributes` holds five pointers an attribute: local name, prefix, URI, value start and end.
    private func start(_ localname: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?, _ count: Int,
                       _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        guard !refused else { return }
        elements += 1
        guard stack.count <= XMP.maximumDepth, elements <= XMP.maximumNodes else { return refuse() }
        let node = Node(uri: XMPTree.string(uri), name: XMPTree.string(localname))
        for i in 0..<count {
            guard let a = attributes?.advanced(by: 5 * i), let start = a[3], let end = a[4] else { continue }
            let value = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
            node.attributes.append((XMPTree.string(a[2]), XMPTree.string(a[0]), XMPTree.unescapedAmpersands(value)))
        }
        stack.last!.children.append(node)
        stack.append(node)
    }

    private func end() {
        guard !refused, stack.count > 1 else { return }
        stack.removeLast()
    }

    private func characters(_ text: UnsafePointer<xmlChar>?, _ length: Int) {
        guard !refused, stack.count > 1, let text, length > 0 else { return }
        let node = stack.last!
        // Text only matters in leaves; a cap keeps a hostile megabyte of text from piling up twice.
        if node.text.utf8.count < 64 << 10 {
            node.text += String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)
        }
    }

    private static func string(_ p: UnsafePointer<xmlChar>?) -> String {
        guard let p else { return "" }
        return String(cString: p)
    }

    /// An attribute value as written: without entity substitution (which stays off, so that no
    /// entity could ever be expanded) libxml2 hands an attribute's `&amp;` or `&#38;` on as
    /// "&#38;" for its tree builder to decode; that decoding is this.
    static func unescapedAmpersands(_ value: String) -> String {
        value.contains("&#38;") ? value.replacingOccurrences(of: "&#38;", with: "&") : value
    }
}
