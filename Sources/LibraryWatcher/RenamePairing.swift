import Foundation
import Metadata
import PhotoLibrary

/// Pairs the two halves of a rename (IN_MOVED_FROM, then IN_MOVED_TO with the same cookie).
/// A first half whose second does not come within `window` moved something out of the library;
/// a second half without a first moved something in. Pure: the time is passed in.
struct RenamePairing {
    /// A first half waiting for its second.
    struct Half: Equatable {
        var path: String
        var cookie: UInt32
        var isFolder: Bool
        var deadline: Date
    }

    /// How long a first half waits for its second.
    let window: Double
    private(set) var waiting: [Half] = []

    init(window: Double) { self.window = window }

    /// When the oldest first half runs out of time; nil when none waits.
    var nextDeadline: Date? { waiting.map(\.deadline).min() }

    mutating func movedFrom(_ path: String, cookie: UInt32, isFolder: Bool, at now: Date) {
        waiting.append(Half(path: path, cookie: cookie, isFolder: isFolder, deadline: now.addingTimeInterval(window)))
    }

    /// The first half with this cookie, taken out; nil when the thing came from outside the
    /// watched tree.
    mutating func movedTo(cookie: UInt32) -> Half? {
        guard let i = waiting.firstIndex(where: { $0.cookie == cookie }) else { return nil }
        return waiting.remove(at: i)
    }

    /// First halves whose time ran out by `now`, taken out: each moved something out of the library.
    mutating func expired(at now: Date) -> [Half] {
        let out = waiting.filter { $0.deadline <= now }
        waiting.removeAll { $0.deadline <= now }
        return out
    }

    /// Forgets every half (a reconciling scan covers them).
    mutating func removeAll() { waiting.removeAll() }

    /// What a paired rename means for the index, given which ends Shoebox indexes.
    static func change(from: String, to: String, isFolder: Bool) -> LiveUpdater.Change? {
        let fromIndexed = isFolder ? LibraryLayout.isIndexable(folder: from) : LibraryLayout.isIndexable(file: from)
        let toIndexed = isFolder ? LibraryLayout.isIndexable(folder: to) : LibraryLayout.isIndexable(file: to)
        switch (fromIndexed, toIndexed) {
        case (true, true): return isFolder ? .folderMoved(from: from, to: to) : .moved(from: from, to: to)
        // From a temporary name (or Recently Deleted/) into place: an arrival, matched by content.
        case (false, true): return isFolder ? .folderArrived(to) : .arrived(to)
        // Into a reserved folder or to a hidden, temporary or companion name: gone from the library.
        case (true, false): return isFolder ? .folderRemoved(from) : .removed(from)
        // An editor's sidecar saved through a temporary name: its photo is read again.
        case (false, false): return !isFolder && XMPSidecar.isSidecarName(to) ? .arrived(to) : nil
        }
    }

    /// What a first half left unpaired means: the file or folder left the library.
    static func change(movedOut half: Half) -> LiveUpdater.Change {
        half.isFolder ? .folderRemoved(half.path) : .removed(half.path)
    }
}
