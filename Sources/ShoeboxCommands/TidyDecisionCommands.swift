import ArgumentParser
import Foundation
import PhotoLibrary
import Tidy

/// keep / delete / maybe: the same arguments and printing.
struct TidyDecisionArguments: ParsableArguments {
    @Argument(help: "One asset (id, id prefix or path): of the item under review, or any in the library. Without it, the whole item.")
    var asset: String?

    @Option(help: ArgumentHelp("Decide the other members of the group under review too (keep ID --others delete).", valueName: "keep|delete|maybe"))
    var others: TidyDecision?

    func validate() throws {
        if others != nil && asset == nil {
            throw ValidationError("--others needs the asset you decide first: `tidy keep ID --others delete`")
        }
    }

    func run(_ decision: TidyDecision, _ options: LibraryOptions, _ output: JSONOutput) throws {
        try reportingErrors {
            let (decided, after) = try Tidy.decide(options.session(), decision, asset, others: others)
            if output.json { return try output.print(TidyDecisionJSON(decided, next: after.item, status: TidyStatusJSON(after.status))) }
            Terminal.message(said(decided))
            if decided.othersDecision == nil, decision == .keep, let current = after.current,
               current.item.members.contains(where: decided.ids.contains), current.open.count > 0, let kept = decided.ids.first {
                // Brief 004: keeping one of a group offers to mark the others.
                Terminal.message("Delete the other \(TidyText.plural(current.open.count, "similar photo"))? `shoebox tidy keep \(kept.rawValue.prefix(13)) --others delete`")
            }
            TidyText.show(after)
        }
    }

    func said(_ d: Tidy.Decided) -> String {
        let verb = switch d.decision {
        case .keep: "Kept"
        case .delete: "Marked for deletion:"
        case .maybe: "Put on the maybe pile:"
        case .emptied: "Emptied"
        }
        var text = "\(verb) \(TidyText.plural(d.ids.count, "photo"))"
        if let o = d.othersDecision { text += "; the other \(TidyText.plural(d.others.count, "photo")): \(o.rawValue)" }
        return text + "."
    }
}

extension TidyDecision: ExpressibleByArgument {
    public init?(argument: String) {
        guard let d = TidyDecision(rawValue: argument.lowercased()), d != .emptied else { return nil }
        self = d
    }
    public static var allValueStrings: [String] { ["keep", "delete", "maybe"] }
}

struct TidyKeep: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "keep", abstract: "Keep the item under review (swipe right), or one asset.")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var arguments: TidyDecisionArguments
    @OptionGroup var output: JSONOutput
    func run() throws { try arguments.run(.keep, options, output) }
}

struct TidyDelete: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Mark the item under review for deletion (swipe left); nothing moves until `tidy empty`.")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var arguments: TidyDecisionArguments
    @OptionGroup var output: JSONOutput
    func run() throws { try arguments.run(.delete, options, output) }
}

struct TidyMaybe: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "maybe", abstract: "Put the item under review on the maybe pile (swipe up).")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var arguments: TidyDecisionArguments
    @OptionGroup var output: JSONOutput
    func run() throws { try arguments.run(.maybe, options, output) }
}

struct TidyUndo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo", abstract: "Take the last decision back (as far back as the session goes, never past `tidy empty`).",
        discussion: "With --json: `{\"undone\": [ids], \"next\": item or null, \"status\": …}`.")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: JSONOutput

    struct Undone: PublicJSONShape {
        var undone: [String]
        var next: TidyItemJSON?
        var status: TidyStatusJSON
    }

    func run() throws {
        try reportingErrors {
            let (change, after) = try Tidy.undo(options.session())
            if output.json {
                return try output.print(Undone(undone: change.marks.map(\.id.rawValue), next: after.item, status: TidyStatusJSON(after.status)))
            }
            Terminal.message(TidyText.undone(change))
            if let current = after.current { Terminal.out(TidyText.item(current)); Terminal.message(TidyText.progress(after.status)) }
        }
    }
}

struct TidyFilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter", abstract: "Start a new session over a filter: all, screenshots, last-30-days, year:YYYY, largest, maybe.",
        discussion: """
            Every filter but `maybe` offers what has not been decided yet; `maybe` offers the maybe \
            pile again. `last-30-days` counts back from now ($SHOEBOX_NOW when set). With --json, \
            the new session's status.
            """)
    @OptionGroup var options: LibraryOptions
    @Argument(help: "all | screenshots | last-30-days | year:YYYY | largest | maybe") var filter: String
    @OptionGroup var output: JSONOutput

    func validate() throws {
        if TidyFilter(filter) == nil { throw ValidationError("unknown filter \(String(reflecting: filter)); filters: \(TidyFilter.spellings)") }
    }

    func run() throws {
        try reportingErrors {
            let session = try options.session()
            let status = try Tidy.start(session, TidyFilter(filter)!).status
            if output.json { return try output.print(TidyStatusJSON(status)) }
            Terminal.message("New session (\(status.filter)): \(TidyText.plural(status.total, "photo")) to review"
                + (status.items < status.total ? " in \(TidyText.plural(status.items, "item")) (similar shots come together)" : "") + ".")
            if status.total == 0 { Terminal.message(emptyMessage(status)) } else { TidyText.analysisHint(session) }
        }
    }

    func emptyMessage(_ s: TidyStatus) -> String {
        switch s.filter {
        case .maybe: "The maybe pile is empty."
        case .screenshots: "No screenshots left to review."
        case .last30Days: "Nothing from the last 30 days left to review."
        case .year(let y): "Nothing from \(y) left to review."
        case .all, .largest: s.maybe > 0 ? "Every photo is reviewed. Ready to tackle your \(TidyText.plural(s.maybe, "maybe"))? `shoebox tidy filter maybe`" : "Every photo is reviewed."
        }
    }
}
