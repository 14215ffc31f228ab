import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The attack on a command that checks a folder outside the library by its path and then
/// writes there by path: a background thread swaps the folder, as fast as it can, with a
/// symbolic link into the library (`renameat2(RENAME_EXCHANGE)`, so the name is always one or
/// the other). A command that writes relative to the folder it opened and checked never lands
/// in the library; one that goes by path again does, a few times in 25.
public final class FolderSwap: Sendable {
    /// The name the command is given: the real folder or the link, alternately while swapping,
    /// the real folder again after `stop`.
    public let folder: URL
    private let link: URL
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Makes `folder` (a real, empty folder) and beside it a link to `target` (in the library).
    public init(_ folder: URL, linkTo target: URL) throws {
        self.folder = folder
        link = folder.deletingLastPathComponent().appendingPathComponent(folder.lastPathComponent + ".link")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    }

    /// Starts swapping in a background thread.
    public func start() {
        let (a, b) = (folder.path, link.path)
        Thread { [self] in
            while !stopped.load(ordering: .relaxed) { _ = Self.exchange(a, b) }
            finished.signal()
        }.start()
    }

    /// Stops swapping and puts the real folder back under its name.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        finished.wait()
        var st = stat()
        if lstat(folder.path, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK { _ = Self.exchange(folder.path, link.path) }
    }

    /// `renameat2(a, b, RENAME_EXCHANGE)`, which Swift's Glibc does not export: looked up once.
    private static func exchange(_ a: String, _ b: String) -> Int32 {
        renameat2(AT_FDCWD, a, AT_FDCWD, b, 2)
    }

    private static let renameat2: @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32 = {
        guard let symbol = dlsym(nil, "renameat2") else { fatalError("renameat2 is missing from the C library") }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32).self)
    }()

    /// Every name under `root`, relative, links not followed, `.shoebox/` left out (the index
    /// and lock a command may touch): what a test compares before and after to show that
    /// nothing appeared in the library.
    public static func names(under root: URL) -> Set<String> {
        var out: Set<String> = []
        func walk(_ relative: String) {
            let dir = relative.isEmpty ? root.path : root.path + "/" + relative
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where !(relative.isEmpty && name == ".shoebox") {
                let path = relative.isEmpty ? name : relative + "/" + name
                out.insert(path)
                var st = stat()
                if lstat(dir + "/" + name, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR { walk(path) }
            }
        }
        walk("")
        return out
    }
}

extension FolderSwap {
    /// Runs `command(i)` for i in 0..<times while the folder is swapped; the results in order.
    public func during<R>(_ times: Int, _ command: (Int) throws -> R) rethrows -> [R] {
        start()
        defer { stop() }
        return try (0..<times).map(command)
    }
}
