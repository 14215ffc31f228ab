import ArgumentParser
import Foundation
import PhotoLibrary
import Tidy

/// Prints the assets a decision piles up (`--json`: `TidyAssetJSON`s), else a line each and
/// a summary (`summary` given their count and bytes; `none` when there are none).
private func printPile(_ decision: TidyDecision, _ options: LibraryOptions, _ output: JSONOutput,
                       none: String, summary: (Int, Int64) -> String) throws {
    try reportingErrors {
        let pile = try Tidy.pile(options.session(forReading: true), decision)
        if output.json { return try output.print(pile.assets.map { TidyAssetJSON($0, liveVideo: pile.companions[$0.id]) }) }
        if !pile.assets.isEmpty { Terminal.out(pile.assets.map { TidyText.line($0) }.joined(separator: "\n")) }
        Terminal.message(pile.assets.isEmpty ? none : summary(pile.assets.count, pile.bytes))
    }
}

struct TidySimilar: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "similar", abstract: "Every group of similar shots, near-identical copies and duplicates, best first.",
        discussion: "With --json: an array of {\"group\", \"kind\": duplicate|near_identical|similar, \"items\": [assets, best first]}.")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let session = try options.session(forReading: true)
            if output.json {
                return try output.printArray { element in
                    try Tidy.forEachSimilarGroup(session) { batch, companions in
                        for g in batch { try element(TidyGroupJSON(g.group, assets: g.assets, companions: companions)) }
                    }
                }
            }
            var groups = 0, extra = 0
            try Tidy.forEachSimilarGroup(session) { batch, _ in
                for g in batch {
                    Terminal.out("\(g.group.id) \(g.group.kind.rawValue), \(g.assets.count):")
                    Terminal.out(g.assets.enumerated().map { "  \($0 + 1). " + TidyText.line($1) }.joined(separator: "\n"))
                    groups += 1
                    extra += g.assets.count - 1
                }
            }
            Terminal.message("\(TidyText.plural(groups, "group")); keeping the best of each leaves \(TidyText.plural(extra, "other photo")) to decide.")
        }
    }
}

struct TidyTrash: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trash", abstract: "The photos marked for deletion (nothing has moved yet).",
        discussion: "With --json: an array of assets (each with `decision`). `tidy unmark ID` puts one back; `tidy empty` moves them.")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: JSONOutput

    func run() throws {
        try printPile(.delete, options, output, none: "Nothing is marked for deletion.") { n, bytes in
            "\(TidyText.plural(n, "photo")) marked for deletion (\(TidyFormat.bytes(bytes)) without Live Photo movies); `shoebox tidy unmark ID` keeps one, `shoebox tidy empty` moves them all to Recently Deleted."
        }
    }
}

struct TidyMaybes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "maybes", abstract: "The maybe pile; `tidy filter maybe` reviews it again.",
        discussion: "With --json: an array of assets (each with `decision`).")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: JSONOutput

    func run() throws {
        try printPile(.maybe, options, output, none: "The maybe pile is empty.") { n, _ in
            "\(TidyText.plural(n, "maybe")); `shoebox tidy filter maybe` goes through them again."
        }
    }
}

struct TidyUnmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unmark", abstract: "Put a photo marked for deletion back (it is kept).",
        discussion: "With --json: the asset, its `decision` now `keep`.")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "The id, id prefix or path of a marked photo.") var asset: String
    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let kept = try Tidy.unmark(options.session(), asset)
            let a = kept.assets[0]
            if output.json { return try output.print(TidyAssetJSON(a, liveVideo: kept.companions[a.id])) }
            Terminal.message("\(displayPath(a.path)) is no longer marked: it is kept.")
        }
    }
}

struct TidyEmpty: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "empty", abstract: "Move every marked photo to Recently Deleted (restorable for 30 days) and show what was freed.",
        discussion: "With --json: removed, freed_bytes, freed, reviewed, purge_date, failed, session_removed, session_freed_bytes.")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let e = try Tidy.empty(options.session()) { Terminal.error(CommandHint.line($0)) }
            if output.json { try output.print(TidyEmptyJSON(e)) } else if e.removed == 0 {
                if e.failed == 0 { Terminal.message("Nothing is marked for deletion.") }
            } else {
                let until = String(ShoeboxClock.localISO8601(e.purgeDate).prefix(10))
                Terminal.out("""
                    \(TidyFormat.bytes(e.freedBytes)) freed from the library (in Recently Deleted until \(until), restorable with `shoebox restore` until then)
                    \(TidyText.plural(e.removed, "photo")) removed
                    \(TidyText.plural(e.reviewed, "photo")) reviewed this session
                    """)
            }
            if e.failed > 0 { throw ExitCode(1) }
        }
    }
}
