import ArgumentParser
import Foundation
import PhotoLibrary

/// A library opened for a change: the writer lock, the index, the settings, Recently Deleted
/// reconciled with the disk first (a crash or a file manager may have left it behind).
struct WritableLibrary {
    let library: Library
    let lock: LibraryLock
    let index: Index
    let settings: LibrarySettings
    let trash: RecentlyDeleted

    init(_ options: LibraryOptions) throws {
        library = try options.open()
        lock = try LibraryLock(library: library)
        index = try Index(library: library)
        settings = try LibrarySettings.load(library)
        trash = RecentlyDeleted(library: library, index: index, retentionDays: settings.trashRetentionDays,
                                log: { Terminal.message($0) })
        try trash.reconcile()
    }

    /// Every reference resolved, or one error naming the first that is not an asset.
    func resolve(_ references: [String]) throws -> [Asset] {
        try references.map { try index.resolve($0, preferring: .present) }
    }
}

struct Trash: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Move photos to Recently Deleted, list it, or purge what has waited long enough.",
        discussion: """
            `shoebox trash ID|PATH…` moves files into "Recently Deleted/files/" with a freedesktop.org \
            .trashinfo each; they keep their ids and album memberships and come back with \
            `shoebox restore` or by dragging them back into the library. After [trash] retention_days \
            (30) `trash purge` — or a running `watch` — deletes them.
            """,
        subcommands: [TrashPut.self, TrashList.self, TrashPurge.self],
        defaultSubcommand: TrashPut.self)
}

struct TrashPut: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put", abstract: "Move photos to Recently Deleted (the default: `shoebox trash ID|PATH…`).",
        discussion: "With --json, what was moved, as the items of `trash list --json`.")

    @OptionGroup var options: LibraryOptions

    @Argument(help: "Ids, id prefixes or paths.")
    var assets: [String]

    @OptionGroup var output: JSONOutput

    func validate() throws {
        if assets.isEmpty { throw ValidationError("name at least one photo: an id, an id prefix or a path") }
    }

    func run() throws {
        try reportingErrors {
            let w = try WritableLibrary(options)
            let targets = try w.resolve(assets)
            var failures = 0
            let done = try w.trash.trash(targets) { Terminal.error($0); failures += 1 }
            let items = try w.trash.items().filter { item in done.contains { $0.name == item.name } }
            if output.json {
                try output.print(items.map(TrashItemJSON.init))
            } else if !done.isEmpty {
                for d in done {
                    Terminal.out("\(displayPath(d.originalPath)) → \(RecentlyDeleted.folderName)/files/\(d.name)")
                }
                let until = ShoeboxClock.now().addingTimeInterval(Double(w.settings.trashRetentionDays) * 86400)
                Terminal.message("Moved \(done.count) to Recently Deleted; restorable with `shoebox restore` until \(String(ShoeboxClock.localISO8601(until).prefix(10))).")
            }
            if failures > 0 { throw ExitCode(1) }
        }
    }
}

struct TrashList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List Recently Deleted.",
        discussion: "With --json, one array of items: id, name, original_path, deletion_date, days_left, size, problem.")

    @OptionGroup var options: LibraryOptions

    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let library = try options.open()
            let index = try Index(library: library)
            let settings = try LibrarySettings.load(library)
            let trash = RecentlyDeleted(library: library, index: index, retentionDays: settings.trashRetentionDays)
            let items = try trash.items { Terminal.error($0) }
            if output.json { return try output.print(items.map(TrashItemJSON.init)) }
            if items.isEmpty {
                Terminal.message("Recently Deleted is empty.")
                return
            }
            var lines: [String] = []
            for item in items {
                let date = String(ShoeboxClock.localISO8601(item.deletionDate).prefix(16)).replacingOccurrences(of: "T", with: " ")
                let left = item.daysLeft == 1 ? "1 day" : "\(item.daysLeft) days"
                // An item restore cannot put back says why instead of where it came from.
                let from = item.problem.map { "  [cannot be restored: \($0)]" } ?? "  ← " + displayPath(item.originalPath ?? "?")
                lines.append([String(item.id?.rawValue.prefix(13) ?? "—"), date, left.leftPadded(8), formatBytes(item.size).leftPadded(8),
                              " " + displayPath(item.name) + from].joined(separator: " "))
            }
            Terminal.out(lines.joined(separator: "\n"))
        }
    }
}

struct TrashPurge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Delete for good what has waited in Recently Deleted longer than [trash] retention_days (30).",
        discussion: "Every deleted file is named on stderr and in .shoebox/purge.log.")

    @OptionGroup var options: LibraryOptions

    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let w = try WritableLibrary(options)
            var failures = 0
            let purged = try w.trash.purge { Terminal.error($0); failures += 1 }
            if output.json {
                try output.print(purged.map(PurgedItemJSON.init))
            } else {
                let bytes = purged.reduce(Int64(0)) { $0 + $1.size }
                Terminal.out(purged.isEmpty ? "Nothing in Recently Deleted is older than \(w.settings.trashRetentionDays) days."
                             : "Purged \(purged.count) item\(purged.count == 1 ? "" : "s") (\(formatBytes(bytes))) from Recently Deleted.")
            }
            if failures > 0 { throw ExitCode(1) }
        }
    }
}

struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Put photos back from Recently Deleted, at their original paths (same ids).",
        discussion: """
            A path taken meanwhile is never overwritten: the file comes back beside it as \
            "NAME (restored).EXT". A folder that is gone is recreated. Dragging a file out of \
            "Recently Deleted/files/" into the library restores it too.
            """)

    @OptionGroup var options: LibraryOptions

    @Argument(help: "Ids, id prefixes, names in Recently Deleted/files/, or original paths.")
    var items: [String]

    @OptionGroup var output: JSONOutput

    func validate() throws {
        if items.isEmpty { throw ValidationError("name at least one item: an id, or its name in Recently Deleted") }
    }

    func run() throws {
        try reportingErrors {
            let w = try WritableLibrary(options)
            let (targets, foreign) = try Self.targets(items, in: w)
            var failures = 0
            let done = try w.trash.restore(targets) { Terminal.error($0); failures += 1 }
                + w.trash.restoreForeign(foreign) { Terminal.error($0); failures += 1 }
            if output.json {
                try output.print(done.map(RestoredItemJSON.init))
            } else {
                for r in done {
                    Terminal.out("restored \(displayPath(r.path))" + (r.note.map { " (\($0))" } ?? ""))
                }
            }
            if failures > 0 { throw ExitCode(1) }
        }
    }

    /// The trashed assets and the other tools' items `references` name: a name in `files/`
    /// (with or without `Recently Deleted/files/`), an id, or an original path.
    static func targets(_ references: [String], in w: WritableLibrary) throws -> (assets: [Asset], foreign: [TrashItem]) {
        let listed = try w.trash.items()
        let byName = Dictionary(listed.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var assets: [Asset] = []
        var foreign: [TrashItem] = []
        for ref in references {
            let name = ref.hasPrefix(RecentlyDeleted.folderName + "/files/")
                ? String(ref.dropFirst(RecentlyDeleted.folderName.count + 7)) : ref
            let item = byName[name] ?? listed.first { $0.id == nil && $0.originalPath == ref }
            if let item, item.id == nil {
                foreign.append(item)
            } else if let id = item?.id, let asset = try w.index.asset(id: id) {
                assets.append(asset)
            } else {
                assets.append(try w.index.resolve(ref, preferring: .trashed))
            }
        }
        return (assets, foreign)
    }
}
