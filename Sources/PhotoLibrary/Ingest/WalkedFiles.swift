import Foundation

/// The files a scan's walk found to read, in walk order, held compactly until they are read.
///
/// A first scan reads every file it finds, and finds them all before it reads one (a file's
/// identity may be a vanished record later in the walk). Held as `[LibraryWalker.Entry]`, each
/// costs a `String` of its own (a 32-byte header, its bytes rounded up to 16) and a 48-byte entry,
/// ~130 bytes with the array's spare room — 130 MB at a million files (issue 33, "memory of a
/// first scan"). Here the paths are one byte buffer and the stats one array: the path's bytes,
/// an end offset and a stat, ~80 bytes. An element is made when it is asked for.
struct WalkedFiles: RandomAccessCollection, Sendable {
    private var pathBytes: [UInt8] = []
    /// Where each path ends in `pathBytes` (it starts where the one before ends).
    private var ends: [Int] = []
    private var stats: [FileStat] = []

    init() {}

    init(_ entries: some Sequence<LibraryWalker.Entry>) {
        for e in entries { append(e) }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { ends.count }

    subscript(i: Int) -> LibraryWalker.Entry {
        LibraryWalker.Entry(path: path(at: i), stat: stats[i])
    }

    func path(at i: Int) -> String {
        let start = i == 0 ? 0 : ends[i - 1]
        return pathBytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<ends[i]]), as: UTF8.self) }
    }

    mutating func append(_ e: LibraryWalker.Entry) {
        pathBytes.append(contentsOf: e.path.utf8)
        ends.append(pathBytes.count)
        stats.append(e.stat)
    }

    /// These files and `others` (in walk order themselves) in one list in walk order.
    func merging(_ others: [LibraryWalker.Entry]) -> WalkedFiles {
        var merged = WalkedFiles()
        var next = others.makeIterator()
        var other = next.next()
        for e in self {
            while let o = other, WalkOrder.precedes(o.path, e.path) {
                merged.append(o)
                other = next.next()
            }
            merged.append(e)
        }
        while let o = other {
            merged.append(o)
            other = next.next()
        }
        return merged
    }
}
