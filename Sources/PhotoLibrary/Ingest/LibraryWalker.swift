import CShoeboxSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What `lstat` says about a file, in the units the index keeps.
public struct FileStat: Equatable, Sendable {
    public var size: Int64
    public var mtimeNS: Int64
    public var inode: UInt64
    public var mode: UInt32

    init(_ s: stat) {
        size = Int64(s.st_size)
        mtimeNS = Int64(s.st_mtim.tv_sec) * 1_000_000_000 + Int64(s.st_mtim.tv_nsec)
        inode = UInt64(s.st_ino)
        mode = s.st_mode
    }

    public var isRegular: Bool { (mode & S_IFMT) == S_IFREG }

    /// "FIFO", "socket", … for messages about files that are not regular.
    public var typeName: String {
        switch mode & S_IFMT {
        case S_IFLNK: return "symbolic link"
        case S_IFIFO: return "FIFO"
        case S_IFSOCK: return "socket"
        case S_IFCHR: return "character device"
        case S_IFBLK: return "block device"
        case S_IFDIR: return "folder"
        default: return "regular file"
        }
    }
}

/// One problem found while walking or reading, worded for the user.
public struct FileProblem: Codable, Equatable, Sendable {
    public var path: String
    public var reason: String
    /// The file looks like one still being written (growing, or without its end yet): worth
    /// looking at again soon rather than reporting as broken.
    public var stillBeingWritten: Bool
    /// For a file Shoebox leaves alone (a GIF, a note, a link): what it is, in a word or two
    /// ("GIF", ".txt", "link"), which `scan`'s summary and `doctor` count. nil for problems and
    /// for XMP sidecars, which are read with their photo.
    public var kind: String?

    public init(path: String, reason: String, stillBeingWritten: Bool = false, kind: String? = nil) {
        self.path = path
        self.reason = reason
        self.stillBeingWritten = stillBeingWritten
        self.kind = kind
    }

    enum CodingKeys: String, CodingKey { case path, reason, stillBeingWritten = "still_being_written" }
}

/// Walks the library with fts(3) in physical mode: symbolic links are reported, never followed,
/// so a link loop or a link out of the library cannot lead the scan astray. Files come in the
/// byte order of their paths (the index's `ORDER BY path`): see `WalkOrder`.
struct LibraryWalker {
    let library: Library

    struct Entry {
        var path: String
        var stat: FileStat
    }

    struct Result {
        var files: [Entry] = []
        /// Files that are not indexable and that the user may want to know about (links, FIFOs…).
        var skipped: [FileProblem] = []
        /// Folders or names that could not be read at all.
        var problems: [FileProblem] = []
        /// Folders whose contents are unknown this time: what the index has under them is not gone.
        var unreadableFolders: [String] = []
        var folders = 0
        /// Regular files found (in `files`, or handed to `visit`).
        var fileCount = 0
    }

    /// The whole walk, every file in `files` (for callers that need them all at once).
    func walk() throws -> Result {
        var files: [Entry] = []
        var result = try walk { files.append($0) }
        result.files = files
        return result
    }

    /// The walk, each regular file handed to `visit` as it is found, in path byte order;
    /// `files` stays empty, so memory does not grow with the library. `unreadableFolder` hears of
    /// each folder that cannot be read when the walk reaches it (before any path under it).
    /// `companion` hears of each regular file that is a known companion (`.xmp`, `.txt`…): never
    /// indexed, but an XMP sidecar is read with its photo.
    func walk(unreadableFolder: (String) -> Void = { _ in }, companion: (Entry) -> Void = { _ in },
              visit: (Entry) throws -> Void) throws -> Result {
        var st = stat()
        // The root itself may be a link (~/Pictures → /mnt/photos); links inside it are not followed.
        guard stat(library.root.path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
            throw ShoeboxError(.massDisappearance,
                               "the library folder \(library.root.path) is gone or not a folder (unmounted disk or network share?); nothing was changed")
        }
        var result = Result()
        let rootPath = library.root.path
        let prefixLength = rootPath.utf8.count + (rootPath.hasSuffix("/") ? 0 : 1)
        let handle: UnsafeMutablePointer<FTS>? = rootPath.withCString { cRoot in
            var argv: [UnsafeMutablePointer<CChar>?] = [strdup(cRoot), nil]
            defer { free(argv[0]) }
            return fts_open(&argv, FTS_PHYSICAL | FTS_NOCHDIR | FTS_COMFOLLOW, WalkOrder.siblings)
        }
        guard let fts = handle else {
            throw ShoeboxError(.unreadable, "cannot read the library folder \(rootPath): \(ShoeboxError.errnoText())")
        }
        defer { fts_close(fts) }
        while let ent = fts_read(fts) {
            let level = Int(ent.pointee.fts_level)
            if level == 0 { continue }
            let rawPath = UnsafeRawBufferPointer(start: ent.pointee.fts_path, count: Int(ent.pointee.fts_pathlen))
            let relBytes = rawPath.count > prefixLength ? Array(rawPath[prefixLength...]) : []
            // fts_name is a trailing flexible array member: address it through the entry itself.
            let nameBytes = UnsafeRawBufferPointer(
                start: UnsafeRawPointer(ent).advanced(by: MemoryLayout<FTSENT>.offset(of: \FTSENT.fts_name)!),
                count: Int(ent.pointee.fts_namelen))
            let info = Int32(ent.pointee.fts_info)
            if info == FTS_DP { continue }  // post-order visit of a folder
            let isDir = info == FTS_D || info == FTS_DNR || info == FTS_DC
            let startsWithDot = nameBytes.first == UInt8(ascii: ".")
            guard let rel = String(validating: relBytes, as: UTF8.self) else {
                if !startsWithDot {
                    result.problems.append(FileProblem(path: displayPath(bytes: relBytes), reason: FileProblem.nameNotUTF8))
                }
                if isDir { fts_set(fts, ent, FTS_SKIP) }
                continue
            }
            // Hidden entries, reserved top-level folders, temporary names and companions are not the user's photos.
            let name = String(decoding: nameBytes, as: UTF8.self)
            if !LibraryLayout.admits(name, isFolder: isDir, atRoot: level == 1) {
                if isDir { fts_set(fts, ent, FTS_SKIP) }
                if info == FTS_F, LibraryLayout.isKnownOther(name), !LibraryLayout.isTemporaryName(name) {
                    companion(Entry(path: rel, stat: FileStat(ent.pointee.fts_statp.pointee)))
                }
                continue
            }
            switch info {
            case FTS_D:
                result.folders += 1
            case _ where (info == FTS_DNR || info == FTS_ERR || info == FTS_NS) && ent.pointee.fts_errno == ENAMETOOLONG:
                // Not a permission a chmod would give: no call can name it (PATH_MAX).
                result.problems.append(FileProblem(path: rel, reason: FileProblem.pathTooLong(Int(ent.pointee.fts_pathlen))))
            case FTS_DNR:
                result.unreadableFolders.append(rel)
                unreadableFolder(rel)
                result.problems.append(FileProblem(path: rel, reason:
                    "folder cannot be read (\(String(cString: strerror(ent.pointee.fts_errno)))); fix with `chmod -R u+rX \(shellQuote(library.url(for: rel).path))`"))
            case FTS_DC:
                result.skipped.append(FileProblem(path: rel, reason: "folder loop; not followed", kind: "folder loop"))
            case FTS_ERR, FTS_NS:
                result.problems.append(FileProblem(path: rel, reason: "cannot be read: \(String(cString: strerror(ent.pointee.fts_errno)))"))
            case FTS_SL, FTS_SLNONE:
                result.skipped.append(FileProblem(path: rel, reason: "symbolic link; Shoebox indexes files, not links", kind: "link"))
            case FTS_F, FTS_DEFAULT:
                let s = FileStat(ent.pointee.fts_statp.pointee)
                if !s.isRegular {
                    result.skipped.append(FileProblem(path: rel, reason: "\(s.typeName), not a regular file", kind: s.typeName))
                    continue
                }
                result.fileCount += 1
                try visit(Entry(path: rel, stat: s))
            default:
                break
            }
        }
        return result
    }
}

/// A path as it can be shown on one line: control characters and invalid bytes escaped.
public func displayPath(_ path: String) -> String {
    var out = ""
    for scalar in path.unicodeScalars {
        switch scalar {
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        case _ where scalar.value < 0x20 || scalar.value == 0x7f:
            out += String(format: "\\x%02x", scalar.value)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

extension FileProblem {
    /// What is said of a file or folder whose name is not UTF-8 (scan, doctor and watch alike).
    public static let nameNotUTF8 = "name is not valid UTF-8; rename it to index it (e.g. with `convmv -f latin1 -t utf8`)"

    /// What is said of a file or folder whose full path is longer than Linux lets a program name.
    static func pathTooLong(_ bytes: Int) -> String {
        "\(pathTooLongPrefix) (\(bytes) bytes with the library's folder; Linux allows \(Int(PATH_MAX) - 1)); move it to a shorter path to index it"
    }

    static let pathTooLongPrefix = "path is too long to be indexed"

    /// A problem with the file's name or path, not with its content or permissions: a scan
    /// cannot index it and a `chmod` does not help.
    var isAboutTheName: Bool { reason == FileProblem.nameNotUTF8 || reason.hasPrefix(FileProblem.pathTooLongPrefix) }
}

/// A path that may hold bytes that are not UTF-8, printable on one line (`caf\xe9.jpg`).
public func displayPath(bytes: [UInt8]) -> String {
    var out = ""
    var i = 0
    while i < bytes.count {
        // Decode the longest valid UTF-8 run; escape each invalid byte.
        var j = i + 1
        var best: String? = nil
        var bestEnd = i
        while j <= min(bytes.count, i + 4) {
            if let s = String(validating: bytes[i..<j], as: UTF8.self) { best = s; bestEnd = j; break }
            j += 1
        }
        if let best {
            out += displayPath(best)
            i = bestEnd
        } else {
            out += String(format: "\\x%02x", bytes[i])
            i += 1
        }
    }
    return out
}
