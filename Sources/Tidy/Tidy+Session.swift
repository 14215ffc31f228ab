import Foundation
import PhotoLibrary

/// Assets and their companion files (a Live Photo's movie), as a front end lists them: a pile,
/// or the one photo `unmark` put back.
public struct TidyAssets: Sendable {
    public var assets: [Asset]
    public var companions: [AssetID: String]
    /// The assets' own bytes (companions aside).
    public var bytes: Int64 { assets.reduce(0) { $0 + $1.size } }
}

/// The session's items from a point on, each with its present assets, and their companions.
public struct TidyItems: Sendable {
    public var filter: TidyFilter
    public var items: [TidyCurrent]
    public var companions: [AssetID: String]
}

/// Every group of similar shots, and the companions of their assets.
public struct TidyGroups: Sendable {
    public var groups: [TidyGroupEntry]
    public var companions: [AssetID: String]
}

/// Tidy's entry points for a front end (the CLI, the web app): each is one call on a
/// `LibrarySession` with every rule inside. Reading takes no writer lock; each change runs load →
/// change → save inside `session.write`, after the session's repairs (Tidy's own among them,
/// `Tidy.feature`), so two front ends never lose each other's change.
extension Tidy {
    // MARK: Reading

    /// The item under review and where the session stands (`tidy status`, `tidy next`).
    public static func snapshot(_ session: LibrarySession, countingUnreviewed: Bool = false) throws -> TidySnapshot {
        var review = try readable(session)
        return try Tidy(reading: session).snapshot(&review, countingUnreviewed: countingUnreviewed, saving: false)
    }

    /// The session's items still to review, in order; with `all`, from its first item.
    /// (`forEachItem` hands them out a batch at a time.)
    public static func items(_ session: LibrarySession, all: Bool = false) throws -> TidyItems {
        var items: [TidyCurrent] = []
        var companions: [AssetID: String] = [:]
        let listed = try forEachItem(session, all: all) { batch, found in
            items += batch
            companions.merge(found) { a, _ in a }
        }
        return TidyItems(filter: listed.filter, items: items, companions: companions)
    }

    /// The photos with `decision` in the library, newest first: the marked ones (`.delete`),
    /// the maybe pile (`.maybe`). The index as it is: no session is opened.
    public static func pile(_ session: LibrarySession, _ decision: TidyDecision) throws -> TidyAssets {
        let tidy = Tidy(reading: session)
        let assets = try tidy.assets(decided: decision)
        return TidyAssets(assets: assets, companions: try tidy.companions(of: assets))
    }

    /// Every group of similar shots, near-identical copies and duplicates in the library.
    public static func similarGroups(_ session: LibrarySession) throws -> TidyGroups {
        let tidy = Tidy(reading: session)
        let groups = try tidy.similarGroups()
        return TidyGroups(groups: groups, companions: try tidy.companions(of: groups.flatMap(\.assets)))
    }

    /// Present photos the analysis has not seen yet (their look and score cannot group or rank
    /// them): a front end says so.
    public static func unanalysedCount(_ session: LibrarySession) throws -> Int {
        try Tidy(reading: session).unanalysedCount()
    }

    /// The session to read, without the writer lock in the common case. Two cases write, because
    /// what the reader would see otherwise is not what the next command sees:
    /// - no session yet: one is started (its list frozen on disk), once;
    /// - the session's last change was interrupted by a kill: it is finished first, when the
    ///   lock is free at once; when it is not (or the library cannot be written), the session as
    ///   on disk is read and the next write finishes it.
    static func readable(_ session: LibrarySession) throws -> TidySession {
        let tidy = Tidy(reading: session)
        guard let review = try tidy.load() else {
            return try session.write { try Tidy($0).open() }
        }
        guard try tidy.needsRecovery(review.state) else { return review }
        return (try? session.write(timeout: 0) { try Tidy($0).open() }) ?? review
    }

    // MARK: Changing

    /// keep / delete / maybe: the item under review as a whole, or with `reference` one asset (of
    /// the item, `others` deciding the rest of its group; or any in the library). Returns what
    /// was decided and the session after it.
    public static func decide(_ session: LibrarySession, _ decision: TidyDecision, _ reference: String? = nil,
                              others: TidyDecision? = nil) throws -> (decided: Decided, after: TidySnapshot) {
        try session.write { locked in
            let tidy = Tidy(locked)
            var review = try tidy.open()
            let decided = try tidy.decide(decision, reference, others: others, in: &review)
            return (decided, try tidy.snapshot(&review, saving: true))
        }
    }

    /// Takes the session's last decision back (never past an `empty`). Returns the change undone
    /// and the session after it.
    public static func undo(_ session: LibrarySession) throws -> (undone: TidyState.Change, after: TidySnapshot) {
        try session.write { locked in
            let tidy = Tidy(locked)
            var review = try tidy.open()
            let change = try tidy.undo(in: &review)
            return (change, try tidy.snapshot(&review, saving: true))
        }
    }

    /// A photo marked for deletion is kept instead. Returns it as it is now.
    public static func unmark(_ session: LibrarySession, _ reference: String) throws -> TidyAssets {
        try session.write { locked in
            let tidy = Tidy(locked)
            var review = try tidy.open()
            let asset = try tidy.unmark(reference, in: &review)
            return TidyAssets(assets: [asset], companions: try tidy.companions(of: [asset]))
        }
    }

    /// A new session over `filter`, replacing the one there was (whose interrupted change is
    /// finished first: a decision still reaches its photos; a damaged session is just replaced).
    public static func start(_ session: LibrarySession, _ filter: TidyFilter) throws -> TidySnapshot {
        try session.write { locked in
            let tidy = Tidy(locked)
            var replaced = try? tidy.store.loadState()
            if var r = replaced { try tidy.recover(&r); replaced = r }
            // The review goes on over another list: what it reviewed and emptied still counts.
            var review = try tidy.start(filter, goingOnFrom: replaced)
            return try tidy.snapshot(&review, saving: true)
        }
    }

    /// `empty`: every marked photo moved to Recently Deleted (Recently Deleted reconciled and any
    /// interrupted `empty` finished first, by the write's repairs), the statistics returned.
    /// Files that could not be moved are reported through `failed` and stay marked.
    public static func empty(_ session: LibrarySession, failed: (ShoeboxError) -> Void) throws -> Emptied {
        try session.write { locked in
            let tidy = Tidy(locked)
            var review = try tidy.open()
            return try tidy.empty(in: &review.state, trash: locked.trash, retentionDays: locked.settings.trashRetentionDays,
                                  failed: failed)
        }
    }
}
