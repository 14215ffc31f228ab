import Foundation
import PhotoLibrary

/// A review session as `.shoebox/tidy.json` keeps it (brief 004's `currentSessionIndex`,
/// `currentFilter`, `sessionStats`; the decisions themselves are on the assets, `TidyMark`):
/// which frozen list it goes through, where it stands, and every change it made, so `undo` can go
/// back to the session's start and a change a kill interrupted is finished on the next start.
///
/// The file is untrusted input: `decode` reads it into this type or throws one line naming the
/// file, never traps; every number is checked against the list it refers to.
public struct TidyState: Codable, Equatable, Sendable {
    public static let currentSchema = 1
    /// A session of a million decisions is ~200 MB of log; refuse anything that large.
    public static let maximumLog = 1_000_000

    public var schema = TidyState.currentSchema
    /// A UUID; its list is `.shoebox/tidy-<session>.list`.
    public var session: String
    /// `TidyFilter.description`.
    public var filter: String
    public var startedAt: Date
    /// Lines of the list, and the assets they hold.
    public var items: Int
    public var totalAssets: Int
    /// The item the review goes on from (items before it are decided, or vanished).
    public var position: Int
    /// Assets in the items before `position`: "X of Y" counts assets.
    public var positionAssets: Int
    /// Every change of this session, oldest first.
    public var log: [Change]
    /// Brief 004's `sessionStats`: what `tidy empty` moved in this session.
    public var removed: Int
    public var freedBytes: Int64

    /// One step: a decision on a session item (or on any asset by id), an `unmark`, or an `empty`.
    public struct Change: Codable, Equatable, Sendable {
        public enum Kind: String, Codable, Sendable { case decide, unmark, empty }
        public var kind: Kind
        /// The item it was made on (undo returns there); nil for a change outside the list.
        public var item: Int?
        /// Where the session stood before it.
        public var positionBefore: Int
        public var positionAssetsBefore: Int
        public var marks: [Mark]
        /// `empty`: finished (the files moved and their marks set to `emptied`).
        public var done: Bool?
    }

    /// One asset's mark before and after a change.
    public struct Mark: Codable, Equatable, Sendable {
        public var id: AssetID
        public var from: TidyMark?
        public var to: TidyMark?
    }

    public init(session: String, filter: TidyFilter, startedAt: Date, items: Int, totalAssets: Int) {
        self.session = session; self.filter = filter.description; self.startedAt = startedAt
        self.items = items; self.totalAssets = totalAssets
        position = 0; positionAssets = 0; log = []; removed = 0; freedBytes = 0
    }

    /// Distinct assets decided in this session (brief 004's "X photos reviewed this session").
    public var reviewed: Int {
        var seen = Set<AssetID>()
        for change in log where change.kind == .decide {
            for m in change.marks where m.to?.decision != nil { seen.insert(m.id) }
        }
        return seen.count
    }

    /// Where `undo` may not go back past: the last `empty` (its files left the library).
    var undoFloor: Int { (log.lastIndex { $0.kind == .empty } ?? -1) + 1 }

    static func isValidSession(_ s: String) -> Bool {
        s.utf8.count == 36 && s.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || $0 == 0x2D }
    }

    // MARK: File

    public func encoded() throws -> Data { try ShoeboxJSON.makeEncoder(pretty: true).encode(self) }

    /// Reads `.shoebox/tidy.json`; one `TidyError.damaged` line for anything else. (Public, as
    /// `encoded`, for the fuzz targets: Fuzz/ is another package.)
    public static func decode(_ data: Data) throws -> TidyState {
        let state: TidyState
        do {
            if let schema = try? JSONDecoder().decode(SchemaOnly.self, from: data), schema.schema > currentSchema {
                throw TidyError.newerSchema(schema.schema)
            }
            state = try ShoeboxJSON.makeDecoder().decode(TidyState.self, from: data)
        } catch let e as ShoeboxError {
            throw e
        } catch {
            throw TidyError.damaged(TidyStore.statePath, "not a session Shoebox wrote")
        }
        try state.check()
        return state
    }

    private struct SchemaOnly: Decodable { var schema: Int }

    /// The numbers agree with each other (the list's own length is checked when it is read).
    func check() throws {
        func fail(_ why: String) -> ShoeboxError { TidyError.damaged(TidyStore.statePath, why) }
        guard schema >= 1 else { throw fail("schema \(schema)") }
        guard Self.isValidSession(session) else { throw fail("session \(String(reflecting: session)) is not a UUID") }
        guard TidyFilter(filter) != nil else { throw fail("unknown filter \(String(reflecting: filter))") }
        guard items >= 0, totalAssets >= items, position >= 0, position <= items,
              positionAssets >= 0, positionAssets <= totalAssets else { throw fail("position \(position) of \(items) items") }
        guard removed >= 0, freedBytes >= 0 else { throw fail("negative statistics") }
        guard log.count <= Self.maximumLog else { throw fail("\(log.count) changes") }
        for c in log {
            guard c.item.map({ $0 >= 0 && $0 < items }) ?? true, c.positionBefore >= 0, c.positionBefore <= items,
                  c.positionAssetsBefore >= 0, c.positionAssetsBefore <= totalAssets else { throw fail("a change outside the list") }
            for m in c.marks where m.from?.session.isEmpty == true || m.to?.session.isEmpty == true {
                throw fail("a mark of asset \(m.id) without a session")
            }
        }
    }
}
