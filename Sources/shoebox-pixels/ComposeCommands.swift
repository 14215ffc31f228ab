import ArgumentParser
import Composer
import Foundation
import PhotoLibrary
import ShoeboxCommands

struct Compose: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compose",
        abstract: "Composer: stack 1–4 photos into one 1080×1920 HEIC story image.",
        discussion: """
            A draft of 1–4 photos, top to bottom, kept in .shoebox/composer.json until `compose \
            export` or `compose clear`. Positions are the numbers `compose list` shows (from 1). \
            `export` writes the story: each photo fills an equal band (1920/N rows) with a centred \
            aspect-fill crop, centred on its faces when they are known. See docs/CONTRACT.md.
            """,
        subcommands: [ComposeAdd.self, ComposeList.self, ComposeMove.self, ComposeReplace.self, ComposeRemove.self,
                      ComposeClear.self, ComposeExport.self])
}


/// Prints the draft (`--json`: `ComposerItemJSON`s top to bottom), or `line` when not JSON.
private func printDraft(_ entries: [ComposerEntry], _ output: JSONOutput, line: String) throws {
    if output.json { return try output.print(entries.map(ComposerItemJSON.init)) }
    Terminal.out(line)
}

/// Runs a change of the draft (`Composer.change`: under the writer lock, purged ids dropped).
private func changingDraft(_ options: LibraryOptions,
                           _ change: (Composer, inout ComposerDraft) throws -> Void) throws -> [ComposerEntry] {
    try Composer.change(try options.session(), note: { Terminal.message($0) }, change)
}

struct ComposeAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add photos to the bottom of the draft (at most 4 in all).",
        discussion: "A photo already in the draft is skipped. With --json, the draft as `compose list --json` prints it.")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Ids, id prefixes or paths.") var assets: [String] = []
    @OptionGroup var output: JSONOutput

    func validate() throws {
        if assets.isEmpty { throw ValidationError("name photos to add: ids or paths") }
    }

    func run() throws {
        try reportingErrors {
            var added: [AssetID] = [], skipped: [AssetID] = []
            let entries = try changingDraft(options) { composer, draft in
                let ids = try assets.map { try composer.photo($0).id }
                (added, skipped) = try draft.add(ids)
            }
            try printDraft(entries, output, line: "Added \(plural(added.count, "photo")) to the story"
                + (skipped.isEmpty ? "" : " (\(skipped.count) already in it)") + "; it has \(entries.count) of 4: `shoebox compose list`.")
        }
    }
}

struct ComposeList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "The draft, top to bottom: position, id, size, path.",
        discussion: "With --json, one array top to bottom: every asset field of `list --json` plus position.")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let entries = try Composer.list(try options.session(), note: { Terminal.message($0) })
            if output.json { return try output.print(entries.map(ComposerItemJSON.init)) }
            if entries.isEmpty { return Terminal.message("The composer draft is empty; add 1–4 photos with `shoebox compose add ID|PATH…`.") }
            Terminal.out(entries.map { e in
                let state = e.asset.state != .present ? " [\(e.asset.state.rawValue)]" : ""
                let faces = e.asset.faces.isEmpty ? "" : " (\(plural(e.asset.faces.count, "face")))"
                return "\(e.position) \(String(e.asset.id.rawValue.prefix(13))) \(e.asset.width)×\(e.asset.height) \(displayPath(e.asset.path))\(faces)\(state)"
            }.joined(separator: "\n"))
            Terminal.message("\(plural(entries.count, "photo")) of 4; each fills a band 1920/\(entries.count) = \(1920 / entries.count) px tall")
        }
    }
}

struct ComposeMove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Move the photo at FROM to position TO (the others shift).")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Its position now.") var from: Int
    @Argument(help: "Its new position.") var to: Int
    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let entries = try changingDraft(options) { _, draft in try draft.move(from: from, to: to) }
            try printDraft(entries, output, line: "Moved position \(from) to \(to).")
        }
    }
}

struct ComposeReplace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replace", abstract: "Put another photo at POS in place of the one there.")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "The position to replace.") var position: Int
    @Argument(help: "The new photo: an id, id prefix or path.") var asset: String
    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let entries = try changingDraft(options) { composer, draft in
                try draft.check(position)
                try draft.replace(at: position, with: try composer.photo(asset).id)
            }
            try printDraft(entries, output, line: "Replaced position \(position) with \(displayPath(entries[position - 1].asset.path)).")
        }
    }
}

struct ComposeRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Take the photo at POS out of the draft (its file stays).")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "The position to take out.") var position: Int
    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let entries = try changingDraft(options) { _, draft in try draft.remove(at: position) }
            try printDraft(entries, output, line: "Took position \(position) out of the story (no file was touched); \(entries.count) left.")
        }
    }
}

struct ComposeClear: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Empty the draft (no photo is touched).",
        discussion: "Works on a damaged draft file too. With --json, the draft after: [].")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let count = try Composer.clear(try options.session())
            try printDraft([], output, line: "Cleared the composer draft" + (count.map { " (\(plural($0, "photo")); no file was touched)" } ?? " (its file was damaged)") + ".")
        }
    }
}
