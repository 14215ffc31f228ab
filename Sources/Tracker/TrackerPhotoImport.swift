import CShoeboxSystem
import Foundation
import MetadataCore
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// Copies a photo into `Tracker/photos/` (requirements 4.2, 4.5, 6.3, 6.5, 12.3): the source —
/// a file anywhere, or an asset of the library — is accepted only when its content is JPEG, PNG
/// or HEIC (sniffed by Metadata, never the extension), copied byte for byte under the new
/// photo's id, its capture time read from its own metadata. A disk without room for it is
/// refused before anything is written (statvfs), and a write that still runs out of space
/// (another writer took it meanwhile) removes what it wrote: one line, nothing added.
struct TrackerPhotoImport {
    /// An open source photo.
    struct Source {
        var fd: Int32
        /// As messages show it.
        var shown: String
        var size: Int64
    }

    /// The largest photo accepted (docs/CONTRACT.md): a phone's or camera's JPEG, PNG or HEIC
    /// is a few to some tens of MB; anything near this is not a photo of a miniature, and is
    /// refused before a byte is copied.
    static let maximumSize: Int64 = 200 << 20
    /// Room kept besides the photo for the tracker file's rewrite.
    static let margin: Int64 = 1 << 20
    /// The capture-time sources that are the photo's own statement of when it was taken.
    static let captureSources: Set<DateSource> = [.exif, .xmp, .iptc, .container]

    let library: Library

    /// Opens `source`: a file outside the library (followed as given: it is the user's own
    /// path), else an asset of the library by id, id prefix or path (`openAsset`).
    func open(_ source: TrackerPhotoSource, index: Index, openOriginal: (Asset) throws -> OriginalFile) throws -> Source {
        let reference: String
        switch source {
        case .asset(let r): return try openAsset(r, index: index, openOriginal: openOriginal)
        case .file(let r), .reference(let r): reference = r
        case .received(let path, let name): return try openReceived(path, shownAs: name)
        }
        let absolute = URL(fileURLWithPath: reference, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)).standardizedFileURL.path
        if FileManager.default.fileExists(atPath: absolute), !isInsideLibrary(absolute) {
            let fd = Glibc.open(absolute, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
            guard fd >= 0 else {
                let e = errno
                throw ShoeboxError(e == EACCES ? .unreadable : .io, "cannot read \(reference): \(String(cString: strerror(e)))" + (e == EACCES ? " (`ls -l` shows its owner and mode; `chmod u+r` makes it readable)" : ""))
            }
            return try checked(fd, shown: reference)
        }
        if case .file = source, !FileManager.default.fileExists(atPath: absolute) {
            throw ShoeboxError(.notFound, "cannot read \(reference): \(String(cString: strerror(ENOENT)))")
        }
        return try openAsset(reference, index: index, openOriginal: openOriginal)
    }

    /// A file a front end received, at `path` (its own temporary, outside the library: no link
    /// is followed there), named in messages as `name`.
    private func openReceived(_ path: String, shownAs name: String) throws -> Source {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw ShoeboxError(.io, "cannot read the received \(name): \(String(cString: strerror(errno)))") }
        return try checked(fd, shown: name)
    }

    /// An asset of the library by id, id prefix or path, opened through the session's one
    /// verified opener (confined, the file the index knows).
    private func openAsset(_ reference: String, index: Index, openOriginal: (Asset) throws -> OriginalFile) throws -> Source {
        let asset = try index.resolve(reference, preferring: .present)
        guard asset.state == .present else {
            throw ShoeboxError(.invalidArgument, "\(displayPath(asset.path)) is \(asset.state.rawValue); only a photo present in the library can be added")
        }
        let original = try openOriginal(asset)
        // A descriptor of its own: the caller closes the source's, the original closes its own.
        let fd = withExtendedLifetime(original) { fcntl(original.descriptor, F_DUPFD_CLOEXEC, 0) }
        guard fd >= 0 else { throw ShoeboxError(.io, "cannot read \(displayPath(asset.path)): \(String(cString: strerror(errno)))") }
        return try checked(fd, shown: asset.path)
    }

    /// Whether `path` (absolute) resolves to a place inside the library.
    private func isInsideLibrary(_ path: String) -> Bool {
        guard let real = realpath(path, nil), let root = realpath(library.root.path, nil) else { return false }
        defer { free(real); free(root) }
        let r = String(cString: real), base = String(cString: root)
        return r == base || r.hasPrefix(base.hasSuffix("/") ? base : base + "/")
    }

    /// `fd` as a source: a regular file of an accepted size (closed when it is not).
    private func checked(_ fd: Int32, shown: String) throws -> Source {
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw ShoeboxError(.invalidArgument, "\(shown) is not a file")
        }
        guard Int64(st.st_size) <= Self.maximumSize else {
            close(fd)
            throw Self.tooLarge(shown, size: Int64(st.st_size))
        }
        return Source(fd: fd, shown: shown, size: Int64(st.st_size))
    }

    /// The refusal of a file of `size` bytes, more than `maximumSize`.
    static func tooLarge(_ shown: String, size: Int64) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "\(shown) is \(formatBytes(size)), larger than any photo the tracker takes (\(formatBytes(Self.maximumSize)) at most); nothing was added")
    }

    /// What `source` is: JPEG, PNG or HEIC by its content, with a header that gives an image
    /// (its dimensions) — a file that only starts like a photo is refused in one line — and when
    /// it says it was taken (its own metadata only; nil otherwise), as ISO 8601.
    func examine(_ source: Source) throws -> (format: MediaFormat, takenAt: String?) {
        let format = try format(of: source)
        let name = (source.shown as NSString).lastPathComponent
        let metadata: MediaMetadata
        do {
            metadata = try MetadataReaders.current.read(FileByteSource(fd: source.fd, size: source.size), fileName: name, now: ShoeboxClock.now())
        } catch {
            throw notAnImage(source, format, "\(error)")
        }
        guard metadata.pixelWidth > 0, metadata.pixelHeight > 0 else { throw notAnImage(source, format, "its header gives no image size") }
        guard let taken = metadata.takenAt, Self.captureSources.contains(taken.source) else { return (format, nil) }
        return (format, taken.iso8601)
    }

    private func notAnImage(_ source: Source, _ format: MediaFormat, _ why: String) -> ShoeboxError {
        ShoeboxError(.invalidArgument, "\(source.shown) starts like a \(format.rawValue.uppercased()) photo but is not one (\(why)); nothing was added")
    }

    /// The format of `source` by its content; throws unless JPEG, PNG or HEIC.
    func format(of source: Source) throws -> MediaFormat {
        var head = [UInt8](repeating: 0, count: 4096)
        let n = pread(source.fd, &head, head.count, 0)
        let format = n > 0 ? MetadataReader.sniff(Array(head[..<n])) : nil
        guard let format, [.jpeg, .png, .heic].contains(format) else {
            let what = n == 0 ? "an empty file" : format.map { $0.isVideo ? "a \($0.rawValue) video" : "a camera raw file" } ?? "not an image Shoebox recognises"
            throw ShoeboxError(.invalidArgument, "\(source.shown) is \(what): the tracker takes JPEG, PNG and HEIC photos only (checked by content, not by name)")
        }
        return format
    }

    /// Copies `source` to `Tracker/photos/<name>`, whole before it gets its name; returns its SHA-256.
    func copy(_ source: Source, named name: String) throws -> String {
        try library.files.withFolder(TrackerIntegrity.photosFolder, creating: true) { folder in
            var fs = statvfs()
            if fstatvfs(folder, &fs) == 0 {
                let free = Int64(fs.f_bavail) * Int64(fs.f_frsize)
                if free < source.size + Self.margin || fs.f_favail < 2 { throw full(source, free: free) }
            }
            let temporary = ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
            let out = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard out >= 0 else { throw failure(errno, source) }
            var renamed = false
            defer {
                close(out)
                if !renamed { unlinkat(folder, temporary, 0) }
            }
            let digest = try copyBytes(source, to: out)
            guard fsync(out) == 0 else { throw failure(errno, source) }
            guard shoebox_renameat_noreplace(folder, temporary, folder, name) == 0 else { throw failure(errno, source) }
            renamed = true
            fsync(folder)
            return digest
        }
    }

    /// The bytes of `source` into `out`, hashed on the way.
    private func copyBytes(_ source: Source, to out: Int32) throws -> String {
        let hasher = SHA256Hasher()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let n = pread(source.fd, &buffer, buffer.count, offset)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw ShoeboxError(.io, "cannot read \(source.shown): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            hasher.update(buffer[..<n])
            if let e = TrackerFaults.injected(.photo) { throw failure(e, source) }
            var written = 0
            while written < n {
                let w = buffer.withUnsafeBytes { write(out, $0.baseAddress! + written, n - written) }
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { throw failure(w < 0 ? errno : ENOSPC, source) }
                written += w
            }
            offset += off_t(n)
        }
        return hasher.finalize()
    }

    private func full(_ source: Source, free: Int64?) -> ShoeboxError {
        let room = free.map { " (\(formatBytes($0)) free, \(formatBytes(source.size)) needed)" } ?? ""
        return ShoeboxError(.noSpace, "the disk holding \(library.root.path) is full\(room): \(source.shown) was not added; free some space and try again")
    }

    private func failure(_ e: Int32, _ source: Source) -> ShoeboxError {
        switch e {
        case ENOSPC, EDQUOT: return full(source, free: nil)
        case EACCES, EPERM, EROFS:
            return ShoeboxError(.readOnly, "cannot write into \(library.root.path)/\(TrackerIntegrity.photosFolder) (\(String(cString: strerror(e)))): \(source.shown) was not added; make it writable (`ls -ld` shows its owner and mode)")
        default: return ShoeboxError(.io, "cannot copy \(source.shown) into \(TrackerIntegrity.photosFolder): \(String(cString: strerror(e))); nothing was added")
        }
    }
}
