import ArgumentParser
import Curation
import Foundation
import PhotoLibrary

/// The words of `curate`, and its subcommands that touch no pixels: `shoebox` runs those; `add`,
/// which may analyse the photos it adds, is `shoebox-pixels`'s (`CurateWithPixels`).
package enum CurateGroup {
    package static let abstract = "Curation: rank photos by score, pick the best, share the originals, make an album."
    package static let discussion = """
        A list of photos, best score first (unscored ones last; ties by capture time, then \
        id). It lasts until `curate clear` (kept in .shoebox/curation.json). Select by the \
        ranks `curate list` shows, or by id; `top 1|5|10|20` replaces the selection. \
        `share --to DIR` puts the selected originals into DIR byte for byte; `album` makes \
        "Albums/TO NAME yyyy-MM-dd HH.mm.ss" of the whole list in score order. See docs/CONTRACT.md.
        """
    package static let pixelFree: [any ParsableCommand.Type] = [
        CurateList.self, CurateSelect.self, CurateDeselect.self, CurateTop.self,
        CurateRemove.self, CurateShare.self, CurateAlbum.self, CurateClear.self,
    ]
}

/// `curate` as `shoebox` has it: every subcommand but `add`.
package struct Curate: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "curate",
        abstract: CurateGroup.abstract, discussion: CurateGroup.discussion, subcommands: CurateGroup.pixelFree)

    package init() {}
}

/// Prints the list (`--json`: `CurationItemJSON`s best first), or `line` when not JSON.
package func printList(_ entries: [CurationEntry], _ output: JSONOutput, line: String?) throws {
    if output.json { return try output.print(entries.map(CurationItemJSON.init)) }
    if let line { Terminal.out(line) }
}

package func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

package struct CurateList: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "list", abstract: "The list, best first: rank, selected, score, capture time, id, path.",
        discussion: "With --json, one array best first: every asset field of `list --json` plus rank and selected.")

    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: JSONOutput

    package func run() throws {
        try reportingErrors {
            let entries = try Curation.list(try options.session(forReading: true))
            if output.json { return try output.print(entries.map(CurationItemJSON.init)) }
            if entries.isEmpty { return Terminal.message("The curation list is empty; \(CurationRemedy.addPhotos.commandHint).") }
            let width = String(entries.count).count
            Terminal.out(entries.map { e in
                let date = e.asset.takenAt.map { String($0.iso8601.prefix(16)).replacingOccurrences(of: "T", with: " ") } ?? "—"
                let score = e.asset.score.map { String(format: "%+.3f", $0) } ?? "  —   "
                let extra = (e.asset.isUtility ? " [utility]" : "") + (e.asset.state != .present ? " [\(e.asset.state.rawValue)]" : "")
                return [String(e.rank).leftPadded(width), e.selected ? "[x]" : "[ ]", score, date.padding(toLength: 16, withPad: " ", startingAt: 0),
                        String(e.asset.id.rawValue.prefix(13)), displayPath(e.asset.path) + extra].joined(separator: " ")
            }.joined(separator: "\n"))
            let selected = entries.filter(\.selected).count
            Terminal.message("\(plural(entries.count, "photo")), \(selected) selected")
        }
    }

    package init() {}
}

/// `select` and `deselect`: ranks or ids.
struct CurationMembers: ParsableArguments {
    @Argument(help: "Ranks as `curate list` shows them (a number), or ids, id prefixes or paths.")
    var members: [String] = []
}

package struct CurateSelect: ParsableCommand {
    package static let configuration = CommandConfiguration(commandName: "select", abstract: "Select photos by rank or id.")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var which: CurationMembers
    @OptionGroup var output: JSONOutput

    package func validate() throws { try which.validate(verb: "select") }
    package func run() throws { try which.change(options, output, select: true) }

    package init() {}
}

package struct CurateDeselect: ParsableCommand {
    package static let configuration = CommandConfiguration(commandName: "deselect", abstract: "Deselect photos by rank or id.")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var which: CurationMembers
    @OptionGroup var output: JSONOutput

    package func validate() throws { try which.validate(verb: "deselect") }
    package func run() throws { try which.change(options, output, select: false) }

    package init() {}
}

extension CurationMembers {
    func validate(verb: String) throws {
        if members.isEmpty { throw ValidationError("name photos to \(verb): ranks (as `curate list` shows them) or ids") }
    }

    /// Selects or deselects the members, every word checked first; prints the list.
    func change(_ options: LibraryOptions, _ output: JSONOutput, select: Bool) throws {
        try reportingErrors {
            let result = try Curation.change(try options.session(), select ? .select(members) : .deselect(members))
            try printList(result.entries, output, line: "\(result.selectedCount) of \(result.entries.count) selected.")
        }
    }
}

package struct CurateTop: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "top", abstract: "Select the best 1, 5, 10 or 20 (all when the list has fewer), replacing the selection.")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "1, 5, 10 or 20.") var count: Int
    @OptionGroup var output: JSONOutput

    package func validate() throws {
        if !Curation.topCounts.contains(count) { throw ValidationError("top takes 1, 5, 10 or 20") }
    }

    package func run() throws {
        try reportingErrors {
            let result = try Curation.change(try options.session(), .top(count))
            let (n, entries) = (result.selectedCount, result.entries)
            try printList(entries, output, line: "Selected the top \(n)" + (n < count ? " (the list has \(plural(entries.count, "photo")))" : " of \(entries.count)") + ".")
        }
    }

    package init() {}
}

package struct CurateRemove: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Take the selected photos out of the list (their files stay).")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: JSONOutput

    package func run() throws {
        try reportingErrors {
            let result = try Curation.change(try options.session(), .removeSelected)
            try printList(result.entries, output,
                          line: "Took \(plural(result.count, "photo")) out of the curation list (no file was touched); \(result.entries.count) left.")
        }
    }

    package init() {}
}

package struct CurateShare: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "share", abstract: "Put the selected originals into a folder, byte for byte.",
        discussion: """
            Hard links where DIR is on the library's file system, else copies (--copy: always \
            copies). A Live Photo brings its movie. Nothing in DIR is replaced: a taken name gets \
            " (2)", " (3)"… unless it holds the same bytes already. DIR is made if its parent exists.
            """)
    @OptionGroup var options: LibraryOptions
    @Option(name: .customLong("to"), help: ArgumentHelp("The folder to put them in.", valueName: "dir")) var destination: String
    @Flag(help: "Copy even where a hard link would do.") var copy = false
    @OptionGroup var output: JSONOutput

    package func run() throws {
        try reportingErrors {
            let folder = URL(fileURLWithPath: destination, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
                .standardizedFileURL.path
            let placed = try Curation.share(try options.session(), to: folder, copy: copy)
            let photos = placed.filter { !$0.isCompanion }.count
            if output.json { return try output.print(ShareJSON(to: folder, placed: placed)) }
            for p in placed {
                let how = p.method == .link ? "hard link" : (p.method == .copy ? "copy" : "already there")
                Terminal.out("\(displayPath(p.source)) → \(folder)/\(p.name) (\(how))")
            }
            let counts = [CurationShare.Method.link, .copy, .alreadyThere].map { m in placed.filter { $0.method == m }.count }
            Terminal.message("Shared \(plural(photos, "photo")) to \(folder): \(counts[0]) hard link\(counts[0] == 1 ? "" : "s"), \(plural(counts[1], "copy").replacingOccurrences(of: "copys", with: "copies")), \(counts[2]) already there.")
        }
    }

    package init() {}
}

package struct CurateAlbum: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "album", abstract: "Make the album \"TO NAME yyyy-MM-dd HH.mm.ss\" of the whole list, in score order.",
        discussion: "A user album like any other afterwards. With --json, the album as `album show --json` prints it.")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: JSONOutput

    package func run() throws {
        try reportingErrors {
            let session = try options.session()
            let (album, report) = try Curation.album(session)
            reportAlbumSync(report)
            if output.json { return try output.print(AlbumJSON(album)) }
            let path = session.library.root.appendingPathComponent(AlbumLinker.folderName + "/" + album.path).path
            Terminal.out("Created the album \"\(album.title)\" with \(plural(album.entries.count, "photo")) in score order: \(path)")
        }
    }

    package init() {}
}

package struct CurateClear: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Empty the list (no photo is touched).",
        discussion: "Works on a damaged list file too. With --json, the list after: [].")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: JSONOutput

    package func run() throws {
        try reportingErrors {
            let count = try Curation.clear(try options.session())
            try printList([], output, line: "Cleared the curation list" + (count.map { " (\(plural($0, "photo")); no file was touched)" } ?? " (its file was damaged)") + ".")
        }
    }

    package init() {}
}
