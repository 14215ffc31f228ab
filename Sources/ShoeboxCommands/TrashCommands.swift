import ArgumentParser
import Foundation
import MetadataCore
import PhotoLibrary

package struct Trash: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "trash",
        abstract: "Move photos to Recently Deleted, list it, or purge what has waited long enough.",
        discussion: """
            `shoebox trash ID|PATH…` moves files into "Recently Deleted/files/" with a freedesktop.org \
            .trashinfo each; they keep their ids and album memberships and come back with \
            `shoebox restore` or by dragging them back into the library. After [trash] retention_days \
            (30) `trash purge` — or a running `watch` — deletes them.
            """,
        subcommands: [TrashPut.self, TrashList.self, TrashPurge.self],
        defaultSubcommand: TrashPut.self)

    package init() {}
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
            let session = try options.session()
            var failures = 0
            let (done, items) = try session.write { w in
                let done = try w.trash.trash(try w.resolve(assets)) { Terminal.error(CommandHint.line($0)); failures += 1 }
                return (done, try w.trash.items().filter { item in done.contains { $0.name == item.name } })
            }
            if output.json {
                try output.print(items.map(TrashItemJSON.init))
            } else if !done.isEmpty {
                for d in done {
                    Terminal.out("\(displayPath(d.originalPath)) → \(RecentlyDeleted.folderName)/files/\(d.name)")
                }
                let until = ShoeboxClock.now().addingTimeInterval(Double((try session.settings).trashRetentionDays) * 86400)
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
            let items = try options.session(forReading: true).trashItems { Terminal.error($0) }
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
            let session = try options.session()
            var failures = 0
            let purged = try session.write { w in try w.trash.purge { Terminal.error(CommandHint.line($0)); failures += 1 } }
            if output.json {
                try output.print(purged.map(PurgedItemJSON.init))
            } else {
                let bytes = purged.reduce(Int64(0)) { $0 + $1.size }
                Terminal.out(purged.isEmpty ? "Nothing in Recently Deleted is older than \((try session.settings).trashRetentionDays) days."
                             : "Purged \(purged.count) item\(purged.count == 1 ? "" : "s") (\(formatBytes(bytes))) from Recently Deleted.")
            }
            if failures > 0 { throw ExitCode(1) }
        }
    }
}

package struct Restore: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "restore",
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

    package func validate() throws {
        if items.isEmpty { throw ValidationError("name at least one item: an id, or its name in Recently Deleted") }
    }

    package func run() throws {
        try reportingErrors {
            var failures = 0
            let done = try options.session().write { w in
                let (targets, foreign) = try w.trash.restoreTargets(items)
                // A file put in Recently Deleted by hand is indexed again from its headers.
                if !foreign.isEmpty { try NeedsMetadataReaders.unlessReaderAvailable() }
                return try w.trash.restore(targets) { Terminal.error(CommandHint.line($0)); failures += 1 }
                    + w.trash.restoreForeign(foreign) { Terminal.error(CommandHint.line($0)); failures += 1 }
            }
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

    package init() {}
}
