import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs, which a test fills, gives space back to, runs out of inodes or remounts
/// read-only — holding a copy of the sample library, or a folder outside one that a command
/// writes into. Mounting needs root; elsewhere the tests that need it are skipped and say why.
public final class SmallDisk {
    public let mountPoint: URL
    public var library: URL { mountPoint.appendingPathComponent("library") }
    private var filler: URL { mountPoint.appendingPathComponent("filler") }

    /// Nil when a tmpfs can be mounted here, else why not.
    public static let unavailable: String? = {
        guard geteuid() == 0 else { return "mounting a tmpfs needs root" }
        let dir = Scratch.root.appendingPathComponent("shoebox-mount-probe-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        guard let r = try? TestRoll.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir.path], allowFailure: true),
              r.status == 0 else { return "mount -t tmpfs is not permitted here" }
        _ = try? TestRoll.run("/bin/umount", [dir.path], allowFailure: true)
        return nil
    }()

    /// `megabytes` of tmpfs with the sample library's `folders` copied to `library/` (none:
    /// an empty disk).
    public init(megabytes: Int, folders: [String] = []) throws {
        mountPoint = Scratch.root.appendingPathComponent("shoebox-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        try TestRoll.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", mountPoint.path])
        guard !folders.isEmpty else { return }
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try copyIn(folders)
    }

    public func copyIn(_ folders: [String]) throws {
        let sample = try TestRoll.sampleLibrary().root
        for f in folders { try TestRoll.run("/bin/cp", ["-a", sample.appendingPathComponent(f).path, library.path + "/"]) }
    }

    /// A folder on this disk the user had before a command wrote into it, holding their
    /// `notes.txt` ("mine"): what a failed run must leave as it found it.
    public func usersFolder(_ name: String) throws -> URL {
        let folder = mountPoint.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        return folder
    }

    public var freeBytes: Int {
        var fs = statvfs()
        statvfs(mountPoint.path, &fs)
        return Int(fs.f_bavail) * Int(fs.f_frsize)
    }

    /// Takes all free space but `bytes` (tmpfs counts whole pages). Something else may write
    /// meanwhile (a running `watch`): then it tries again with what is left, in another file.
    public func fill(leaving bytes: Int) throws {
        giveSpaceBack()
        for attempt in 0..<40 {
            let size = freeBytes - bytes
            if size <= 0 { return }
            let r = try TestRoll.run("/usr/bin/fallocate", ["-l", String(size), filler.path + "-\(attempt)"], allowFailure: true)
            if r.status == 0 && freeBytes <= bytes { return }
            usleep(50_000)
        }
        throw NSError(domain: "SmallDisk", code: 1, userInfo: [NSLocalizedDescriptionKey: "could not fill \(mountPoint.path) to \(bytes) bytes free"])
    }

    public func giveSpaceBack() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: mountPoint.path)) ?? []
        for name in names where name.hasPrefix("filler") { try? FileManager.default.removeItem(at: mountPoint.appendingPathComponent(name)) }
    }

    public func remount(_ options: String) throws {
        try TestRoll.run("/bin/mount", ["-o", "remount," + options, mountPoint.path])
    }

    public var usedInodes: Int {
        var fs = statvfs()
        statvfs(mountPoint.path, &fs)
        return Int(fs.f_files) - Int(fs.f_ffree)
    }

    deinit {
        _ = try? TestRoll.run("/bin/umount", ["-l", mountPoint.path], allowFailure: true)
        try? FileManager.default.removeItem(at: mountPoint)
    }
}
