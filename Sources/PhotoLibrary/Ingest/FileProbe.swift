import CShoeboxSystem
import Foundation
import MetadataCore
#if canImport(Glibc)
import Glibc
#endif

/// Reads one file: its SHA-256 (the whole file, streamed through a reused buffer so memory stays
/// flat whatever the file size) and its metadata (only the header bytes the readers ask for).
struct FileProbe {
    struct Result: Sendable {
        var path: String
        var stat: FileStat
        var sha256: String
        var metadata: MediaMetadata
        /// Set when the structure is incomplete but the file has settled (damaged, not growing).
        var warning: String?
    }

    enum Outcome: Sendable {
        case indexed(Result)
        /// Not indexable now; `reason` is one line for the user.
        case failed(FileProblem)
        /// Not a photo or video by name and content (a .txt, a .xmp sidecar of another tool):
        /// `reason` says so for `scan --verbose`.
        case ignored(FileProblem)
    }

    /// A file whose structure is incomplete is taken for one still being written while it is
    /// younger than this; after that it is a damaged file and is indexed with a warning.
    static let settleSeconds: Int64 = 120


    /// Extensions Shoebox expects photos and videos under. Other files are still sniffed, so a
    /// photo without an extension is found, but a non-media file with another extension is not
    /// reported as a problem.
    static let mediaExtensions = Set(["jpg", "jpeg", "jpe", "jfif", "png", "heic", "heif", "hif",
                                      "mp4", "m4v", "mov", "qt"]).union(MediaFormat.rawExtensions).union(MediaFormat.tiffExtensions)

    /// Companions that sit beside photos (sidecars of other tools, notes, documents): never opened.
    static let knownOtherExtensions: Set<String> = ["xmp", "aae", "thm", "txt", "md", "json", "pdf", "xml", "html",
                                                    "db", "ini", "log", "csv", "doc", "docx", "zip", "pp3", "dop",
                                                    "on1", "lrv", "srt", "gpx"]

    /// `knownOtherExtensions.contains((path as NSString).pathExtension.lowercased())`, without
    /// NSString for the usual name: a dot inside the last component, then 1–4 ASCII letters or
    /// digits ("IMG_0412.HEIC"). Anything else is left to NSString.
    static func isKnownOther(_ path: String) -> Bool {
        let fast = path.utf8.withContiguousStorageIfAvailable { u -> Bool? in
            var i = u.count - 1
            while i >= 0, u.count - 1 - i <= 4 {
                let c = u[i]
                if c == UInt8(ascii: ".") {
                    let length = u.count - 1 - i
                    guard length >= 1, i > 0, u[i - 1] != UInt8(ascii: "/") else { return nil }
                    var ext = ""
                    for b in u[(i + 1)...] { ext.unicodeScalars.append(Unicode.Scalar(b >= 65 && b <= 90 ? b + 32 : b)) }
                    return knownOtherExtensions.contains(ext)
                }
                guard (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) else { return nil }
                i -= 1
            }
            return nil
        }
        if let fast, let known = fast { return known }
        return knownOtherExtensions.contains((path as NSString).pathExtension.lowercased())
    }

    let library: Library
    let now: Date
    /// `IngestLoop.sidecarFolders`: where an XMP sidecar may be; nil, anywhere.
    var sidecarFolders: Set<String>? = nil
    /// The library folder, opened once for every file this probe (and its copies on the
    /// workers) reads: each file is opened below it, never through a link at any component.
    private let root: OpenLibraryFolder

    init(library: Library, now: Date) {
        self.library = library
        self.now = now
        root = OpenLibraryFolder(library.root.path)
    }

    /// What is said of a media file of 0 bytes (`scan`, `watch`, `doctor`).
    static let emptyFile = "empty file (0 bytes)"

    /// What is said of a file reached through a symbolic link (a folder on its way swapped for
    /// one after the walk, or the file itself): not read.
    static let linkOnTheWay = "a symbolic link is on its way (a folder replaced by a link?); Shoebox does not follow links inside the library, so it was not read"

    /// `hashing: false` judges the file without reading it all (`doctor`): the result's `sha256` is empty.
    func probe(_ path: String, buffer: UnsafeMutableRawBufferPointer, hashing: Bool = true) -> Outcome {
        // Below the library's descriptor, as every file operation (`LibraryFiles`): the walk did
        // not follow links, and a folder swapped for one since is refused, not read through.
        let fd = root.fd >= 0 ? shoebox_open_beneath(root.fd, path, O_RDONLY | O_NOCTTY | O_NONBLOCK, 0) : -1
        guard fd >= 0 else {
            let e = root.fd >= 0 ? errno : root.openError
            if e == EACCES || e == EPERM {
                let fullPath = library.url(for: path).path
                return .failed(FileProblem(path: path, reason: "permission denied; fix with `chmod u+r \(shellQuote(fullPath))`"))
            }
            if e == ENOENT { return .failed(FileProblem(path: path, reason: "vanished while scanning")) }
            if e == ELOOP || e == EXDEV || e == ENOTDIR {
                return .failed(FileProblem(path: path, reason: FileProbe.linkOnTheWay))
            }
            return .failed(FileProblem(path: path, reason: "cannot open: \(ShoeboxError.errnoText(e))"))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            return .failed(FileProblem(path: path, reason: "cannot stat: \(ShoeboxError.errnoText())"))
        }
        let before = FileStat(st)
        guard before.isRegular else {
            return .failed(FileProblem(path: path, reason: "\(before.typeName), not a regular file"))
        }
        let ext = (path as NSString).pathExtension.lowercased()
        let expectsMedia = FileProbe.mediaExtensions.contains(ext)
        if before.size == 0 {
            return expectsMedia ? .failed(FileProblem(path: path, reason: FileProbe.emptyFile))
                : .ignored(FileProblem(path: path, reason: "empty, and not named as a photo or video; never indexed", kind: "empty file"))
        }
        // The file's first buffer-full is read once: the metadata readers' reads inside it are
        // served from memory, and the hash starts with it (a second copy out of the page cache
        // per file was ~7 % of a cold scan's CPU: issue 33).
        let headCount: Int
        do { headCount = try FileProbe.readHead(fd: fd, size: before.size, into: buffer) } catch {
            return .failed(FileProblem(path: path, reason: "cannot read: \(error)"))
        }
        let source = HeadBufferedSource(file: FileByteSource(fd: fd, size: before.size),
                                        head: UnsafeRawBufferPointer(rebasing: buffer[0..<headCount]))
        let head: [UInt8]
        do { head = try source.read(at: 0, length: 4096) } catch {
            return .failed(FileProblem(path: path, reason: "cannot read: \(error)"))
        }
        guard MetadataReader.sniff(head, fileName: (path as NSString).lastPathComponent) != nil else {
            guard expectsMedia else {
                return .ignored(FileProblem(path: path, reason: "not a photo or video: \(FileProbe.describeContent(head)); never indexed",
                                            kind: FileProbe.contentKind(head)))
            }
            return .failed(FileProblem(path: path, reason: "not a photo or video: \(FileProbe.describeContent(head))"))
        }
        var metadata: MediaMetadata
        do {
            metadata = try MetadataReaders.current.read(source, fileName: (path as NSString).lastPathComponent, now: now)
        } catch {
            return .failed(FileProblem(path: path, reason: String(describing: error)))
        }
        mergeXMPSidecar(of: path, into: &metadata)
        var warning: String? = nil
        if let incomplete = MetadataReaders.current.incompleteness(source, format: metadata.format) {
            let age = Int64(now.timeIntervalSince1970 * 1e9) - before.mtimeNS
            if age < FileProbe.settleSeconds * 1_000_000_000 {
                return .failed(FileProblem(path: path, reason: "\(incomplete); not indexed until it is complete",
                                           stillBeingWritten: true))
            }
            warning = "\(incomplete); indexed anyway, the file looks damaged"
        }
        guard hashing else { return .indexed(Result(path: path, stat: before, sha256: "", metadata: metadata, warning: warning)) }
        let sha: String
        do { sha = try FileProbe.sha256(fd: fd, buffer: buffer, headCount: headCount) } catch {
            return .failed(FileProblem(path: path, reason: "cannot read: \(error)"))
        }
        var after = stat()
        if fstat(fd, &after) == 0 {
            let a = FileStat(after)
            if a.size != before.size || a.mtimeNS != before.mtimeNS {
                return .failed(FileProblem(path: path, reason: "changed while being read; it will be indexed once it settles",
                                           stillBeingWritten: true))
            }
        }
        return .indexed(Result(path: path, stat: before, sha256: sha, metadata: metadata, warning: warning))
    }

    /// Reads the start of the file into `buffer` (all of it, or as much as fits); returns how
    /// many bytes it holds (fewer than asked only when the file shrank).
    static func readHead(fd: Int32, size: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
        let want = Int(min(Int64(buffer.count), size))
        var done = 0
        while done < want {
            let n = pread(fd, buffer.baseAddress! + done, want - done, off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw ShoeboxError(.io, ShoeboxError.errnoText())
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Streams the whole file through SHA-256 with sequential reads; the first `headCount` bytes
    /// are already in `buffer` (`readHead`).
    static func sha256(fd: Int32, buffer: UnsafeMutableRawBufferPointer, headCount: Int = 0) throws -> String {
        let hasher = SHA256Hasher()
        if headCount > 0 { hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<headCount])) }
        var offset = off_t(headCount)
        if headCount == 0 { posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL) }
        while true {
            let n = pread(fd, buffer.baseAddress!, buffer.count, offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw ShoeboxError(.io, ShoeboxError.errnoText())
            }
            if n == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            offset += off_t(n)
        }
        return hasher.finalize()
    }

    /// A few words on what a non-media file seems to be, for "not a photo" messages.
    static func describeContent(_ head: [UInt8]) -> String {
        switch contentKind(head) {
        case "PDF": return "content is a PDF"
        case "ZIP": return "content is a ZIP archive"
        case "GIF": return "content is a GIF (not supported)"
        case "WebP", "RIFF": return "content is RIFF (WebP/AVI, not supported)"
        case "TIFF": return "content is a TIFF under a name that is not .tif or .tiff, or a camera raw file Shoebox does not read"
        case "HTML/XML": return "content is HTML/XML text"
        case "text": return "content is text"
        default: return "content is not JPEG, PNG, HEIC, TIFF, camera raw, MP4 or MOV"
        }
    }

    /// What a file that is not a photo or video is, from its first bytes, in a word
    /// (`FileProblem.kind`): "GIF", "WebP", "PDF", "text" …, "unknown" when nothing says.
    static func contentKind(_ head: [UInt8]) -> String {
        func starts(_ bytes: [UInt8]) -> Bool { head.starts(with: bytes) }
        if starts([0x25, 0x50, 0x44, 0x46]) { return "PDF" }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return "ZIP" }
        if starts([0x47, 0x49, 0x46, 0x38]) { return "GIF" }
        if starts([0x52, 0x49, 0x46, 0x46]) { return head.count >= 12 && head[8..<12].elementsEqual("WEBP".utf8) ? "WebP" : "RIFF" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if starts([0x42, 0x4D]) && head.count > 14 { return "BMP" }
        if head.count >= 12 && head[4..<8].elementsEqual("ftyp".utf8) {
            return head[8..<12].elementsEqual("avif".utf8) || head[8..<12].elementsEqual("avis".utf8) ? "AVIF" : "ISO media"
        }
        if starts([0x3C]) || starts([0xEF, 0xBB, 0xBF, 0x3C]) { return "HTML/XML" }
        let printable = head.filter { ($0 >= 0x20 && $0 < 0x7f) || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }.count
        if !head.isEmpty && printable * 10 >= head.count * 9 { return "text" }
        return "unknown"
    }

    /// A companion file's kind: its extension (".txt", ".aae").
    static func companionKind(_ path: String) -> String {
        let ext = (path as NSString).pathExtension.lowercased()
        return ext.isEmpty ? "unknown" : "." + ext
    }
}

/// A file whose first bytes are already in memory: reads inside them are copied from there,
/// others go to the file. Valid only while the memory it borrows is (one `probe`).
struct HeadBufferedSource: ByteSource {
    let file: FileByteSource
    let head: UnsafeRawBufferPointer
    var count: Int64 { file.count }

    func read(at offset: Int64, length: Int) throws -> [UInt8] {
        guard offset >= 0, offset < count, length > 0 else { return [] }
        let end = min(offset + Int64(length), count)
        guard end <= Int64(head.count) else { return try file.read(at: offset, length: length) }
        // One copy of the bytes: `Array(head[range])` went through a raw buffer's slice a byte
        // at a time (a photo's EXIF and XMP segments, ~1 % of a first scan's CPU).
        let count = Int(end - offset)
        return [UInt8](unsafeUninitializedCapacity: count) { bytes, initialized in
            bytes.baseAddress!.initialize(from: head.baseAddress!.advanced(by: Int(offset)).assumingMemoryBound(to: UInt8.self), count: count)
            initialized = count
        }
    }
}

/// A folder's descriptor held open while something reads below it; closed when the last copy
/// of what holds it goes. The library folder itself may be a link (`~/Pictures` → a disk):
/// it is opened as given, and only what is inside is confined.
final class OpenLibraryFolder: @unchecked Sendable {
    let fd: Int32
    /// errno of the open when `fd` is -1.
    let openError: Int32

    init(_ path: String) {
        fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        openError = fd >= 0 ? 0 : errno
    }

    deinit { if fd >= 0 { close(fd) } }
}
