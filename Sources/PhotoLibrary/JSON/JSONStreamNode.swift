import Foundation

/// The members of one object being written: their keys, and where each value's bytes begin and
/// end in the writer's bytes.
struct JSONMemberLog {
    var keys: [String] = []
    var starts: [Int] = []
    var ends: [Int] = []
    /// Every key so far came after the one before it (nothing to reorder).
    var inOrder = true

    mutating func reset() {
        keys.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        inOrder = true
    }

    /// Writes the prefix of member `key` and records where its value begins.
    /// `knownInOrder`: the caller knows the key sorts after the one before.
    mutating func begin(_ key: String, in out: inout JSONBytes, level: Int, knownInOrder: Bool = false) {
        if inOrder && !knownInOrder, let last = keys.last, !JSONMemberLog.precedes(last, key) { inOrder = false }
        out.memberPrefix(key, level: level, first: keys.isEmpty)
        keys.append(key)
        starts.append(out.bytes.count)
    }

    /// `begin` with the prefix already made (the asset shape's, per level).
    mutating func begin(_ key: String, prefix: [UInt8], in out: inout JSONBytes) {
        out.bytes.append(contentsOf: prefix)
        keys.append(key)
        starts.append(out.bytes.count)
    }

    mutating func end(_ out: JSONBytes) { ends.append(out.bytes.count) }

    /// Key order: by UTF-8 bytes, as JSONEncoder sorts them.
    static func precedes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                let c = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                return c != 0 ? c < 0 : x.count < y.count
            }
        }
    }

    /// The object's bytes from `start` again, members in key order (a key written twice keeps
    /// its last value).
    func reorder(_ out: inout JSONBytes, from start: Int, level: Int) {
        let region = Array(out.bytes[start...])
        out.bytes.removeSubrange(start...)
        out.bytes.append(UInt8(ascii: "{"))
        // Insertion sort, stable: the members nearly always come in order but for a few (the
        // tidy shape's `decision` after an asset's 38), so this is a pass and a few moves.
        var order = Array(keys.indices)
        for n in order.indices.dropFirst() {
            let i = order[n]
            var m = n
            while m > 0 && JSONMemberLog.precedes(keys[i], keys[order[m - 1]]) {
                order[m] = order[m - 1]
                m -= 1
            }
            order[m] = i
        }
        var first = true
        for (n, i) in order.enumerated() where n + 1 == order.count || keys[order[n + 1]] != keys[i] {
            out.memberPrefix(keys[i], level: level, first: first)
            first = false
            out.bytes.append(contentsOf: region[(starts[i] - start)..<(ends[i] - start)])
        }
    }
}

/// The `Encoder` of one value being written by `JSONStreamWriter`, at one level of nesting (one
/// node a level, reused: values are written one after another). An object's members go straight
/// into the writer's bytes; when it closes, members that did not come in key order are put in it.
final class JSONStreamNode: Encoder {
    enum Kind { case none, object, array, single }

    /// The writer owns its nodes and outlives every use of them.
    unowned(unsafe) let writer: JSONStreamWriter
    let level: Int
    private(set) var kind = Kind.none
    private var start = 0
    private var log = JSONMemberLog()
    private var elements = 0

    init(writer: JSONStreamWriter, level: Int) {
        self.writer = writer
        self.level = level
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func begin(at offset: Int) {
        kind = .none
        start = offset
        log.reset()
        elements = 0
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        beginObject()
        return KeyedEncodingContainer(JSONStreamKeyed<Key>(node: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        precondition(kind == .none, "a second container for one value")
        kind = .array
        writer.out.bytes.append(UInt8(ascii: "["))
        return JSONStreamUnkeyed(node: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONStreamSingle(node: self)
    }

    // MARK: Objects

    /// A second `container(keyedBy:)` for the same value adds to the same object, as JSONEncoder does.
    func beginObject() {
        if kind == .object { return }
        precondition(kind == .none, "a keyed container for a value that wrote something else")
        kind = .object
        writer.openObjects += 1
        writer.out.bytes.append(UInt8(ascii: "{"))
    }

    /// Members written by `body` straight into the bytes and the log, both taken out of their
    /// class for the time (one exclusivity check instead of one per byte written).
    func withMembers(_ body: (inout JSONBytes, inout JSONMemberLog) throws -> Void) rethrows {
        var out = JSONBytes()
        var members = JSONMemberLog()
        swap(&out, &writer.out)
        swap(&members, &log)
        defer {
            swap(&out, &writer.out)
            swap(&members, &log)
        }
        try body(&out, &members)
    }

    /// Any member: its prefix, its value written by `body`, its end recorded.
    func member(_ key: String, _ body: (inout JSONBytes) throws -> Void) rethrows {
        try withMembers { out, members in
            members.begin(key, in: &out, level: level + 1)
            try body(&out)
            members.end(out)
        }
    }

    /// A member whose value is any Encodable, written one level deeper.
    func member<T: Encodable>(_ key: String, _ value: T) throws {
        withMembers { out, members in members.begin(key, in: &out, level: level + 1) }
        try writer.value(value, level: level + 1)
        log.end(writer.out)
    }

    // MARK: Arrays

    func beginElement() {
        writer.out.element(first: elements == 0, level: level + 1)
        elements += 1
    }

    /// After an element: hands out the bytes when no object around could still reorder them.
    func endElement() { writer.flushIfLarge() }

    var count: Int { elements }

    // MARK: Single values

    func beginSingle() {
        precondition(kind == .none, "a single value after a container")
        kind = .single
    }

    /// A single value container's Encodable: encoded in this very place (Optional's payload).
    func encodeInPlace<T: Encodable>(_ value: T) throws {
        if writer.special(value) { kind = .single; return }
        kind = .none
        try value.encode(to: self)
    }

    // MARK: The end

    /// Closes the value once its `encode(to:)` returned.
    func finish() throws {
        switch kind {
        case .single: break
        case .none:
            // Nothing encoded: JSONEncoder writes an empty object.
            writer.out.bytes.append(UInt8(ascii: "{"))
            writer.out.close(UInt8(ascii: "}"), level: level, empty: true)
        case .array:
            writer.out.close(UInt8(ascii: "]"), level: level, empty: elements == 0)
        case .object:
            writer.openObjects -= 1
            if !log.inOrder { log.reorder(&writer.out, from: start, level: level + 1) }
            writer.out.close(UInt8(ascii: "}"), level: level, empty: log.keys.isEmpty)
        }
    }

    func unsupported(_ what: String) -> Never {
        preconditionFailure("JSONStreamWriter: \(what) is not used by any public shape")
    }
}
