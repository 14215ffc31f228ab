import Foundation
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// `curate share --to DIR`: the selected originals, byte for byte, into a folder the user names
/// (the share sheet's "save to files"). Each is a hard link when DIR is on the library's file
/// system (no space used; note that an edit in place of one then edits both), else — or with
/// `copy` — a copy made in an unnamed temporary (`O_TMPFILE`) and linked into place whole, so a
/// kill never leaves half a file under a photo's name. A Live Photo brings its movie (a RAW+JPEG
/// shot its raw file), under the same stem.
///
/// Nothing in DIR is ever replaced, and no link found there is followed: a name that is taken
/// gets " (2)", " (3)"… before its extension (photo and movie keep one stem), unless it already
/// holds the same bytes (a second share of the same photos), which is reported as already there.
/// The originals are opened by the session's one verified opener (`openOriginal`: confined,
/// still the files the index knows). A failure removes what this run put into DIR: all or nothing.
public struct CurationShare {
    public enum Method: String, Sendable {
        case link, copy
        case alreadyThere = "already-there"
    }

    public struct Placed: Sendable {
        public var id: AssetID
        /// The original, relative to the library.
        public var source: String
        /// The name given in DIR.
        public var name: String
        public var method: Method
        public var size: Int64
        /// The companion of a Live Photo or RAW+JPEG shot (not listed on its own).
        public var isCompanion: Bool
    }

    let curation: Curation
    let openOriginal: (Asset) throws -> OriginalFile
    package init(curation: Curation, openOriginal: @escaping (Asset) throws -> OriginalFile) {
        self.curation = curation
        self.openOriginal = openOriginal
    }

    /// One original to place: its open file (closed when released) and what it is.
    struct Source {
        var original: OriginalFile
        var stat: stat
        var isCompanion: Bool
        var asset: Asset { original.asset }
        var fd: Int32 { original.descriptor }
    }

    /// Shares `entries` (in that order) into `folder` (absolute); returns what was placed.
    package func share(_ entries: [CurationEntry], to folder: String, copy: Bool) throws -> [Placed] {
        guard !entries.isEmpty else { throw CurationError.nothingSelected }
        // Every original opened and checked first: nothing is made or written when one is not there.
        var groups: [[Source]] = []
        for e in entries {
            groups.append([try open(e.asset, isCompanion: false)])
            if let path = e.companion, let c = try curation.index.asset(path: path), c.state == .present {
                groups[groups.count - 1].append(try open(c, isCompanion: true))
            }
        }
        let dir = try ShareFolder.open(folder, library: curation.library)
        var present = ShareFolder.names(in: dir)
        var placed: [Placed] = []
        do {
            for group in groups {
                let names = try place(group, in: dir, copy: copy, present: &present)
                for (s, n) in zip(group, names) {
                    placed.append(Placed(id: s.asset.id, source: s.asset.path, name: n.name, method: n.method,
                                         size: Int64(s.stat.st_size), isCompanion: s.isCompanion))
                }
            }
            try dir.sync()
        } catch {
            // All or nothing: what this run put into DIR goes, and DIR itself when it made it.
            dir.undo()
            throw error
        }
        return placed
    }

    /// The original of `asset`, opened by `openOriginal` (no link followed, checked against the index).
    func open(_ asset: Asset, isCompanion: Bool) throws -> Source {
        guard asset.state == .present else { throw CurationError.cannotShare(asset) }
        let original: OriginalFile
        do { original = try openOriginal(asset) } catch let e as ShoeboxError { throw CurationError.notShared(e) }
        var st = stat()  // the figures the opener checked, as the *at calls that place it want them
        guard fstat(original.descriptor, &st) == 0 else { throw ShoeboxError(original: asset.path, .unreadable(errno: errno)) }
        return Source(original: original, stat: st, isCompanion: isCompanion)
    }

    /// Places one photo (and its companion) under the first free stem; returns each file's name.
    /// A stem whose names all hold these bytes already (a share before this one, under the
    /// plain name or a numbered one) is where they are: nothing is added. `present`: the
    /// folder's names, kept up to date.
    private func place(_ group: [Source], in dir: OutsideFolder, copy: Bool,
                       present: inout Set<String>) throws -> [(name: String, method: Method)] {
        let names = group.map { ShareNames(fileName: $0.asset.name) }
        for n in names[0].numbers(in: present) {
            if try zip(group, names).allSatisfy({ try ShareFolder.holdsSame($0.0, named: $0.1.candidate(n), in: dir.fd) }) {
                return names.map { ($0.candidate(n), .alreadyThere) }
            }
        }
        for n in 1...10_000 {
            var done: [(name: String, method: Method)] = []
            var clash = false
            for (s, name) in zip(group, names) {
                let candidate = name.candidate(n)
                guard let method = try ShareFolder.put(s, named: candidate, in: dir, copy: copy) else { clash = true; break }
                done.append((candidate, method))
                dir.record(candidate)
            }
            if !clash {
                present.formUnion(done.map(\.name))
                return done
            }
            // A name of the group is taken: the others placed under this stem go, the next stem is tried.
            for d in done { dir.remove(d.name) }
        }
        throw ShoeboxError(.alreadyExists, "10000 files called \(group[0].asset.name) are in the folder already; choose another folder")
    }
}

/// "IMG_0412.HEIC", "IMG_0412 (2).HEIC", "IMG_0412 (3).HEIC"…
struct ShareNames {
    var stem: String
    var ext: String

    init(fileName: String) {
        let dot = fileName.lastIndex(of: ".").flatMap { $0 == fileName.startIndex ? nil : $0 }
        stem = dot.map { String(fileName[..<$0]) } ?? fileName
        ext = dot.map { String(fileName[$0...]) } ?? ""
    }

    func candidate(_ n: Int) -> String { n == 1 ? stem + ext : "\(stem) (\(n))\(ext)" }

    /// The numbers of this name's candidates among `names`, in order (1 for the plain name).
    func numbers(in names: Set<String>) -> [Int] {
        let head = stem + " (", tail = ")" + ext
        var out = names.contains(candidate(1)) ? [1] : []
        for name in names where name.count > head.count + tail.count && name.hasPrefix(head) && name.hasSuffix(tail) {
            let digits = name.dropFirst(head.count).dropLast(tail.count)
            if let n = Int(digits), n > 1, candidate(n) == name { out.append(n) }
        }
        return out.sorted()
    }
}
