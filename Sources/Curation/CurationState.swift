import Foundation
import PhotoLibrary

/// The curation list as `.shoebox/curation.json` keeps it: the ids in the order they were
/// added and the ids selected. The ranking is not stored: it is worked out from the scores
/// each time, so a score that arrives later (a better scorer, a finished analysis) re-ranks.
///
/// The file is untrusted input (a user, a sync client or a crash may have touched it): `decode`
/// reads it into this type or throws one `CurationError.damaged` line, never traps.
public struct CurationState: Equatable, Sendable {
    public static let currentSchema = 1
    /// The most ids a list holds: far more than anyone curates, small enough to keep a damaged
    /// file from costing much memory.
    public static let maximumItems = 100_000

    /// In the order they were added, each once.
    public private(set) var items: [AssetID] = []
    /// A subset of `items`.
    public private(set) var selected: Set<AssetID> = []

    public init(items: [AssetID] = [], selected: Set<AssetID> = []) {
        var seen = Set<AssetID>()
        self.items = items.filter { seen.insert($0).inserted }
        self.selected = selected.intersection(seen)
    }

    public var isEmpty: Bool { items.isEmpty }

    /// Appends the ids not in the list yet; returns how many were new.
    @discardableResult
    public mutating func add(_ ids: [AssetID]) -> Int {
        var present = Set(items)
        var added = 0
        for id in ids where present.insert(id).inserted {
            items.append(id)
            added += 1
        }
        return added
    }

    public mutating func select(_ ids: [AssetID]) { selected.formUnion(Set(ids).intersection(items)) }
    public mutating func deselect(_ ids: [AssetID]) { selected.subtract(ids) }
    public mutating func replaceSelection(with ids: [AssetID]) { selected = Set(ids).intersection(items) }

    /// Takes `ids` out of the list (and the selection).
    public mutating func remove(_ ids: Set<AssetID>) {
        items.removeAll(where: ids.contains)
        selected.subtract(ids)
    }

    // MARK: The file

    private struct File: Codable {
        var schema: Int
        var items: [String]
        var selected: [String]
    }

    /// The file's bytes: compact JSON, ids in list order, the selection in list order.
    public func encoded() -> Data {
        let file = File(schema: Self.currentSchema, items: items.map(\.rawValue),
                        selected: items.filter(selected.contains).map(\.rawValue))
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Strings and integers only: encoding cannot fail.
        return (try? e.encode(file)) ?? Data()
    }

    /// Reads the file's bytes. Throws `CurationError.damaged` (one line saying what is wrong)
    /// for bytes that are not UTF-8, not this JSON, of a newer schema, or not ids.
    public static func decode(_ data: Data) throws -> CurationState {
        // As for sidecars: bytes that are not UTF-8 never reach Foundation's decoder.
        guard String(validating: data, as: UTF8.self) != nil else { throw CurationError.damaged("it is not UTF-8 text") }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw CurationError.damaged("it is not a curation list (\(describe(error)))")
        }
        guard file.schema >= 1 else { throw CurationError.damaged("its schema \(file.schema) is not one Shoebox wrote") }
        guard file.schema <= currentSchema else {
            throw CurationError.newerSchema(file.schema)
        }
        guard file.items.count <= maximumItems, file.selected.count <= maximumItems else {
            throw CurationError.damaged("it lists more than \(maximumItems) photos")
        }
        var items: [AssetID] = []
        for text in file.items {
            guard let id = AssetID(text) else { throw CurationError.damaged("\(String(reflecting: String(text.prefix(40)))) is not an asset id") }
            items.append(id)
        }
        var selected = Set<AssetID>()
        for text in file.selected {
            guard let id = AssetID(text) else { throw CurationError.damaged("\(String(reflecting: String(text.prefix(40)))) is not an asset id") }
            selected.insert(id)
        }
        return CurationState(items: items, selected: selected)
    }

    /// A decoding error in a few words (Foundation's descriptions run to paragraphs).
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "no \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c):
            return "a wrong value at \(c.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.dataCorrupted: return "not valid JSON"
        default: return "not valid JSON"
        }
    }
}
