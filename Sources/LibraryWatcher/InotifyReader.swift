import CInotifyTools
import Foundation
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// The one owner of libinotifytools (it keeps global state and blocks): a thread of its own
/// that watches the library recursively, keeps the watches in step with folders that appear,
/// move and go, and turns inotify events into `WatchEvent`s on the queue.
final class InotifyReader: @unchecked Sendable {
    private let library: Library
    private let queue: EventQueue
    /// The root without a trailing slash, and with one (libinotifytools names folders that way).
    private let root: String
    private let rootSlash: String
    private var rootWatch: Int32 = -1
    /// inotify is set up; false after a failure that sent the watcher to polling (the thread ends).
    private var watching = false
    /// Every watched folder, full path with a trailing slash: what to unwatch when a folder leaves.
    private var folders = Set<String>()
    /// Folder renames whose second half has not come yet.
    private var folderMovesInFlight: [UInt32: (path: String, since: Date)] = [:]
    /// Device and inode of the root when it was watched. Unmounting a bind mount, or a folder
    /// put in the root's place, sends no event on the watched inodes: only the path now leads
    /// elsewhere, which a cheap stat once a second notices.
    private var rootIdentity: (dev: UInt64, ino: UInt64)?
    private var lastRootCheck = Date()

    static let events = Int32(IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
                              | IN_DELETE_SELF | IN_MOVE_SELF)

    init(library: Library, queue: EventQueue) {
        self.library = library
        self.queue = queue
        var r = library.root.path
        while r.count > 1 && r.hasSuffix("/") { r.removeLast() }
        root = r
        rootSlash = r == "/" ? r : r + "/"
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "shoebox-inotify"
        thread.start()
    }

    private func run() {
        guard setUp() else { return }
        queue.push(.ready)
        while watching && !queue.isStopped {
            // A one-second timeout lets the thread notice a stop and expire folder moves out.
            guard let event = inotifytools_next_event(1) else {
                let error = inotifytools_error()
                if error != 0 && error != EINTR {
                    rebuild(reason: "reading inotify events failed (\(String(cString: strerror(error))))")
                }
                expireFolderMoves()
                checkRootIdentity()
                continue
            }
            handle(event)
            expireFolderMoves()
            checkRootIdentity()
        }
        if watching { tearDown() }
    }

    // MARK: Setting up

    /// Starts inotify and watches the whole tree. On failure says why on the queue and returns false.
    private func setUp() -> Bool {
        guard inotifytools_initialize() != 0 else {
            let e = inotifytools_error()
            let hint = e == EMFILE
                ? "; too many inotify instances: raise the limit with `sudo sysctl fs.inotify.max_user_instances=1024`"
                : ""
            queue.push(.unavailable(message: "cannot start inotify: \(String(cString: strerror(e)))\(hint)"))
            return false
        }
        guard watchTree(root) else {
            inotifytools_cleanup()
            folders.removeAll()
            return false
        }
        rootWatch = inotifytools_wd_from_filename(rootSlash)
        if rootWatch < 0 { rootWatch = inotifytools_wd_from_filename(root) }
        rootIdentity = currentRootIdentity()
        watching = true
        return true
    }

    private func currentRootIdentity() -> (dev: UInt64, ino: UInt64)? {
        var st = stat()
        guard stat(root, &st) == 0 else { return nil }
        return (UInt64(st.st_dev), UInt64(st.st_ino))
    }

    private func checkRootIdentity() {
        guard watching, Date().timeIntervalSince(lastRootCheck) >= 1 else { return }
        lastRootCheck = Date()
        let now = currentRootIdentity()
        guard let was = rootIdentity, let now, now.dev == was.dev, now.ino == was.ino else {
            rootGone(reason: "the library folder \(root) was unmounted or replaced")
            return
        }
    }

    private func tearDown() {
        rootIdentity = nil
        inotifytools_cleanup()
        folders.removeAll()
        folderMovesInFlight.removeAll()
        rootWatch = -1
        watching = false
    }

    /// Events were lost: watch everything afresh, then ask for a reconciling scan.
    private func rebuild(reason: String) {
        tearDown()
        guard library.looksPresent else { return rootGone(reason: reason) }
        if setUp() { queue.push(.resync(reason: reason)) }
    }

    /// The root is gone: drop every watch and look for it once a second (a mount appearing
    /// sends no event), then watch it again.
    private func rootGone(reason: String) {
        tearDown()
        queue.push(.rootLost(reason: reason))
        while queue.pause(seconds: 1) {
            if library.looksPresent {
                if setUp() { queue.push(.rootBack) }
                return
            }
        }
    }

    /// Watches a folder and everything under it that `LibraryLayout` indexes (reserved and
    /// hidden folders excluded, links not followed),
    /// and records each folder. False when the watch limit is reached (the queue is told) — a
    /// folder that vanished meanwhile is no failure.
    ///
    /// Each folder is watched before it is listed: a subfolder made after the listing is then
    /// reported by its parent's watch. libinotifytools' recursive watch lists a folder before it
    /// watches it, so subfolders made in between (`mkdir -p`, a file manager pasting a tree) were
    /// never watched and files later dropped into them never seen. What is already in a new
    /// folder is found by the scan of the tree that its arrival causes.
    @discardableResult
    private func watchTree(_ top: String) -> Bool {
        var stack = [top]
        while let dir = stack.popLast() {
            let dirSlash = dir == "/" ? dir : dir + "/"
            if inotifytools_wd_from_filename(dirSlash) < 0 && inotifytools_wd_from_filename(dir) < 0 {
                // Below the root, a folder swapped for a link is not followed (IN_DONT_FOLLOW)
                // and a file is not watched as a folder (IN_ONLYDIR): nothing outside is watched.
                let confined: Int32 = dir == top && top == root ? 0 : Int32(bitPattern: UInt32(IN_DONT_FOLLOW | IN_ONLYDIR))
                if inotifytools_watch_file(dirSlash, InotifyReader.events | confined) == 0 && !goesOnAfterFailedWatch(dir) { return false }
            }
            folders.insert(dirSlash)
            guard let handle = opendir(dir) else { continue }
            defer { closedir(handle) }
            while let ent = readdir(handle) {
                let type = Int(ent.pointee.d_type)
                guard type == Int(DT_DIR) || type == Int(DT_UNKNOWN) else { continue }
                let name = withUnsafeBytes(of: ent.pointee.d_name) { raw in
                    String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
                }
                if name == "." || name == ".." { continue }
                let child = (dir == "/" ? "" : dir) + "/" + name
                var st = stat()
                guard LibraryLayout.descends(intoFolderNamed: name, atRoot: dir == root),
                      lstat(child, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { continue }
                stack.append(child)
            }
        }
        return true
    }

    /// After a failed watch: whether watching goes on; when not, the queue has been told why.
    private func goesOnAfterFailedWatch(_ path: String) -> Bool {
        let e = inotifytools_error()
        if e == ENOSPC {
            let limit = inotifytools_get_max_user_watches()
            queue.push(.unavailable(message: """
                out of inotify watches (fs.inotify.max_user_watches = \(limit)) for the folders of \(root); \
                raise the limit with `sudo sysctl fs.inotify.max_user_watches=\(max(524_288, Int(limit) * 4))` \
                (and put that line in /etc/sysctl.d/90-shoebox.conf to keep it)
                """))
            // The watcher polls from now on: this thread lets go of inotify and ends.
            if watching { tearDown() }
            return false
        }
        if e != ENOENT && e != ENOTDIR && path == root {
            queue.push(.unavailable(message: "cannot watch \(root): \(String(cString: strerror(e)))"))
            return false
        }
        return true
    }

    /// Stops watching a folder and everything under it (it left the library).
    private func unwatchTree(_ path: String) {
        let prefix = path + "/"
        for f in folders where f.hasPrefix(prefix) {
            inotifytools_remove_watch_by_filename(f)
            folders.remove(f)
        }
    }

    /// A folder renamed within the library: the kernel's watches follow it; the names libinotifytools
    /// reports for them must too.
    private func renameTree(from old: String, to new: String) {
        inotifytools_replace_filename(old + "/", new + "/")
        let prefix = old + "/"
        for f in folders where f.hasPrefix(prefix) {
            folders.remove(f)
            folders.insert(new + "/" + f.dropFirst(prefix.count))
        }
    }

    /// A folder rename whose second half did not follow: the folder left the library.
    private func expireFolderMoves() {
        guard !folderMovesInFlight.isEmpty else { return }
        let limit = Date().addingTimeInterval(-0.5)
        for (cookie, move) in folderMovesInFlight where move.since < limit {
            folderMovesInFlight[cookie] = nil
            unwatchTree(move.path)
        }
    }

    // MARK: Events

    private func relative(_ full: String) -> String? {
        guard full.hasPrefix(rootSlash), full.count > rootSlash.count else { return nil }
        return String(full.dropFirst(rootSlash.count))
    }

    /// Folders Shoebox indexes: not reserved, not hidden. Only those are watched.
    private func indexableFolder(_ relative: String) -> Bool {
        LibraryLayout.isIndexable(folder: relative)
    }

    private func handle(_ event: UnsafeMutablePointer<inotify_event>) {
        let mask = event.pointee.mask
        let wd = event.pointee.wd
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            return rebuild(reason: "the kernel's event queue overflowed")
        }
        if wd == rootWatch && mask & UInt32(IN_MOVE_SELF | IN_DELETE_SELF | IN_UNMOUNT | IN_IGNORED) != 0 {
            let what = mask & UInt32(IN_UNMOUNT) != 0 ? "was unmounted"
                : mask & UInt32(IN_DELETE_SELF) != 0 ? "was deleted"
                : mask & UInt32(IN_MOVE_SELF) != 0 ? "was moved or renamed" : "is no longer watched"
            // A rename of the root's parent also reports a move of the root; if it is still here, carry on afresh.
            if library.looksPresent && mask & UInt32(IN_MOVE_SELF) != 0 {
                return rebuild(reason: "the library folder's path changed")
            }
            return rootGone(reason: "the library folder \(root) \(what)")
        }
        if mask & UInt32(IN_UNMOUNT) != 0 {
            // A file system under the library went away: if it was the library's own, the root is gone.
            guard library.looksPresent else { return rootGone(reason: "the library folder \(root) was unmounted") }
            return rebuild(reason: "a file system inside the library was unmounted")
        }
        guard let dirC = inotifytools_filename_from_wd(wd) else { return }
        let dir = String(cString: dirC)
        guard let name = String(validatingCString: shoebox_inotify_event_name(event)) else {
            // Arrivals under a name that is not UTF-8 are said; the rest about them changes nothing.
            let dirSlash = dir.hasSuffix("/") ? dir : dir + "/"
            let arrival = mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 || mask & UInt32(IN_CREATE | IN_ISDIR) == UInt32(IN_CREATE | IN_ISDIR)
            if arrival, let relDir = dirSlash == rootSlash ? "" : relative(dirSlash) {
                let cName = shoebox_inotify_event_name(event)!
                let raw = Array(UnsafeRawBufferPointer(start: cName, count: strlen(cName)))
                if raw.first != UInt8(ascii: ".") { queue.push(.unnamable(displayPath(bytes: Array(relDir.utf8) + raw))) }
            }
            return
        }
        guard !name.isEmpty else {
            // About a watched folder itself (deleted, moved, unwatched): its parent reports it by name.
            return
        }
        let full = (dir.hasSuffix("/") ? dir : dir + "/") + name
        guard let rel = relative(full) else { return }
        let isFolder = mask & UInt32(IN_ISDIR) != 0
        let cookie = event.pointee.cookie

        if mask & UInt32(IN_CREATE) != 0 {
            // Files are acted on when closed after writing; a new folder is watched before it is announced.
            if isFolder && indexableFolder(rel) {
                guard watchTree(full) else { return }
                queue.push(.folderCreated(rel))
            }
        } else if mask & UInt32(IN_CLOSE_WRITE) != 0 {
            queue.push(.closedWrite(rel))
        } else if mask & UInt32(IN_MOVED_FROM) != 0 {
            if isFolder { folderMovesInFlight[cookie] = (full, Date()) }
            queue.push(.movedFrom(rel, cookie: cookie, isFolder: isFolder))
        } else if mask & UInt32(IN_MOVED_TO) != 0 {
            if isFolder {
                let old = folderMovesInFlight.removeValue(forKey: cookie)
                // From a watched folder: its watches follow it (or end, if it goes where nothing is
                // watched); from a hidden or reserved one, nothing under it was watched yet.
                if let old, let oldRel = relative(old.path), indexableFolder(oldRel) {
                    if indexableFolder(rel) { renameTree(from: old.path, to: full) } else { unwatchTree(old.path) }
                } else if indexableFolder(rel) {
                    guard watchTree(full) else { return }
                }
            }
            queue.push(.movedTo(rel, cookie: cookie, isFolder: isFolder))
        } else if mask & UInt32(IN_DELETE) != 0 {
            if isFolder { unwatchTree(full) }
            queue.push(.deleted(rel, isFolder: isFolder))
        }
    }
}
