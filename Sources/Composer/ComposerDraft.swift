import Foundation
import PhotoLibrary

/// The composer's draft (brief 001) as `.shoebox/composer.json` keeps it: 1–4 asset ids in the
/// order they are stacked, top first. A small value type: every change checks its arguments
/// first and throws one line without changing anything, so a fifth photo or a position the
/// draft does not have leaves the draft as it was.
///
/// The file is untrusted input (a user, a sync client or a crash may have touched it): `decode`
/// reads it into this type or throws one `ComposerError.damaged` line, never traps.
public struct ComposerDraft: Equatable, Sendable {
    public static let currentSchema = 1
    /// The brief: "Enforce maximum of 4 images".
    public static let capacity = 4

    /// Top to bottom, each once, at most `capacity`.
    public private(set) var items: [AssetID] = []

    public init() {}

    /// Nil when `items` breaks the draft's rules (too many, an id twice).
    public init?(items: [AssetID]) {
        guard items.count <= Self.capacity, Set(items).count == items.count else { return nil }
        self.items = items
    }

    public var isEmpty: Bool { items.isEmpty }
    public var count: Int { items.count }

    /// Appends `ids` (those already in the draft are skipped, returned as `skipped`); throws
    /// `ComposerError.full` when the new ones would not fit, adding none.
    @discardableResult
    public mutating func add(_ ids: [AssetID]) throws -> (added: [AssetID], skipped: [AssetID]) {
        var seen = Set(items)
        var added: [AssetID] = [], skipped: [AssetID] = []
        for id in ids {
            if seen.insert(id).inserted { added.append(id) } else { skipped.append(id) }
        }
        guard items.count + added.count <= Self.capacity else {
            throw ComposerError.full(has: items.count, adding: added.count)
        }
        items += added
        return (added, skipped)
    }

    /// Moves the photo at `from` to `to` (1-based positions, as `compose list` shows them); the
    /// photos between shift by one.
    public mutating func move(from: Int, to: Int) throws {
        try check(from)
        try check(to)
        let id = items.remove(at: from - 1)
        items.insert(id, at: to - 1)
    }

    /// Puts `id` at `position` in place of the photo there. `id` already at another position is
    /// refused (the draft would hold it twice); at the same position it changes nothing.
    public mutating func replace(at position: Int, with id: AssetID) throws {
        try check(position)
        if let other = items.firstIndex(of: id), other != position - 1 {
            throw ComposerError.alreadyAt(other + 1)
        }
        items[position - 1] = id
    }

    /// Takes the photo at `position` out; returns its id.
    @discardableResult
    public mutating func remove(at position: Int) throws -> AssetID {
        try check(position)
        return items.remove(at: position - 1)
    }

    /// Takes out every id of `ids` (assets purged from the library), wherever they are.
    public mutating func drop(_ ids: Set<AssetID>) { items.removeAll(where: ids.contains) }

    /// Throws unless `position` is one the draft has (1…count).
    public func check(_ position: Int) throws {
        guard isEmpty == false else { throw ComposerError.empty }
        guard (1...items.count).contains(position) else { throw ComposerError.noPosition(position, count: items.count) }
    }

    // MARK: The file

    private struct File: Codable {
        var schema: Int
        var items: [String]
    }

    /// The file's bytes: pretty JSON, ids top to bottom.
    public func encoded() -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Strings and an integer only: encoding cannot fail.
        return (try? e.encode(File(schema: Self.currentSchema, items: items.map(\.rawValue)))) ?? Data()
    }

    /// Reads the file's bytes. Throws `ComposerError.damaged` (one line saying what is wrong)
    /// for bytes that are not UTF-8, not this JSON, of a newer schema, not ids, more than four
    /// or one twice.
    public static func decode(_ data: Data) throws -> ComposerDraft {
        // As for sidecars: bytes that are not UTF-8 never reach Foundation's decoder.
        guard String(validating: data, as: UTF8.self) != nil else { throw ComposerError.damaged("it is not UTF-8 text") }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw ComposerError.damaged("it is not a composer draft (\(describe(error)))")
        }
        guard file.schema >= 1 else { throw ComposerError.damaged("its schema \(file.schema) is not one Shoebox wrote") }
        guard file.schema <= currentSchema else { throw ComposerError.newerSchema(file.schema) }
        guard file.items.count <= capacity else { throw ComposerError.damaged("it lists \(file.items.count) photos; a draft holds at most \(capacity)") }
        var ids: [AssetID] = []
        for text in file.items {
            guard let id = AssetID(text) else { throw ComposerError.damaged("\(String(reflecting: String(text.prefix(40)))) is not an asset id") }
            ids.append(id)
        }
        guard let draft = ComposerDraft(items: ids) else { throw ComposerError.damaged("it lists a photo twice") }
        return draft
    }

    /// A decoding error in a few words (Foundation's descriptions run to paragraphs).
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "no \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c):
            return "a wrong value at \(c.codingPath.map(\.stringValue).joined(separator: "."))"
        default: return "not valid JSON"
        }
    }
}
