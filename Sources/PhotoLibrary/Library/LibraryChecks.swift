import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `inotify`: enough inotify watches for `watch`, one per folder of the library.
struct InotifyLimitCheck: DoctorCheck {
    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] {
        let watches = Int(((try? String(contentsOfFile: "/proc/sys/fs/inotify/max_user_watches", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let folders = context.walked.folders + 1
        if watches == 0 {
            return [.warning("inotify", "cannot read /proc/sys/fs/inotify/max_user_watches; `watch` may need --poll")]
        }
        if folders * 2 > watches {
            let want = max(524_288, folders * 4)
            return [.problem("inotify", "\(folders) folders to watch but max_user_watches is \(watches)",
                             fix: "sudo sysctl fs.inotify.max_user_watches=\(want) && echo fs.inotify.max_user_watches=\(want) | sudo tee /etc/sysctl.d/60-shoebox.conf")]
        }
        return [.ok("inotify", "\(folders) folders to watch, limit \(watches)")]
    }
}

/// `disk space` on the library's file system, and `writable` when it is mounted read-only.
struct DiskSpaceCheck: DoctorCheck {
    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] {
        var fs = statvfs()
        guard statvfs(context.library.root.path, &fs) == 0 else { return [] }
        let free = Int64(fs.f_bavail) * Int64(fs.f_frsize)
        let total = Int64(fs.f_blocks) * Int64(fs.f_frsize)
        let detail = "\(formatBytes(free)) free of \(formatBytes(total))"
        var found: [DoctorReport.Check]
        if free < 256 << 20 { found = [.problem("disk space", detail + "; writes of the index and sidecars may fail")] }
        else if free < 2 << 30 || (total > 0 && free * 20 < total) { found = [.warning("disk space", detail)] }
        else { found = [.ok("disk space", detail)] }
        if fs.f_flag & UInt(ST_RDONLY) != 0 {
            found.append(.problem("writable", "the library's file system is mounted read-only"))
        }
        return found
    }
}

/// `config`: `.shoebox/config.toml` reads (known keys, values within their bounds).
struct ConfigCheck: DoctorCheck {
    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] { Self.findings(context.library) }

    /// Needs no index: `doctor` says it also when the index cannot be opened.
    static func findings(_ library: Library) -> [DoctorReport.Check] {
        do {
            _ = try LibrarySettings.load(library)
            return [.ok("config", library.files.exists(LibraryLayout.statePath(library.configURL.lastPathComponent))
                        ? "config.toml reads" : "no config.toml: the defaults")]
        } catch {
            return [.problem("config", "\(error)", fix: "edit \(shellQuote(library.configURL.path))")]
        }
    }
}
