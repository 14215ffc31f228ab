import CShoeboxSystem
import Foundation

/// The identity of an asset: a UUID given at first sight and kept across renames, moves,
/// edits, trash and restore. Stored and printed lower-case, the way `uuidgen` prints it.
public struct AssetID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// A new random id (a version 4 UUID).
    public init() { rawValue = AssetID.randomUUIDText() }

    /// A version 4 UUID (RFC 9562: 122 random bits) in the stored form, its 16 bytes asked of
    /// the kernel in one `getrandom`. Foundation's `UUID()` opened, read and closed /dev/urandom
    /// for each one: three system calls for every asset of a first scan, on the thread that
    /// decides what each file is while the workers hash.
    static func randomUUIDText() -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        let got = bytes.withUnsafeMutableBytes { shoebox_getrandom($0.baseAddress, 16) }
        if got != 16 {
            var generator = SystemRandomNumberGenerator()
            for i in bytes.indices { bytes[i] = generator.next() }
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (i, byte) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { text.append(UInt8(ascii: "-")) }
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    public init?(_ string: String) {
        // Nearly every id read (a tidy list's 100,000, a sidecar's) is already in its stored form:
        // kept as it is. `UUID(uuidString:)` (sscanf, then snprintf for the text) for the others.
        if AssetID.isStoredForm(string) {
            rawValue = string
            return
        }
        guard let uuid = UUID(uuidString: string) else { return nil }
        rawValue = uuid.uuidString.lowercased()
    }

    /// 8-4-4-4-12 lower-case hex digits: what `UUID(uuidString:)` reads and `rawValue` writes back unchanged.
    static func isStoredForm(_ string: String) -> Bool {
        var s = string
        return s.withUTF8 { u in
            guard u.count == 36 else { return false }
            for (i, c) in u.enumerated() {
                if i == 8 || i == 13 || i == 18 || i == 23 {
                    if c != UInt8(ascii: "-") { return false }
                } else if !((c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "f"))) {
                    return false
                }
            }
            return true
        }
    }

    /// Trusted values from the index or a sidecar this process wrote.
    init(trusted rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
    public static func < (a: AssetID, b: AssetID) -> Bool { a.rawValue < b.rawValue }

    public init(from decoder: any Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let id = AssetID(s) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a UUID: \(s)"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }

    /// Could `text` be the start of an id (as a user types it from `list`)?
    static func isPrefixCandidate(_ text: String) -> Bool {
        text.count >= 4 && text.count <= 36 && text.allSatisfy { $0.isHexDigit || $0 == "-" }
    }
}
