import Analysis
import ArgumentParser
import Curation
import Foundation
import PhotoLibrary

struct Curate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Curation: rank photos by score, pick the best, share the originals, make an album.",
        discussion: """
            A list of photos, best score first (unscored ones last; ties by capture time, then \
            id). It lasts until `curate clear` (kept in .shoebox/curation.json). Select by the \
            ranks `curate list` shows, or by id; `top 1|5|10|20` replaces the selection. \
            `share --to DIR` puts the selected originals into DIR byte for byte; `album` makes \
            "Albums/TO NAME yyyy-MM-dd HH.mm.ss" of the whole list in score order. See docs/CONTRACT.md.
            """,
        subcommands: [CurateAdd.self, CurateList.self, CurateSelect.self, CurateDeselect.self, CurateTop.self,
                      CurateRemove.self, CurateShare.self, CurateAlbum.self, CurateClear.self])
}

/// Prints the list (`--json`: `CurationItemJSON`s best first), or `line` when not JSON.
func printList(_ entries: [CurationEntry], _ output: JSONOutput, line: String?) throws {
    if output.json { return try output.print(entries.map(CurationItemJSON.init)) }
    if let line { Terminal.out(line) }
}

private func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

/// Runs a change of the list: the writer lock held from load to save, purged ids dropped.
func changingList(_ options: LibraryOptions,
                  _ change: (Curation, inout CurationState, [CurationEntry]) throws -> Void) throws -> (CurationState, [CurationEntry]) {
    let library = try options.open()
    let lock = try LibraryLock(library: library)
    return try withExtendedLifetime(lock) {
        let curation = Curation(library: library, index: try Index(library: library))
        var (state, entries) = try curation.load(note: { Terminal.message($0) })
        try change(curation, &state, entries)
        try curation.store.save(state)
        entries = try curation.entries(of: state)
        return (state, entries)
    }
}

struct CurateAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add photos to the list, waiting for their scores.",
        discussion: """
            Each is analysed now if it was not yet (as `analyze --wait` does); a photo the \
            analysis cannot read is named and ranks after the scored ones. With --json, the whole \
            list as `curate list --json` prints it.
            """)

    @OptionGroup var options: LibraryOptions
    @Argument(help: "Ids, id prefixes or paths.") var assets: [String] = []
    @Option(help: "Every photo of this album (a user album's name, or e.g. Years/2024).") var album: String?
    @Option(help: "Every photo taken in this year.") var year: Int?
    @OptionGroup var output: JSONOutput

    func validate() throws {
        if assets.isEmpty && album == nil && year == nil { throw ValidationError("name photos to add: ids, paths, --album A or --year Y") }
    }

    func run() throws {
        try reportingErrors {
            let library = try options.open()
            let index = try Index(library: library)
            if let problem = index.readOnlyReason { throw problem }
            let curation = Curation(library: library, index: index)
            var seen = Set<AssetID>()
            let chosen = try curation.candidates(assets, album: album, year: year).filter { seen.insert($0.id).inserted }
            // The scores first (the analysis takes the writer lock a batch at a time, so a
            // running `watch` goes on meanwhile), then the list under the lock.
            let session = try options.session()
            let bar = Terminal.ProgressBar(label: "Scoring")
            let report = try Analysis.run(session, ids: chosen.map(\.id), wait: true) { bar.update(done: $0.done, total: $0.total, bytes: nil) }
            bar.finish()
            printProblems(report)
            var added = 0
            let (_, entries) = try changingList(options) { _, state, _ in added = state.add(chosen.map(\.id)) }
            let ids = Set(chosen.map(\.id))
            let unscored = entries.filter { ids.contains($0.asset.id) && $0.asset.score == nil }.count
            try printList(entries, output, line: "Added \(added) to the curation list"
                + (added < chosen.count ? " (\(chosen.count - added) already in it)" : "")
                + "; it has \(plural(entries.count, "photo")), best first: `shoebox curate list`.")
            if unscored > 0 { Terminal.message("\(unscored) of them \(unscored == 1 ? "has" : "have") no score; they rank after the scored photos.") }
        }
    }
}

struct CurateList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "The list, best first: rank, selected, score, capture time, id, path.",
        discussion: "With --json, one array best first: every asset field of `list --json` plus rank and selected.")

    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let library = try options.open()
            let (_, entries) = try Curation(library: library, index: try Index(library: library)).load(note: { Terminal.message($0) })
            if output.json { return try output.print(entries.map(CurationItemJSON.init)) }
            if entries.isEmpty { return Terminal.message("The curation list is empty; add photos with `shoebox curate add ID|PATH…|--album A|--year Y`.") }
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
}

/// `select` and `deselect`: ranks or ids.
struct CurationMembers: ParsableArguments {
    @Argument(help: "Ranks as `curate list` shows them (a number), or ids, id prefixes or paths.")
    var members: [String] = []
}

struct CurateSelect: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "select", abstract: "Select photos by rank or id.")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var which: CurationMembers
    @OptionGroup var output: JSONOutput

    func validate() throws { try which.validate(verb: "select") }
    func run() throws { try which.change(options, output, select: true) }
}

struct CurateDeselect: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "deselect", abstract: "Deselect photos by rank or id.")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var which: CurationMembers
    @OptionGroup var output: JSONOutput

    func validate() throws { try which.validate(verb: "deselect") }
    func run() throws { try which.change(options, output, select: false) }
}

extension CurationMembers {
    func validate(verb: String) throws {
        if members.isEmpty { throw ValidationError("name photos to \(verb): ranks (as `curate list` shows them) or ids") }
    }

    /// Selects or deselects the members, every word checked first; prints the list.
    func change(_ options: LibraryOptions, _ output: JSONOutput, select: Bool) throws {
        try reportingErrors {
            let (state, entries) = try changingList(options) { c, state, entries in
                let ids = try c.members(members, in: entries)
                if select { state.select(ids) } else { state.deselect(ids) }
            }
            try printList(entries, output, line: "\(state.selected.count) of \(entries.count) selected.")
        }
    }
}

struct CurateTop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "top", abstract: "Select the best 1, 5, 10 or 20 (all when the list has fewer), replacing the selection.")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "1, 5, 10 or 20.") var count: Int
    @OptionGroup var output: JSONOutput

    func validate() throws {
        if ![1, 5, 10, 20].contains(count) { throw ValidationError("top takes 1, 5, 10 or 20") }
    }

    func run() throws {
        try reportingErrors {
            let (state, entries) = try changingList(options) { _, state, entries in
                guard !entries.isEmpty else { throw ShoeboxError(.invalidArgument, "the curation list is empty; add photos with `shoebox curate add ID|PATH…|--album A|--year Y`") }
                state.replaceSelection(with: entries.prefix(count).map(\.asset.id))
            }
            let n = state.selected.count
            try printList(entries, output, line: "Selected the top \(n)" + (n < count ? " (the list has \(plural(entries.count, "photo")))" : " of \(entries.count)") + ".")
        }
    }
}

struct CurateRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Take the selected photos out of the list (their files stay).")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            var removed = 0
            let (_, entries) = try changingList(options) { _, state, _ in
                guard !state.selected.isEmpty else { throw ShoeboxError(.invalidArgument, CurationError.mustSelect) }
                removed = state.selected.count
                state.remove(state.selected)
            }
            try printList(entries, output, line: "Took \(plural(removed, "photo")) out of the curation list (no file was touched); \(entries.count) left.")
        }
    }
}

struct CurateShare: ParsableCommand {
    static let configuration = CommandConfiguration(
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

    func run() throws {
        try reportingErrors {
            let library = try options.open()
            let curation = Curation(library: library, index: try Index(library: library))
            let (_, entries) = try curation.load(note: { Terminal.message($0) })
            let selected = entries.filter(\.selected)
            guard !selected.isEmpty else { throw ShoeboxError(.invalidArgument, CurationError.mustSelect) }
            let folder = URL(fileURLWithPath: destination, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
                .standardizedFileURL.path
            let placed = try CurationShare(curation: curation).share(selected, to: folder, copy: copy)
            if output.json { return try output.print(ShareJSON(to: folder, placed: placed)) }
            for p in placed {
                let how = p.method == .link ? "hard link" : (p.method == .copy ? "copy" : "already there")
                Terminal.out("\(displayPath(p.source)) → \(folder)/\(p.name) (\(how))")
            }
            let counts = [CurationShare.Method.link, .copy, .alreadyThere].map { m in placed.filter { $0.method == m }.count }
            Terminal.message("Shared \(plural(selected.count, "photo")) to \(folder): \(counts[0]) hard link\(counts[0] == 1 ? "" : "s"), \(plural(counts[1], "copy").replacingOccurrences(of: "copys", with: "copies")), \(counts[2]) already there.")
        }
    }
}

struct CurateAlbum: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "album", abstract: "Make the album \"TO NAME yyyy-MM-dd HH.mm.ss\" of the whole list, in score order.",
        discussion: "A user album like any other afterwards. With --json, the album as `album show --json` prints it.")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let session = try options.session()
            let (album, report) = try session.write { w in
                let curation = Curation(library: w.library, index: w.index)
                let (state, entries) = try curation.load(note: { Terminal.message($0) })
                try curation.store.save(state)
                return try CurationAlbum.create(entries, library: w.library, index: w.index)
            }
            reportAlbumSync(report)
            if output.json { return try output.print(AlbumJSON(album)) }
            let path = session.library.root.appendingPathComponent(AlbumLinker.folderName + "/" + album.path).path
            Terminal.out("Created the album \"\(album.title)\" with \(plural(album.entries.count, "photo")) in score order: \(path)")
        }
    }
}

struct CurateClear: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Empty the list (no photo is touched).",
        discussion: "Works on a damaged list file too. With --json, the list after: [].")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let library = try options.open()
            let lock = try LibraryLock(library: library)
            let count = try withExtendedLifetime(lock) {
                let store = CurationStore(library: library)
                let count = (try? store.load())?.items.count
                try store.erase()
                return count
            }
            try printList([], output, line: "Cleared the curation list" + (count.map { " (\(plural($0, "photo")); no file was touched)" } ?? " (its file was damaged)") + ".")
        }
    }
}
