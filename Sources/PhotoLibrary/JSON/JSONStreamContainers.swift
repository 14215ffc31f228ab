import Foundation

/// The keyed container of `JSONStreamNode`: each member written at once, its key remembered.
struct JSONStreamKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONStreamNode
    var codingPath: [any CodingKey] { [] }

    private func put(_ key: Key, _ write: (inout JSONBytes) throws -> Void) rethrows {
        try node.member(key.stringValue, write)
    }

    mutating func encodeNil(forKey key: Key) throws { put(key) { $0.null() } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(key) { $0.bool(value) } }
    mutating func encode(_ value: String, forKey key: Key) throws { put(key) { $0.string(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { try put(key) { try $0.double(value) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { try put(key) { try $0.float(value) } }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(key) { $0.integer(value) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(key) { $0.integer(value) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(key) { $0.integer(value) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(key) { $0.integer(value) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(key) { $0.integer(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(key) { $0.integer(value) } }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(key) { $0.integer(value) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(key) { $0.integer(value) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(key) { $0.integer(value) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(key) { $0.integer(value) } }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.member(key.stringValue, value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        node.unsupported("nestedContainer(keyedBy:forKey:)")
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        node.unsupported("nestedUnkeyedContainer(forKey:)")
    }

    mutating func superEncoder() -> any Encoder { node.unsupported("superEncoder()") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { node.unsupported("superEncoder(forKey:)") }
}

/// The primitive values of the unkeyed and single-value containers: each one `put` by its container.
protocol JSONStreamPrimitives {
    func put(_ write: (inout JSONBytes) throws -> Void) rethrows
}

extension JSONStreamPrimitives {
    mutating func encodeNil() throws { put { $0.null() } }
    mutating func encode(_ value: Bool) throws { put { $0.bool(value) } }
    mutating func encode(_ value: String) throws { put { $0.string(value) } }
    mutating func encode(_ value: Double) throws { try put { try $0.double(value) } }
    mutating func encode(_ value: Float) throws { try put { try $0.float(value) } }
    mutating func encode(_ value: Int) throws { put { $0.integer(value) } }
    mutating func encode(_ value: Int8) throws { put { $0.integer(value) } }
    mutating func encode(_ value: Int16) throws { put { $0.integer(value) } }
    mutating func encode(_ value: Int32) throws { put { $0.integer(value) } }
    mutating func encode(_ value: Int64) throws { put { $0.integer(value) } }
    mutating func encode(_ value: UInt) throws { put { $0.integer(value) } }
    mutating func encode(_ value: UInt8) throws { put { $0.integer(value) } }
    mutating func encode(_ value: UInt16) throws { put { $0.integer(value) } }
    mutating func encode(_ value: UInt32) throws { put { $0.integer(value) } }
    mutating func encode(_ value: UInt64) throws { put { $0.integer(value) } }
}

/// The unkeyed container of `JSONStreamNode`: elements written in order, handed out as they come
/// when no object is open around them.
struct JSONStreamUnkeyed: UnkeyedEncodingContainer, JSONStreamPrimitives {
    let node: JSONStreamNode
    var codingPath: [any CodingKey] { [] }
    var count: Int { node.count }

    func put(_ write: (inout JSONBytes) throws -> Void) rethrows {
        node.beginElement()
        try write(&node.writer.out)
        node.endElement()
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.beginElement()
        try node.writer.value(value, level: node.level + 1)
        node.endElement()
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        node.unsupported("nestedContainer(keyedBy:)")
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { node.unsupported("nestedUnkeyedContainer()") }
    mutating func superEncoder() -> any Encoder { node.unsupported("superEncoder()") }
}

/// The single-value container of `JSONStreamNode`.
struct JSONStreamSingle: SingleValueEncodingContainer, JSONStreamPrimitives {
    let node: JSONStreamNode
    var codingPath: [any CodingKey] { [] }

    func put(_ write: (inout JSONBytes) throws -> Void) rethrows {
        node.beginSingle()
        try write(&node.writer.out)
    }

    mutating func encode<T: Encodable>(_ value: T) throws { try node.encodeInPlace(value) }
}
