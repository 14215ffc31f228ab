import Foundation
import PhotoLibrary

/// A review session as `.shoebox/tidy.json` keeps it (brief 004's `currentSessionIndex`,
/// `currentFilter`, `sessionStats`; the decisions themselves are on the assets, `TidyMark`):
/// which frozen list it goes through, where it stands, and its last `undoDepth` changes, so
/// `undo` can go back that far and a change a kill interrupted is finished on the next start.
/// Older changes are only counted (`Earlier`): every change kept for ever made a long session's
/// file grow past 90 MB, read whole by every tidy command.
///
/// The file is untrusted input: `decode` reads it into this type or throws one line naming the
/// file, never traps; every number is checked against the list it refers to.
public struct TidyState: Codable, Equatable, Sendable {
    public static let currentSchema = 1
    /// The changes a session keeps: how far back `undo` goes (docs/TIDY.md).
    public static let undoDepth = 1000

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
    /// The session's last changes (at most `undoDepth`), oldest first.
    public var log: [Change]
    /// What the changes older than `log` did; nil while the log holds every change.
    public var earlier: Earlier?
    /// Brief 004's `sessionStats`: what `tidy empty` moved in this session.
    public var removed: Int
    public var freedBytes: Int64
    /// The sessions this one goes on from (a filter change starts a new list, not a new review:
    /// issue 32's "0 photos reviewed this session" after one), most recent last: their marks were
    /// counted already. nil for a session started afresh.
    public var continues: [String]?

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

    /// The changes a session no longer keeps, counted.
    public struct Earlier: Codable, Equatable, Sendable {
        /// How many there were.
        public var changes: Int
        /// Assets first decided in them (`reviewed` counts them once more than the log does).
        public var reviewed: Int
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
    public var reviewed: Int { (earlier?.reviewed ?? 0) + reviewedInLog }

    /// Assets decided in the log and not counted in `earlier`. Once changes were dropped, an
    /// asset whose first change in the log found a mark of this session on it was touched by a
    /// dropped change — counted there (a dropped `unmark` or `empty` of an older session's mark,
    /// rarer still, is taken for a decision).
    private var reviewedInLog: Int {
        var decided = Set<AssetID>()
        var touchedBefore = Set<AssetID>()
        var seen = Set<AssetID>()
        for change in log {
            for m in change.marks {
                if seen.insert(m.id).inserted, earlier != nil, let from = m.from?.session,
                   from == session || continues?.contains(from) == true { touchedBefore.insert(m.id) }
                if change.kind == .decide, m.to?.decision != nil { decided.insert(m.id) }
            }
        }
        return decided.subtracting(touchedBefore).count
    }

    /// Adds `change` to the log; the oldest changes past `undoDepth` are dropped and counted.
    mutating func record(_ change: Change) {
        log.append(change)
        keepUndoDepth()
    }

    /// Drops the changes past `undoDepth`, oldest first, into `earlier`.
    mutating func keepUndoDepth() {
        guard log.count > Self.undoDepth else { return }
        let before = reviewed
        let dropped = log.count - Self.undoDepth
        log.removeFirst(dropped)
        earlier = Earlier(changes: (earlier?.changes ?? 0) + dropped, reviewed: 0)
        let inLog = reviewedInLog
        earlier?.reviewed = before - inLog  // the count stays what it was
    }

    /// Longest chain of sessions `continues` remembers (a mark older than that, decided again,
    /// would count twice: after 50 filter changes in one review).
    static let continuesDepth = 50

    /// A new session's state going on from `previous`: its reviewed count, what its `empty`s
    /// moved, and the sessions it went on from; not its undo log (the list changed).
    mutating func goOn(from previous: TidyState) {
        // A session that changed nothing leaves nothing to carry (and `earlier` counts changes).
        guard previous.earlier != nil || !previous.log.isEmpty else { return }
        earlier = Earlier(changes: (previous.earlier?.changes ?? 0) + previous.log.count, reviewed: previous.reviewed)
        removed = previous.removed
        freedBytes = previous.freedBytes
        continues = Array(((previous.continues ?? []) + [previous.session]).suffix(Self.continuesDepth))
    }

    /// Where `undo` may not go back past: the last `empty` (its files left the library).
    var undoFloor: Int { (log.lastIndex { $0.kind == .empty } ?? -1) + 1 }

    static func isValidSession(_ s: String) -> Bool {
        s.utf8.count == 36 && s.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || $0 == 0x2D }
    }

    // MARK: File

    public func encoded() throws -> Data { try ShoeboxJSON.makeEncoder(pretty: true).encode(self) }

    /// Reads `.shoebox/tidy.json`; one `TidyError.damaged` line for anything else. A log longer
    /// than `undoDepth` (an older Shoebox kept every change) is cut to it. (Public, as
    /// `encoded`, for the fuzz targets: Fuzz/ is another package.)
    public static func decode(_ data: Data) throws -> TidyState {
        var state: TidyState
        do {
            state = try ShoeboxJSON.makeDecoder().decode(TidyState.self, from: data)
        } catch {
            // Read again only to tell a newer Shoebox's file from a damaged one.
            if let schema = try? JSONDecoder().decode(SchemaOnly.self, from: data), schema.schema > currentSchema {
                throw TidyError.newerSchema(schema.schema)
            }
            throw TidyError.damaged(TidyStore.statePath, "not a session Shoebox wrote")
        }
        if state.schema > currentSchema { throw TidyError.newerSchema(state.schema) }
        try state.check()
        state.keepUndoDepth()
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
        if let earlier, earlier.changes < 1 || earlier.reviewed < 0 { throw fail("negative statistics") }
        if let continues, continues.count > Self.continuesDepth || !continues.allSatisfy(Self.isValidSession) {
            throw fail("the sessions it goes on from are not session ids")
        }
        for c in log {
            guard c.item.map({ $0 >= 0 && $0 < items }) ?? true, c.positionBefore >= 0, c.positionBefore <= items,
                  c.positionAssetsBefore >= 0, c.positionAssetsBefore <= totalAssets else { throw fail("a change outside the list") }
            for m in c.marks where m.from?.session.isEmpty == true || m.to?.session.isEmpty == true {
                throw fail("a mark of asset \(m.id) without a session")
            }
        }
    }
}
