import Foundation
import MetadataCore

extension FileProblem {
    static let xmpSidecar = "XMP sidecar: its people, place, rating and keywords are read with the photo of the same name; never indexed itself"
    static let companion = "a companion file (notes, another tool's sidecar or document), not a photo or video; never indexed"
}

/// The scan's walk against the index in one pass: files come in path byte order (`WalkOrder`), the
/// present records too (`ORDER BY path`), and the two are merged like sorted lists. Only what
/// differs is kept — files to look at, records whose file is not on disk — so a rescan that finds
/// a million files unchanged holds neither a million entries nor a million records.
struct WalkMerge {
    let library: Library
    let index: Index

    struct Result {
        /// Files new, or changed since the index saw them (size, mtime or inode), in walk order.
        var changed = WalkedFiles()
        /// The present records at the paths of `changed` files (edited or replaced in place).
        var replaced: [Index.FileRecord] = []
        /// Present records whose file is not on disk (moved, or gone), by path; files under a
        /// folder that could not be read are not among them.
        var vanished: [String: Index.FileRecord] = [:]
        var unchanged = 0
        /// The XMP sidecar files seen (`XMPSidecarChanges`).
        var sidecars: [String: FileStat] = [:]
        /// Files Shoebox will never index (companions of photos), with why: `scan --verbose`.
        var neverIndexed: [FileProblem] = []

        mutating func noteCompanion(_ e: LibraryWalker.Entry) {
            if XMPSidecar.isSidecarName(e.path) {
                sidecars[e.path] = e.stat
                neverIndexed.append(FileProblem(path: e.path, reason: FileProblem.xmpSidecar))
            } else {
                neverIndexed.append(FileProblem(path: e.path, reason: FileProblem.companion, kind: FileProbe.companionKind(e.path)))
            }
        }
        /// The walk's findings, `files` left empty.
        var walk = LibraryWalker.Result()
    }

    func run() throws -> Result {
        var result = Result()
        try index.withPresentFileRecordsByPath { next in
            var record = try next()
            var unreadable: [String] = []
            /// Records before `path` in byte order have no file on disk.
            func passRecords(before path: String?) throws {
                while let r = record, path.map({ WalkOrder.precedes(r.path, $0) }) ?? true {
                    // Files under a folder that could not be read are not known to be gone. That
                    // folder came before `r` in the walk: it sorts before every path under it.
                    if !unreadable.contains(where: { r.path.utf8.starts(with: $0.utf8) }) { result.vanished[r.path] = r }
                    record = try next()
                }
            }
            var walk = try LibraryWalker(library: library).walk(unreadableFolder: { unreadable.append($0 + "/") },
                                                                companion: { result.noteCompanion($0) }) { e in
                if FileProbe.isKnownOther(e.path) { return }
                try passRecords(before: e.path)
                if let r = record, WalkOrder.compare(r.path, e.path) == 0 {
                    if r.sameFile(as: e.stat) {
                        result.unchanged += 1
                    } else {
                        result.changed.append(e)
                        result.replaced.append(r)
                    }
                    record = try next()
                } else {
                    result.changed.append(e)
                }
            }
            try passRecords(before: nil)
            walk.files = []
            result.walk = walk
        }
        try readAgainForSidecars(&result)
        return result
    }

    /// Photos unchanged themselves whose sidecar changed join the changed files (with their records).
    private func readAgainForSidecars(_ result: inout Result) throws {
        var stale = try XMPSidecarChanges(library: library, index: index).stalePhotos(sidecars: result.sidecars)
        guard !stale.isEmpty else { return }
        // Not a set of every changed path: a first scan's are all the library's.
        for i in result.changed.indices where !stale.isEmpty { stale.remove(result.changed.path(at: i)) }
        guard !stale.isEmpty else { return }
        var added: [LibraryWalker.Entry] = []
        for r in try index.presentFileRecords(at: Array(stale)) {
            guard let st = try library.files.lstat(r.path), st.isRegular else { continue }
            added.append(LibraryWalker.Entry(path: r.path, stat: st))
            result.replaced.append(r)
            result.unchanged -= 1
        }
        added.sort { WalkOrder.precedes($0.path, $1.path) }
        result.changed = result.changed.merging(added)
    }
}
