import Foundation
import PhotoLibrary

/// Removals are held a moment before they are applied: a file moved out and back, or deleted
/// and written again, is then not taken for a loss, and a disk going away arrives as one batch
/// that the mass-disappearance guard can judge whole. Each removal extends the wait by `grace`,
/// but never beyond `limit` after the first. Pure: the time is passed in.
struct RemovalHold {
    let grace: Double
    let limit: Double
    private(set) var held: [LiveUpdater.Change] = []
    private var firstHeld: Date?
    /// When the held removals are let go; nil when none is held.
    private(set) var due: Date?

    init(grace: Double, limit: Double) {
        self.grace = grace
        self.limit = limit
    }

    mutating func hold(_ removal: LiveUpdater.Change, at now: Date) {
        held.append(removal)
        let first = firstHeld ?? now
        firstHeld = first
        due = min(now.addingTimeInterval(grace), first.addingTimeInterval(limit))
    }

    /// The held removals once their time has come (in the order they came), else nothing.
    mutating func release(at now: Date) -> [LiveUpdater.Change] {
        guard let due, due <= now else { return [] }
        defer { removeAll() }
        return held
    }

    /// Forgets every held removal (paused, or a reconciling scan covers them).
    mutating func removeAll() {
        held.removeAll()
        firstHeld = nil
        due = nil
    }
}

extension LiveUpdater.Change {
    /// A file or folder gone from the library: held by `RemovalHold` before it is applied.
    var isRemoval: Bool {
        switch self {
        case .removed, .folderRemoved: return true
        default: return false
        }
    }
}
