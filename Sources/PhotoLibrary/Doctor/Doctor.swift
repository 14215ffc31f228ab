import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `shoebox doctor`: checks that cost no file reads — index against disk, sidecars against
/// index, unreadable files, inotify limits, free space, symlink support.
public struct DoctorReport: Codable, Sendable {
    public enum Status: String, Codable, Sendable { case ok, warning, problem }
    public struct Check: Codable, Sendable {
        public var name: String
        public var status: Status
        public var detail: String
        /// A command that fixes it, when there is one.
        public var fix: String?
    }
    public var checks: [Check] = []
    public var healthy: Bool { !checks.contains { $0.status == .problem } }
}

extension Library {
    public func doctor() throws -> DoctorReport {
        var report = DoctorReport()
        func add(_ name: String, _ status: DoctorReport.Status, _ detail: String, fix: String? = nil) {
            report.checks.append(.init(name: name, status: status, detail: detail, fix: fix))
        }
        let index = try Index(library: self)

        // Index against disk, by size, mtime and inode only.
        let walked = try LibraryWalker(library: self).walk()
        let records = try index.fileRecords().filter { $0.state == .present }
        var byPath: [String: Index.FileRecord] = [:]
        for r in records { byPath[r.path] = r }
        var unindexed = 0, changed = 0
        var seen = Set<String>()
        var notInIndex: [String] = []
        for f in walked.files {
            seen.insert(f.path)
            guard let r = byPath[f.path] else {
                let ext = (f.path as NSString).pathExtension.lowercased()
                if FileProbe.mediaExtensions.contains(ext) { notInIndex.append(f.path) }
                continue
            }
            if r.size != f.stat.size || r.mtimeNS != f.stat.mtimeNS || r.inode != f.stat.inode { changed += 1 }
        }
        // A file the scan cannot index (damaged, not a photo, a bomb) is not a stale index: look
        // at the first few the way the scan does (headers and structure, not the whole file), so
        // that `doctor` does not ask for a scan that cannot help. Beyond that many, they are
        // counted as not indexed.
        var unindexable = walked.problems.filter { $0.reason == FileProblem.nameNotUTF8 }
        if !notInIndex.isEmpty {
            let probe = FileProbe(library: self, now: Date())
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 64)
            defer { buffer.deallocate() }
            for (i, path) in notInIndex.enumerated() {
                guard i < 200 else { unindexed += notInIndex.count - i; break }
                switch probe.probe(path, buffer: buffer, hashing: false) {
                case .failed(let problem) where !problem.stillBeingWritten: unindexable.append(problem)
                case .ignored: break
                default: unindexed += 1
                }
            }
        }
        let vanished = byPath.keys.filter { !seen.contains($0) }.count
        let scan = "shoebox --library \(shellQuote(root.path)) scan"
        if unindexed + changed + vanished == 0 {
            add("index", .ok, "\(records.count) files indexed, matching the disk")
        } else {
            add("index", .problem, "\(unindexed) files not indexed, \(changed) changed, \(vanished) vanished since the last scan", fix: scan)
        }

        // Sidecars against index.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sidecarFolder.path)) ?? []
        let sidecarIDs = Set(names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { String($0.dropLast(5)) })
        let indexIDs = Set(try index.read { db in try String.fetchAll(db, sql: "SELECT id FROM asset") })
        let noSidecar = indexIDs.subtracting(sidecarIDs).count
        let noRow = sidecarIDs.subtracting(indexIDs).count
        if noSidecar == 0 && noRow == 0 {
            add("sidecars", .ok, "\(sidecarIDs.count) sidecars, one per asset")
        } else {
            add("sidecars", .problem, "\(noSidecar) assets without a sidecar, \(noRow) sidecars not in the index",
                fix: "shoebox --library \(shellQuote(root.path)) rebuild")
        }
        if FileManager.default.fileExists(atPath: stateFolder.appendingPathComponent("journal.json").path) {
            add("journal", .warning, "an interrupted scan left a journal; the next scan replays it", fix: scan)
        }

        if !unindexable.isEmpty {
            let sample = unindexable.prefix(3).map { "\(displayPath($0.path)): \($0.reason)" }.joined(separator: "; ")
            add("unindexable", .warning, "\(unindexable.count) file\(unindexable.count == 1 ? "" : "s") cannot be indexed: \(sample)\(unindexable.count > 3 ? "; …" : "")",
                fix: "\(scan) names each; repair, convert or remove them")
        }

        // Files that cannot be read.
        let unreadable = walked.files.filter { access(url(for: $0.path).path, R_OK) != 0 }
        let problems = walked.problems.filter { $0.reason != FileProblem.nameNotUTF8 }
            + unreadable.map { FileProblem(path: $0.path, reason: "permission denied") }
        if problems.isEmpty {
            add("permissions", .ok, "every file and folder is readable")
        } else {
            let sample = problems.prefix(3).map { "\(displayPath($0.path)): \($0.reason)" }.joined(separator: "; ")
            add("permissions", .problem, "\(problems.count) unreadable: \(sample)",
                fix: "chmod -R u+rX \(shellQuote(root.path))")
        }

        // inotify: one watch per folder.
        let watches = Int(((try? String(contentsOfFile: "/proc/sys/fs/inotify/max_user_watches", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let folders = walked.folders + 1
        if watches == 0 {
            add("inotify", .warning, "cannot read /proc/sys/fs/inotify/max_user_watches; `watch` may need --poll")
        } else if folders * 2 > watches {
            let want = max(524_288, folders * 4)
            add("inotify", .problem, "\(folders) folders to watch but max_user_watches is \(watches)",
                fix: "sudo sysctl fs.inotify.max_user_watches=\(want) && echo fs.inotify.max_user_watches=\(want) | sudo tee /etc/sysctl.d/60-shoebox.conf")
        } else {
            add("inotify", .ok, "\(folders) folders to watch, limit \(watches)")
        }

        // Free space on the library's file system.
        var fs = statvfs()
        if statvfs(root.path, &fs) == 0 {
            let free = Int64(fs.f_bavail) * Int64(fs.f_frsize)
            let total = Int64(fs.f_blocks) * Int64(fs.f_frsize)
            let detail = "\(formatBytes(free)) free of \(formatBytes(total))"
            if free < 256 << 20 { add("disk space", .problem, detail + "; writes of the index and sidecars may fail") }
            else if free < 2 << 30 || (total > 0 && free * 20 < total) { add("disk space", .warning, detail) }
            else { add("disk space", .ok, detail) }
            if fs.f_flag & UInt(ST_RDONLY) != 0 {
                add("writable", .problem, "the library's file system is mounted read-only")
            }
        }

        // Albums need symbolic links (exFAT, FAT and some NTFS mounts have none).
        let linker = AlbumLinker(library: self, index: index)
        if let off = AlbumLinker.symlinkProblem(self) {
            add("symlinks", .warning, off)
        } else {
            add("symlinks", .ok, "supported; albums can be made")
            // Every album folder as the index says it should be, and no link that leads nowhere.
            let want = try linker.desired()
            var stale = 0, dangling = 0
            for album in want {
                let dir = root.path + "/" + AlbumLinker.folderName + "/" + album.path
                let onDisk = linker.readFolder(dir)?.links ?? [:]
                if onDisk != Dictionary(album.entries.map { ($0.linkName, $0.target) }, uniquingKeysWith: { a, _ in a }) { stale += 1 }
            }
            var stack = [root.path + "/" + AlbumLinker.folderName]
            while let dir = stack.popLast() {
                for name in linker.directoryNames(dir) {
                    let path = dir + "/" + name
                    var st = stat()
                    guard lstat(path, &st) == 0 else { continue }
                    if (st.st_mode & S_IFMT) == S_IFDIR { stack.append(path) }
                    else if (st.st_mode & S_IFMT) == S_IFLNK, stat(path, &st) != 0 { dangling += 1 }
                }
            }
            if stale + dangling == 0 {
                add("albums", .ok, "\(want.count) albums, every link resolves")
            } else {
                add("albums", .problem, "\(stale) album folders differ from the index, \(dangling) links lead nowhere", fix: scan)
            }
        }

        // Recently Deleted: each file with its .trashinfo and its asset.
        let trash = RecentlyDeleted(library: self, index: index, retentionDays: (try? LibrarySettings.load(self))?.trashRetentionDays ?? 30)
        let files = Set(trash.directoryNames(trash.filesFolder))
        let infos = Set(trash.infoNames())
        let trashedAssets = try index.assets(state: .trashed)
        let claimed = Set(trashedAssets.compactMap { $0.trash?.name })
        let orphanInfos = infos.subtracting(files).count
        let lostAssets = trashedAssets.filter { !files.contains($0.trash?.name ?? "") }.count
        let foreign = files.subtracting(claimed).count
        var badInfo = 0
        for name in infos.intersection(files) where (try? trash.readInfo(name)) == nil { badInfo += 1 }
        if orphanInfos + lostAssets + badInfo == 0 {
            add("recently deleted", .ok, "\(claimed.count) items" + (foreign > 0 ? ", \(foreign) put there by other tools" : ""))
        } else {
            add("recently deleted", .problem,
                "\(orphanInfos) .trashinfo files without their file, \(lostAssets) trashed assets whose file is gone, \(badInfo) unreadable .trashinfo files",
                fix: scan)
        }
        return report
    }
}

/// "1.2 GB", decimal units as file managers show them.
public func formatBytes(_ bytes: Int64) -> String {
    let units = ["B", "kB", "MB", "GB", "TB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1000 && unit < units.count - 1 { value /= 1000; unit += 1 }
    return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
}
