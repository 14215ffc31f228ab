import Foundation

/// The one writer of `--json` output: the bytes `ShoeboxJSON.document` (JSONEncoder with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`) writes for any shape, made without
/// JSONEncoder's tree of boxed values, and handed to `output` in pieces while no object is open,
/// so a long top-level array (`list`, `tidy similar`, `trash list` …) is never held whole.
/// JSONEncoder's rules, as followed here: keys sorted by their UTF-8 bytes (a key written twice:
/// the last value), `"key" : value`, two spaces per level, `,` + newline between members, an empty
/// array or object as its bracket, two newlines, the indentation and the closing bracket; numbers
/// as Swift's `description` with a trailing `.0` cut (non-finite ones an error); in strings `"` `\`
/// and control characters escaped (`\b \f \n \r \t`, else `\u00xx`), everything else as is; dates
/// as `ShoeboxJSON.makeEncoder` writes them, URLs as their absolute string, data as base64.
/// An object's members are written as they come and put in order when it closes.
public final class JSONStreamWriter {
    /// What is written and not yet handed out. Written through `JSONBytes`' methods, each one
    /// access to this property (a class's stored property is checked for exclusive access at
    /// run time on every access; the asset shape takes it out for all its members at once).
    var out = JSONBytes()
    private let output: ([UInt8]) -> Void
    private var nodes: [JSONStreamNode] = []
    /// Objects not yet closed: their bytes may still be reordered, so nothing is handed out.
    var openObjects = 0
    private var arrayCount = 0

    public init(output: @escaping ([UInt8]) -> Void) {
        self.output = output
        out.bytes.reserveCapacity(1 << 16)
    }

    /// `pretty: false` writes JSONEncoder's bytes without `.prettyPrinted`
    /// (`ShoeboxJSON.makeEncoder(pretty: false)`, the index's JSON columns): no newline or
    /// indentation, `"key":value`, an empty array or object as `[]` or `{}`.
    convenience init(pretty: Bool, output: @escaping ([UInt8]) -> Void) {
        self.init(output: output)
        out.pretty = pretty
    }

    /// The document of `value`, as `ShoeboxJSON.document` makes it (no trailing newline).
    public static func document<T: Encodable>(_ value: T) throws -> [UInt8] {
        var all: [UInt8] = []
        let writer = JSONStreamWriter { all += $0 }
        try writer.write(value)
        writer.flush()
        return all
    }

    /// Writes `value` as a whole document (level 0); `flush` hands out what is left.
    public func write<T: Encodable>(_ value: T) throws {
        try self.value(value, level: 0)
    }

    /// A top-level array written one element at a time (`list --json`): `beginArray`, `append`
    /// each, `endArray`.
    public func beginArray() {
        out.bytes.append(UInt8(ascii: "["))
        arrayCount = 0
    }

    public func append<T: Encodable>(_ element: T) throws {
        out.element(first: arrayCount == 0, level: 1)
        arrayCount += 1
        try value(element, level: 1)
        if out.bytes.count >= 1 << 16 { flush() }
    }

    public func endArray() {
        out.close(UInt8(ascii: "]"), level: 0, empty: arrayCount == 0)
    }

    /// Appends raw bytes (the newline after a document).
    public func raw(_ text: String) { out.plain(text) }

    /// Hands out everything written so far.
    public func flush() {
        guard !out.bytes.isEmpty else { return }
        output(out.bytes)
        out.bytes.removeAll(keepingCapacity: true)
    }

    /// Hands out what is written when it is worth it and no open object could still reorder it.
    func flushIfLarge() {
        if openObjects == 0 && out.bytes.count >= 1 << 16 { flush() }
    }

    /// One value at `level` (its closing bracket's indentation).
    func value<T: Encodable>(_ v: T, level: Int) throws {
        if special(v) { return }
        // The shape most output is made of, written whole without the `Encoder` machinery.
        if T.self == AssetJSON.self && out.pretty { return try (v as! AssetJSON).writeObject(self, level: level) }
        let node = node(level)
        node.begin(at: out.bytes.count)
        try v.encode(to: node)
        try node.finish()
    }

    /// The types JSONEncoder writes its own way, whatever their `encode(to:)` says.
    func special<T: Encodable>(_ v: T) -> Bool {
        if T.self == Date.self { out.string(ShoeboxJSON.format(v as! Date)); return true }
        if T.self == URL.self { out.string((v as! URL).absoluteString); return true }
        if T.self == Data.self { out.string((v as! Data).base64EncodedString()); return true }
        return false
    }

    private func node(_ level: Int) -> JSONStreamNode {
        while nodes.count <= level { nodes.append(JSONStreamNode(writer: self, level: nodes.count)) }
        return nodes[level]
    }
}

/// The bytes of a document being written, and how each kind of value is spelled in them.
struct JSONBytes {
    var bytes: [UInt8] = []
    /// JSONEncoder's `.prettyPrinted` layout; false: its compact one.
    var pretty = true

    private static let indents: [[UInt8]] = (0...16).map { Array(repeating: UInt8(ascii: " "), count: 2 * $0) }

    mutating func indent(_ level: Int) {
        if level < JSONBytes.indents.count {
            bytes.append(contentsOf: JSONBytes.indents[level])
        } else {
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
        }
    }

    /// Before an array element at `level`: `,` (but before the first), newline, indentation.
    mutating func element(first: Bool, level: Int) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        guard pretty else { return }
        bytes.append(0x0A)
        indent(level)
    }

    /// The newline, the indentation of `level` and the closing bracket; an empty array or
    /// object has one more newline before it.
    mutating func close(_ bracket: UInt8, level: Int, empty: Bool = false) {
        if pretty {
            if empty { bytes.append(0x0A) }
            bytes.append(0x0A)
            indent(level)
        }
        bytes.append(bracket)
    }

    /// The bytes of `s` at once (a String's UTF-8 view is otherwise appended byte by byte).
    mutating func plain(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func null() { plain("null") }

    mutating func bool(_ v: Bool) { plain(v ? "true" : "false") }

    /// Digits straight into the bytes (`String(v)` made a string for each of a listing's numbers:
    /// 2 % of `tidy list --json`); `String`'s digits for an integer wider than 64 bits.
    mutating func integer<T: BinaryInteger>(_ v: T) {
        guard let n = Int64(exactly: v) else { return plain(String(v)) }
        if n < 0 { bytes.append(UInt8(ascii: "-")) }
        var m = n.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var i = 20
            repeat {
                i -= 1
                digits[i] = UInt8(ascii: "0") + UInt8(m % 10)
                m /= 10
            } while m > 0
            bytes.append(contentsOf: UnsafeMutableBufferPointer(rebasing: digits[i...]))
        }
    }

    mutating func double(_ v: Double) throws {
        guard v.isFinite else {
            throw EncodingError.invalidValue(v, .init(codingPath: [], debugDescription: "Unable to encode Double.\(v) directly in JSON."))
        }
        number(v.description)
    }

    mutating func float(_ v: Float) throws {
        guard v.isFinite else {
            throw EncodingError.invalidValue(v, .init(codingPath: [], debugDescription: "Unable to encode Float.\(v) directly in JSON."))
        }
        number(v.description)
    }

    private mutating func number(_ text: String) {
        var text = text
        if text.hasSuffix(".0") { text.removeLast(2) }
        plain(text)
    }

    mutating func optionalString(_ s: String?) {
        if let s { string(s) } else { null() }
    }

    mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        // Nearly every string needs no escape: copied at once.
        var text = s
        let isPlain = text.withUTF8 { u -> Bool in
            for c in u where c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { return false }
            bytes.append(contentsOf: u)
            return true
        }
        if !isPlain { escaped(s) }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escaped(_ s: String) {
        let hex = Array("0123456789abcdef".utf8)
        for c in s.utf8 {
            switch c {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(c)
            case 0x08: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "f"))
            case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
            case 0..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hex[Int(c >> 4)], hex[Int(c & 15)]])
            default: bytes.append(c)
            }
        }
    }

    /// `,` (but for the first member), newline, indentation and `"key" : ` of a member at `level`.
    mutating func memberPrefix(_ key: String, level: Int, first: Bool) {
        element(first: first, level: level)
        string(key)
        if pretty { bytes.append(contentsOf: JSONBytes.colon) } else { bytes.append(UInt8(ascii: ":")) }
    }

    static let colon: [UInt8] = Array(" : ".utf8)
}

/// Many small documents written one after another by one writer, its buffer and nodes reused,
/// each handed back whole: a batch's sidecars (pretty) and the index's JSON columns (compact),
/// which JSONEncoder's tree of boxed values made ~5 % of a cold scan's CPU (issue 33). The bytes
/// are JSONEncoder's (`ShoeboxJSON.makeEncoder(pretty:)`), as `JSONStreamWriter` writes them.
final class JSONDocuments {
    private var document: [UInt8] = []
    private var writer: JSONStreamWriter!

    init(pretty: Bool) {
        document.reserveCapacity(4096)
        writer = JSONStreamWriter(pretty: pretty) { [unowned self] in self.document += $0 }
    }

    /// The document of `value`. A writer whose `encode(to:)` threw is not used again (the
    /// document it left half written would begin the next).
    func data<T: Encodable>(_ value: T) throws -> Data {
        try write(value)
        return Data(document)
    }

    /// The document of `value` as text.
    func string<T: Encodable>(_ value: T) throws -> String {
        try write(value)
        return String(decoding: document, as: UTF8.self)
    }

    private func write<T: Encodable>(_ value: T) throws {
        document.removeAll(keepingCapacity: true)
        try writer.write(value)
        writer.flush()
    }
}
