import CSystem
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
        let dir = try ShareFolder.open(folder, library: curation.library)
        defer { close(dir.fd) }
        // Every original opened and checked first: nothing is written when one is not there.
        var groups: [[Source]] = []
        for e in entries {
            groups.append([try open(e.asset, isCompanion: false)])
            if let path = e.companion, let c = try curation.index.asset(path: path), c.state == .present {
                groups[groups.count - 1].append(try open(c, isCompanion: true))
            }
        }
        var placed: [Placed] = []
        var made: [(name: String, inode: UInt64)] = []
        do {
            for group in groups {
                let names = try place(group, in: dir.fd, copy: copy, made: &made)
                for (s, n) in zip(group, names) {
                    placed.append(Placed(id: s.asset.id, source: s.asset.path, name: n.name, method: n.method,
                                         size: Int64(s.stat.st_size), isCompanion: s.isCompanion))
                }
            }
            guard fsync(dir.fd) == 0 || errno == EINVAL else { throw ShareFolder.failure(folder, errno) }
        } catch {
            for m in made.reversed() {
                var st = stat()
                if fstatat(dir.fd, m.name, &st, AT_SYMLINK_NOFOLLOW) == 0, UInt64(st.st_ino) == m.inode { unlinkat(dir.fd, m.name, 0) }
            }
            fsync(dir.fd)
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
    private func place(_ group: [Source], in dir: Int32, copy: Bool,
                       made: inout [(name: String, inode: UInt64)]) throws -> [(name: String, method: Method)] {
        let names = group.map { ShareNames(fileName: $0.asset.name) }
        if try zip(group, names).allSatisfy({ try ShareFolder.holdsSame($0.0, named: $0.1.candidate(1), in: dir) }) {
            return names.map { ($0.candidate(1), .alreadyThere) }
        }
        for n in 1...10_000 {
            var done: [(name: String, method: Method)] = []
            var clash = false
            for (s, name) in zip(group, names) {
                let candidate = name.candidate(n)
                guard let method = try ShareFolder.put(s, named: candidate, in: dir, copy: copy) else { clash = true; break }
                done.append((candidate, method))
                var st = stat()
                fstatat(dir, candidate, &st, AT_SYMLINK_NOFOLLOW)
                made.append((candidate, UInt64(st.st_ino)))
            }
            if !clash { return done }
            // A name of the group is taken: the others placed under this stem go, the next stem is tried.
            for d in done {
                if let i = made.lastIndex(where: { $0.name == d.name }) {
                    unlinkat(dir, d.name, 0)
                    made.remove(at: i)
                }
            }
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
}
