import CShoeboxSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whole-file writes that a crash can never leave half-done: write a temporary file beside the
/// target, flush it, rename it over the target. Readers see the old file or the new one.
///
/// Every write is done inside an open folder (`openat`, `renameat`, `O_NOFOLLOW`), so a folder
/// swapped for a link while a batch is written cannot send it elsewhere. Inside a library the
/// folder is opened through `library.files` (`LibraryFiles.writeAtomically`/`writeDurably`),
/// which follows no link at any component; the `URL` forms are for files outside a library.
public enum AtomicFile {
    /// With `sync: false` the data is not flushed before the rename; the caller promises a
    /// `syncFileSystem` before it relies on the file, which costs one flush instead of one per file.
    public static func write(_ data: Data, to url: URL, sync: Bool = true) throws {
        let folder = url.deletingLastPathComponent().path
        try withFolder(folder) { try write(data, named: url.lastPathComponent, inFolder: $0, shownAs: folder, sync: sync) }
    }

    /// `write` of `name` inside the open folder `folderFD` (`shownAs` names it in messages).
    static func write(_ data: Data, named name: String, inFolder folderFD: Int32, shownAs folder: String, sync: Bool) throws {
        let temporary = try Temporary(name, in: folderFD, shownAs: folder, holding: data)
        defer { temporary.discard() }
        if sync { try temporary.flushData() }
        try temporary.rename()
        if sync { fsync(folderFD) }
    }

    /// Writes a batch of files, each replaced whole, all durable on return, without waiting for
    /// anybody else's data as `syncFileSystem` does (a scan during a 3 GB copy ran 7× slower).
    /// Every temporary is written and its write-back started; once each one's data is on disk
    /// they are renamed over their targets and the folder is flushed once. A crash at any
    /// instant leaves each target old or new and complete. On an error the targets renamed so far
    /// hold their new version and the others their old one. The files are in one folder.
    public static func writeDurably(_ files: [(data: Data, url: URL)]) throws {
        guard let first = files.first else { return }
        let folder = first.url.deletingLastPathComponent().path
        precondition(files.allSatisfy { $0.url.deletingLastPathComponent().path == folder }, "writeDurably: one folder a batch")
        try withFolder(folder) { fd in
            try writeDurably(files.map { (data: $0.data, name: $0.url.lastPathComponent) }, inFolder: fd, shownAs: folder)
        }
    }

    /// `writeDurably` inside the open folder `folderFD`, choosing how the data is waited for.
    ///
    /// Where metadata is not journaled in order (`flushingEachFile`), a file that *replaces* one
    /// has its data flushed before its rename, so the old version stays until the new one is
    /// whole. A *new* file (nothing at its name) has no old version to keep. With
    /// `newFilesReplayable` — only for a caller whose replay record names every file of the batch
    /// and repairs what a power cut leaves of a new one (the sidecars: `ScanJournal`) — a batch
    /// with `newFilesFlushedTogether` or more new files renames them unflushed and ends with one
    /// `syncfs` of their file system (their data, sizes and names at once) instead of a flush
    /// each — 1–4 ms each on this machine's journal-less ext4. Until it returns a power cut may
    /// leave such a file absent, empty, torn or holding a deleted file's old blocks, never an
    /// old version damaged (see docs/RELIABILITY.md, "a scan's batch"). Other callers keep a
    /// flush per file: a new file of theirs is absent or whole.
    static func writeDurably(_ files: [(data: Data, name: String)], inFolder folderFD: Int32, shownAs folder: String,
                             flushingEachFile: Bool? = nil, newFilesReplayable: Bool = false) throws {
        guard !files.isEmpty else { return }
        let eachFile = flushingEachFile ?? (syncFileRange == nil || !journalsMetadataInOrder(folderFD))
        let isNew = files.map { newFilesReplayable && !exists($0.name, in: folderFD) }
        let together = eachFile && isNew.count(where: { $0 }) >= newFilesFlushedTogether
        // At most this many temporaries open at once: a batch never runs out of descriptors.
        let chunk = 256
        for start in stride(from: 0, to: files.count, by: chunk) {
            let end = min(start + chunk, files.count)
            var temporaries: [Temporary] = []
            defer { for t in temporaries { t.discard() } }
            for ((data, name), new) in zip(files[start..<end], isNew[start..<end]) {
                let t = try Temporary(name, in: folderFD, shownAs: folder, holding: data)
                temporaries.append(t)
                // A new file the batch's one `syncfs` makes durable is not started on its own:
                // the flusher writes it with the rest (in a first scan each start was ~4 % of
                // the scan's CPU, spent submitting 2-KB writes one at a time).
                if !(together && new) { t.startWriteBack() }
            }
            for (t, new) in zip(temporaries, isNew[start..<end]) {
                if !eachFile { try t.waitForWriteBack() } else if !(together && new) { try t.flushData() }
            }
            for t in temporaries { try t.rename() }
        }
        if together {
            if shoebox_syncfs(folderFD) != 0 { throw ShoeboxError(.io, "cannot flush \(folder) to disk: \(ShoeboxError.errnoText())") }
        } else if fsync(folderFD) != 0 {
            throw ShoeboxError(.io, "cannot flush \(folder) to disk: \(ShoeboxError.errnoText())")
        }
    }

    /// New files in a batch from which one flush of their file system costs less than one each
    /// (and than waiting for whatever else is unwritten there: a batch of one or two keeps its
    /// own `fdatasync`s).
    static let newFilesFlushedTogether = 8

    /// Whether anything (a link included) is at `name` in the open folder.
    private static func exists(_ name: String, in folderFD: Int32) -> Bool {
        var st = stat()
        return fstatat(folderFD, name, &st, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT
    }

    /// Runs `body` with the folder at `path` open (outside a library: the path is followed as given).
    static func withFolder<T>(_ path: String, _ body: (Int32) throws -> T) throws -> T {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw ShoeboxError(.io, "cannot open \(path): \(ShoeboxError.errnoText())") }
        defer { close(fd) }
        return try body(fd)
    }

    /// Whether a file's data, once written, is made durable by the next journal commit of its
    /// folder: on ext3/ext4 with a journal, metadata is committed in order, so the one flush of
    /// the folder after the renames commits each file's size and blocks with them (one commit
    /// per batch). Elsewhere each file's data and size are flushed on their own (`fdatasync`; on
    /// a journaled ext4 that costs one commit per file, each waiting for other writers' data).
    /// Found in /proc/self/mountinfo by the folder's device.
    static func journalsMetadataInOrder(_ folder: String) -> Bool {
        (try? withFolder(folder) { journalsMetadataInOrder($0) }) ?? false
    }

    /// `journalsMetadataInOrder` of the open folder `folderFD`, found once for each file system
    /// (its device) in a process: a scan asks for every batch of sidecars.
    static func journalsMetadataInOrder(_ folderFD: Int32) -> Bool {
        var st = stat()
        guard fstat(folderFD, &st) == 0 else { return false }
        let dev = UInt64(st.st_dev)
        journalingLock.lock()
        defer { journalingLock.unlock() }
        if let known = journalingByDevice[dev] { return known }
        let answer = journalsMetadataInOrder(device: dev)
        journalingByDevice[dev] = answer
        return answer
    }

    private static let journalingLock = NSLock()
    nonisolated(unsafe) private static var journalingByDevice: [UInt64: Bool] = [:]

    /// Whether the file system on device `dev` journals its metadata in order (mountinfo, sysfs).
    private static func journalsMetadataInOrder(device dev: UInt64) -> Bool {
        guard let mounts = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return false }
        let device = "\((dev >> 8) & 0xfff | (dev >> 32) & ~0xfff):\(dev & 0xff | (dev >> 12) & ~0xff)"
        // "36 35 98:0 /root /mnt rw,noatime master:1 - ext4 /dev/vda rw": the type follows " - ".
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 2, fields[2] == device, let dash = fields.firstIndex(of: "-"), dash + 1 < fields.count else { continue }
            guard fields[dash + 1] == "ext4" || fields[dash + 1] == "ext3" else { return false }
            return hasJournal(device: device)
        }
        return false
    }

    /// Whether the ext4 file system on `device` ("254:0") has a journal: ext4 can be made
    /// without one (this machine's is), and then a folder's flush commits nothing but the folder.
    /// The kernel names the journal's thread in /sys/fs/ext4/<disk>/journal_task, or "<none>".
    private static func hasJournal(device: String) -> Bool {
        guard let disk = try? FileManager.default.destinationOfSymbolicLink(atPath: "/sys/dev/block/" + device),
              let task = try? String(contentsOfFile: "/sys/fs/ext4/\((disk as NSString).lastPathComponent)/journal_task",
                                     encoding: .utf8) else { return false }
        return Int(task.trimmingCharacters(in: .whitespacesAndNewlines)) != nil
    }

    /// A new file beside the target in an open folder, holding the whole data, open until it is
    /// renamed or discarded. The folder's descriptor is borrowed: it outlives the temporary.
    final class Temporary {
        let name: String
        let temporaryName: String
        /// The target as messages name it.
        let target: String
        let folderFD: Int32
        private var fd: Int32
        private var renamed = false

        /// The error of the system call that just failed on the temporary: a full disk (bytes,
        /// inodes or quota) is `noSpace`, so a caller can name the disk that is full.
        func failed(_ e: Int32 = errno) -> ShoeboxError {
            ShoeboxError(e == ENOSPC || e == EDQUOT ? .noSpace : .io, "cannot write \(target): \(ShoeboxError.errnoText(e))")
        }

        init(_ name: String, in folderFD: Int32, shownAs folder: String, holding data: Data) throws {
            self.name = name
            self.folderFD = folderFD
            target = folder + "/" + name
            temporaryName = ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
            fd = openat(folderFD, temporaryName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw failed() }
            do { try writeAll(data) } catch {
                discard()
                throw error
            }
        }

        /// Appends `data` to the temporary (an upload arrives in pieces).
        func writeAll(_ data: Data) throws {
            try data.withUnsafeBytes { buf in
                var done = 0
                while done < buf.count {
                    let n = Glibc.write(fd, buf.baseAddress! + done, buf.count - done)
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw failed()
                    }
                    done += n
                }
            }
        }

        /// Asks the kernel to start writing the data out now, without waiting for it.
        func startWriteBack() {
            _ = AtomicFile.syncFileRange?(fd, 0, 0, AtomicFile.syncFileRangeWrite)
        }

        /// Returns when the data has been written to the disk (not its size nor its name: see
        /// `journalsMetadataInOrder`).
        func waitForWriteBack() throws {
            let waitWriteWait: UInt32 = 7  // SYNC_FILE_RANGE_WAIT_BEFORE | WRITE | WAIT_AFTER
            if AtomicFile.syncFileRange?(fd, 0, 0, waitWriteWait) != 0 {
                throw failed()
            }
        }

        /// The data (and the size that covers it) on disk; not the name, which is the rename's.
        func flushData() throws {
            if fdatasync(fd) != 0 { throw failed() }
        }

        /// Closes the temporary and puts it in the target's place.
        func rename() throws {
            close(fd)
            fd = -1
            guard renameat(folderFD, temporaryName, folderFD, name) == 0 else {
                throw failed()
            }
            renamed = true
        }

        /// Closes the temporary once it has its name (`renameNoReplace`), so `discard` keeps it.
        func markRenamed() {
            if fd >= 0 { close(fd) }
            fd = -1
            renamed = true
        }

        /// Closes and deletes the temporary unless it was renamed; safe to call more than once.
        func discard() {
            if fd >= 0 { close(fd) }
            fd = -1
            if !renamed { unlinkat(folderFD, temporaryName, 0) }
            renamed = true
        }
    }

    /// sync_file_range(2), which Swift's Glibc module does not export (it needs _GNU_SOURCE):
    /// looked up once in the C library. Without it, each file's data is flushed on its own.
    private static let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
        guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
    }()
    /// SYNC_FILE_RANGE_WRITE from <fcntl.h>: start write-back of the dirty pages, do not wait.
    private static let syncFileRangeWrite: UInt32 = 2

    /// Whether `name` is a temporary of `write` (`.NAME.PID.RANDOM.tmp`), and the PID that made it.
    static func writerPID(ofTemporary name: String) -> pid_t? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 5, UInt32(parts[parts.count - 2]) != nil, let pid = pid_t(parts[parts.count - 3]), pid > 0 else { return nil }
        return pid
    }

    /// Deletes the temporaries in the open folder `folderFD` whose writer is gone: a `kill -9`
    /// (or a power cut) between the temporary's creation and its rename leaves one behind, and
    /// nothing else would ever remove it. They hold no photo (Shoebox's own files, and collages or
    /// stories not yet under their name: `create`). A live writer's temporary is kept; a PID reused since costs a few bytes until
    /// the next time. Returns the names removed.
    @discardableResult
    public static func removeTemporariesOfDeadWriters(inFolder folderFD: Int32) -> [String] {
        var removed: [String] = []
        forEachDirectoryEntry(fd: folderFD) { entry, _ in
            // Only names that start with "." can be ours: the cheap test first (a folder of 100,000 sidecars).
            guard entry.nameBytes.first == 0x2E, let name = entry.name, let pid = writerPID(ofTemporary: name),
                  pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { return }
            if unlinkat(folderFD, name, 0) == 0 { removed.append(name) }
        }
        return removed
    }

    /// `removeTemporariesOfDeadWriters` of the folder at `dir` (outside a library).
    @discardableResult
    public static func removeTemporariesOfDeadWriters(in dir: String) -> [String] {
        (try? withFolder(dir) { removeTemporariesOfDeadWriters(inFolder: $0) }) ?? []
    }

    /// Makes a rename durable: the directory entry itself must reach the disk.
    public static func syncDirectory(_ path: String) {
        try? syncDirectoryOrThrow(path)
    }

    /// `syncDirectory` for a caller that must not go on if the names did not reach the disk.
    static func syncDirectoryOrThrow(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw ShoeboxError(.io, "cannot open \(path): \(ShoeboxError.errnoText())") }
        defer { close(fd) }
        if fsync(fd) != 0 { throw ShoeboxError(.io, "cannot flush \(path) to disk: \(ShoeboxError.errnoText())") }
    }

    /// One flush for everything written on the file system that holds `path` (a batch's sidecars).
    public static func syncFileSystem(containing path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ShoeboxError(.io, "cannot open \(path): \(ShoeboxError.errnoText())") }
        defer { close(fd) }
        if shoebox_syncfs(fd) != 0 { throw ShoeboxError(.io, "cannot flush \(path) to disk: \(ShoeboxError.errnoText())") }
    }
}
