import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `Recently Deleted/` read and written by another implementation of the freedesktop.org Trash
/// specification: trash-cli from PyPI (Debian's 0.17 ignores `--trash-dir`), which
/// `scripts/install-deps` puts in a venv at `${SHOEBOX_TOOLS:-~/.cache/shoebox-tools}/trash-cli`.
///
/// trash-cli takes a relative `Path=` as relative to the *mount point* that holds the
/// `--trash-dir` (`os.path.join(volume_of(trash_dir), Path)`, where `volume_of` walks up to the
/// first `os.path.ismount`), and `trash-put --trash-dir` writes paths relative to that mount
/// point — or absolute when it is `/`. The specification and Shoebox take them as relative to the
/// folder that holds the trash folder: the library. The two agree when the library is the top of
/// its file system (a disk of photos); `libraryOnItsOwnFileSystem` checks that case in a private
/// mount namespace, the other tests check an ordinary folder and mark where trash-cli differs.
@Suite struct TrashInteropTests {
    static let venv: URL = {
        let env = ProcessInfo.processInfo.environment
        let tools = env["SHOEBOX_TOOLS"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: env["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".cache/shoebox-tools")
        return tools.appendingPathComponent("trash-cli")
    }()

    static func tool(_ name: String) -> String { venv.appendingPathComponent("bin/" + name).path }

    static let installed = ["trash-list", "trash-put"].allSatisfy { FileManager.default.isExecutableFile(atPath: tool($0)) }
    static let notInstalled: Comment = "trash-cli is not installed in \(venv.path): run scripts/install-deps (SHOEBOX_TOOLS chooses another folder)"

    /// The roll the album tests use (cached once per machine): folders with spaces in their names.
    static func roll() throws -> TestRoll.Made {
        try TestRoll.make(seed: 5, count: 24, arguments: ["--videos", "2", "--live", "1", "--portraits", "0.5", "--long-side", "800"])
    }

    /// Photos that move alone (no Live Photo video, no byte-identical copy): some in a folder
    /// whose name has a space, one in a folder whose name has none.
    static func picks(_ made: TestRoll.Made) throws -> (spaced: [String], plain: String) {
        let alone = made.entries.filter { e in
            ["photo", "screenshot", "document"].contains(e.kind) && e.live_video == nil && e.live_photo_of == nil
                && e.duplicate_of == nil && !made.entries.contains { $0.duplicate_of == e.path }
        }.map(\.path)
        let spaced = alone.filter { ($0 as NSString).deletingLastPathComponent.contains(" ") }
        let plain = try #require(alone.first { !$0.contains(" ") })
        try #require(spaced.count >= 2)
        return (spaced, plain)
    }

    /// Runs a trash-cli tool; it must succeed and say nothing on stderr.
    @discardableResult
    static func trashCLI(_ name: String, _ args: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let r = try TestRoll.run(tool(name), args, allowFailure: true)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(name) \(args): status \(r.status), \(r.stderr)", sourceLocation: sourceLocation)
        return r.stdout
    }

    /// The mount point trash-cli takes for the volume of `path`: the nearest folder up from it for
    /// which Python's `os.path.ismount` holds (not a symlink, and another device than its parent,
    /// or the same inode: `/`).
    static func mountPoint(containing path: String) -> String {
        var p = (path as NSString).standardizingPath
        while p != "/" && !p.isEmpty {
            var st = stat(), parent = stat()
            if lstat(p, &st) == 0, (st.st_mode & S_IFMT) != S_IFLNK, stat(p + "/..", &parent) == 0,
               st.st_dev != parent.st_dev || st.st_ino == parent.st_ino {
                return p
            }
            p = (p as NSString).deletingLastPathComponent
        }
        return "/"
    }

    /// `os.path.join(volume, relative)`.
    static func join(_ volume: String, _ relative: String) -> String {
        volume.hasSuffix("/") ? volume + relative : volume + "/" + relative
    }

    /// "2026-11-22T10:15:03+01:00" (`trash list --json`) as trash-list prints the local time.
    static func trashListDate(_ iso: String) -> String {
        String(iso.prefix(19)).replacingOccurrences(of: "T", with: " ")
    }

    // MARK: Shoebox writes, trash-cli reads

    @Test(.enabled(if: installed, notInstalled))
    func trashListListsWhatShoeboxTrashed() throws {
        let made = try Self.roll()
        defer { try? FileManager.default.removeItem(at: made.root.deletingLastPathComponent()) }
        let (spaced, plain) = try Self.picks(made)
        let cli = try ShoeboxCLI.scanned(made)
        let trashed = try cli.run(["trash", spaced[0], plain])
        #expect(trashed.status == 0, "\(trashed.stderr)")
        let items = try #require(try cli.json(["trash", "list"]) as? [[String: Any]])
        #expect(Set(items.compactMap { $0["original_path"] as? String }) == [spaced[0], plain])

        let root = made.root.path
        let trashDir = root + "/Recently Deleted"
        let lines = try Self.trashCLI("trash-list", ["--trash-dir=" + trashDir]).split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        let volume = Self.mountPoint(containing: trashDir)
        for item in items {
            let original = try #require(item["original_path"] as? String)
            let date = Self.trashListDate(try #require(item["deletion_date"] as? String))
            // trash-cli read the file: the date, and the decoded path joined to its idea of the top.
            #expect(lines.contains("\(date) \(Self.join(volume, original))"), "\(lines)")
            // What the README promises: the absolute original path. True when the library is the
            // top of its file system; otherwise trash-cli puts the mount point in front instead.
            withKnownIssue("trash-cli resolves Path= against the mount point \(volume), not the library \(root)") {
                #expect(lines.contains("\(date) \(root)/\(original)"), "\(lines)")
            } when: { volume != root }
        }

        // Restored with Shoebox: gone for trash-cli too.
        #expect(try cli.run(["restore", spaced[0], plain]).status == 0)
        #expect(try Self.trashCLI("trash-list", ["--trash-dir=" + trashDir]).isEmpty)
    }

    // MARK: trash-cli writes, Shoebox reads

    @Test(.enabled(if: installed, notInstalled))
    func whatTrashPutTrashedIsTheIndexedAssetAndRestores() throws {
        let made = try Self.roll()
        defer { try? FileManager.default.removeItem(at: made.root.deletingLastPathComponent()) }
        let (spaced, _) = try Self.picks(made)
        let cli = try ShoeboxCLI.scanned(made)
        let target = spaced[1]
        let name = (target as NSString).lastPathComponent
        let id = try #require(try cli.assetsByPath()[target]?["id"] as? String)
        let root = made.root.path
        let trashDir = root + "/Recently Deleted"

        try Self.trashCLI("trash-put", ["--trash-dir=" + trashDir, root + "/" + target])
        #expect(!FileManager.default.fileExists(atPath: root + "/" + target))
        #expect(FileManager.default.fileExists(atPath: trashDir + "/files/" + name))
        // What trash-put wrote: relative to the mount point, or absolute when that is "/".
        let volume = Self.mountPoint(containing: trashDir)
        let info = try String(contentsOfFile: trashDir + "/info/" + name + ".trashinfo", encoding: .utf8)
        let written = try #require(info.split(separator: "\n").first { $0.hasPrefix("Path=") }).dropFirst(5)
        let real = (URL(fileURLWithPath: root).resolvingSymlinksInPath().path + "/" + target)
            .addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~/"))!
        #expect(written == (volume == "/" ? real : String(real.dropFirst(volume.count + 1))), "\(info)")

        // The scan finds the file in files/ by its inode: the asset it indexed at that path.
        #expect(try cli.run(["scan"]).status == 0)
        let listed = try cli.run(["trash", "list", "--json"])
        #expect(listed.status == 0 && listed.stderr.isEmpty, "\(listed.stderr)")
        let items = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let item = try #require(items.first { $0["name"] as? String == name }, "\(items)")
        #expect(items.count == 1)
        #expect(item["id"] as? String == id)
        // Whatever trash-put wrote (relative to the mount point \(volume) when that is not the
        // library), the index knows where its asset was.
        #expect(item["original_path"] as? String == target)
        let cliDate = try #require(info.split(separator: "\n").first { $0.hasPrefix("DeletionDate=") }).dropFirst(13)
        #expect((item["deletion_date"] as? String).map { String($0.prefix(19)) } == String(cliDate))

        // Restore by its name in files/: back at its path, same id; trash-cli sees it gone.
        let restored = try #require(try cli.json(["restore", name]) as? [[String: Any]])
        #expect(restored.map { $0["id"] as? String } == [id])
        #expect(restored.map { $0["path"] as? String } == [target])
        #expect(FileManager.default.fileExists(atPath: root + "/" + target))
        #expect(try cli.assetsByPath()[target]?["id"] as? String == id)
        #expect(try Self.trashCLI("trash-list", ["--trash-dir=" + trashDir]).isEmpty)
        #expect(try cli.run(["doctor"]).status == 0)
    }

    // MARK: A library that is the top of its file system

    /// `unshare` for a private mount namespace: as root directly, otherwise in a user namespace.
    static let unshare: [String]? = {
        guard installed, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return nil }
        let args = (geteuid() == 0 ? [] : ["--user", "--map-root-user"]) + ["--mount", "--propagation", "private"]
        let probe = Scratch.root.appendingPathComponent("shoebox-unshare-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: probe) }
        let r = try? TestRoll.run("/usr/bin/unshare", args + ["/bin/sh", "-c", "mount -t tmpfs shoebox-probe \"$0\"", probe.path],
                                  allowFailure: true)
        return r?.status == 0 ? args : nil
    }()

    /// Shoebox and trash-cli in a private mount namespace where the library is a tmpfs of its own.
    static let script = #"""
        set -eu
        lib=$1 roll=$2 out=$3 shoebox=$4 bin=$5 a=$6 b=$7 c=$8
        mount -t tmpfs -o size=512m,mode=0755 shoebox-library "$lib"
        cp -a "$roll/." "$lib/"
        "$shoebox" init --library "$lib" >/dev/null
        "$shoebox" scan --library "$lib" >/dev/null
        "$shoebox" list --library "$lib" --json >"$out/before.json"
        "$shoebox" trash --library "$lib" "$a" "$b" >/dev/null
        "$shoebox" trash list --library "$lib" --json >"$out/trashed.json"
        "$bin/trash-list" --trash-dir="$lib/Recently Deleted" >"$out/trash-list.txt"
        "$bin/trash-put" --trash-dir="$lib/Recently Deleted" "$lib/$c"
        cp "$lib/Recently Deleted/info/${c##*/}.trashinfo" "$out/put.trashinfo"
        "$shoebox" scan --library "$lib" >/dev/null
        "$shoebox" trash list --library "$lib" --json >"$out/after-put.json"
        "$shoebox" restore --library "$lib" "${c##*/}" --json >"$out/restored.json"
        "$shoebox" list --library "$lib" --json >"$out/after.json"
        """#

    @Test(.enabled(if: installed, notInstalled),
          .enabled(if: unshare != nil, "needs a private mount namespace (unshare --mount: root, or user namespaces)"))
    func libraryOnItsOwnFileSystem() throws {
        let made = try Self.roll()
        let base = made.root.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: base) }
        let (spaced, plain) = try Self.picks(made)
        let lib = base.appendingPathComponent("volume").path
        let out = base.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: lib, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let r = try TestRoll.run("/usr/bin/unshare", try #require(Self.unshare) + [
            "/bin/bash", "-c", Self.script, "interop", lib, made.root.path, out, ShoeboxCLI.binary, Self.venv.path + "/bin",
            spaced[0], plain, spaced[1]], allowFailure: true)
        try #require(r.status == 0, "\(r.stderr)")
        func json(_ name: String) throws -> [[String: Any]] {
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/" + name))) as? [[String: Any]])
        }
        func text(_ name: String) throws -> String { try String(contentsOfFile: out + "/" + name, encoding: .utf8) }
        let ids = Dictionary(uniqueKeysWithValues: try json("before.json").map { ($0["path"] as! String, $0["id"] as! String) })

        // trash-list: each absolute original path, with its deletion date.
        let trashed = try json("trashed.json")
        let lines = try text("trash-list.txt").split(separator: "\n").map(String.init)
        #expect(trashed.count == 2 && lines.count == 2, "\(lines)")
        for item in trashed {
            let original = try #require(item["original_path"] as? String)
            let date = Self.trashListDate(try #require(item["deletion_date"] as? String))
            #expect(lines.contains("\(date) \(lib)/\(original)"), "\(lines)")
        }

        // trash-put: Path= relative to the library, read back as the same asset, restored by name.
        #expect(try text("put.trashinfo").contains("\nPath=" + spaced[1].replacingOccurrences(of: " ", with: "%20") + "\n"))
        let put = try #require(try json("after-put.json").first { $0["name"] as? String == (spaced[1] as NSString).lastPathComponent })
        #expect(put["original_path"] as? String == spaced[1])
        #expect(put["id"] as? String == ids[spaced[1]])
        #expect(try json("restored.json").map { $0["id"] as? String } == [ids[spaced[1]]])
        let after = Dictionary(uniqueKeysWithValues: try json("after.json").map { ($0["path"] as! String, $0["id"] as! String) })
        #expect(after[spaced[1]] == ids[spaced[1]])
    }
}
