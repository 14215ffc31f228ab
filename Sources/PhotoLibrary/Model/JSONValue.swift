import Foundation

/// Any JSON value, kept as it was written: how fields whose shape the core does not know
/// (a feature's per-asset data) travel through sidecars and the index unchanged.
public enum JSONValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let n): try c.encode(n)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }
}

/// Per-asset fields that feature modules own, one JSON object per feature name
/// (`"features": {"curation": {...}}` in the sidecar; the `features` column in the index).
/// The core stores them, journals them and rebuilds the index from them, but never reads inside:
/// a feature sets its fields through `AssetWriter.setFeature` and reads them with `value(_:as:)`.
public struct FeatureFields: Codable, Equatable, Sendable {
    public private(set) var fields: [String: JSONValue] = [:]

    public init() {}

    public var isEmpty: Bool { fields.isEmpty }

    /// A feature's value decoded as `type`; nil when the feature has none.
    public func value<T: Decodable>(_ feature: String, as type: T.Type) throws -> T? {
        guard let raw = fields[feature] else { return nil }
        let data = try ShoeboxJSON.makeEncoder(pretty: false).encode(raw)
        return try ShoeboxJSON.makeDecoder().decode(T.self, from: data)
    }

    /// Sets a feature's value (nil removes it). Feature names are lower-case words (`curation`).
    public mutating func set<T: Encodable>(_ feature: String, _ value: T?) throws {
        guard FeatureFields.isValidName(feature) else {
            throw ShoeboxError(.invalidArgument, "feature name \"\(feature)\" must be lower-case letters, digits and _")
        }
        guard let value else { fields[feature] = nil; return }
        let data = try ShoeboxJSON.makeEncoder(pretty: false).encode(value)
        fields[feature] = try ShoeboxJSON.makeDecoder().decode(JSONValue.self, from: data)
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
    }

    public init(from decoder: any Decoder) throws {
        fields = try decoder.singleValueContainer().decode([String: JSONValue].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(fields)
    }
}
