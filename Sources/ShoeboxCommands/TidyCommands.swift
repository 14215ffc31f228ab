import ArgumentParser
import Foundation
import PhotoLibrary
import Tidy

package struct TidyCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "tidy",
        abstract: "Tidy: review photos one by one — keep, delete (mark), maybe — then empty what you marked.",
        discussion: """
            A review session goes through a filter (all, screenshots, last-30-days, year:YYYY, \
            largest, maybe) item by item, newest first (largest first for `largest`); similar \
            shots (taken within 10 s, near-identical copies, duplicates) come as one group, best \
            first. Nothing moves until `tidy empty`, which puts the marked files into Recently \
            Deleted for 30 days. The session survives restarts (.shoebox/tidy.json); `undo` goes \
            back as far as the session goes. Everything stays on this machine. See docs/TIDY.md.
            """,
        subcommands: [TidyStatusCommand.self, TidyNext.self, TidyKeep.self, TidyDelete.self, TidyMaybe.self,
                      TidyUndo.self, TidyFilterCommand.self, TidySimilar.self, TidyTrash.self, TidyUnmark.self,
                      TidyEmpty.self, TidyMaybes.self, TidyListCommand.self],
        defaultSubcommand: TidyStatusCommand.self)

    package init() {}
}

// MARK: Printing

enum TidyText {
    /// Says when part of the library is not analysed yet (nothing to say otherwise).
    static func analysisHint(_ session: LibrarySession) {
        guard let n = try? Tidy.unanalysedCount(session), n > 0 else { return }
        Terminal.message("\(plural(n, "photo")) not analysed yet: near-identical copies and the best of each group need their look and score — `shoebox analyze` (or a running `watch`), then `shoebox tidy filter all`.")
    }

    static func number(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(d)
        }
        return out
    }

    static func plural(_ n: Int, _ word: String) -> String { "\(number(n)) \(word)\(n == 1 ? "" : "s")" }

    static func line(_ a: Asset, decision: TidyDecision? = nil) -> String {
        let date = a.takenAt.map { String($0.iso8601.prefix(16)).replacingOccurrences(of: "T", with: " ") } ?? "—"
        let score = a.score.map { String(format: "%+.3f", $0) } ?? "  —   "
        let mark = (decision ?? a.tidyMark?.decision).map { " [\($0.rawValue)]" } ?? ""
        return [String(a.id.rawValue.prefix(13)), score, date.padding(toLength: 16, withPad: " ", startingAt: 0),
                formatBytes(a.size).leftPadded(9), displayPath(a.path) + (a.kind == .video ? " (video)" : "") + mark].joined(separator: "  ")
    }

    /// The item under review: each photo's line, and under it what a person deciding looks at —
    /// its size in pixels and its score in words (issue 32: the web page showed them, the
    /// terminal did not).
    static func item(_ current: TidyCurrent) -> String {
        if case .group(let g) = current.item, current.assets.count > 1 {
            let what = switch g.kind {
            case .duplicate: "Duplicates (byte-identical)"
            case .nearIdentical: "Near-identical copies"
            case .similar: "Similar shots"
            }
            return "\(what), \(current.assets.count), best first:\n"
                + current.assets.enumerated().map { "  \($0 + 1). " + line($1) + "\n       " + looks($1) }.joined(separator: "\n")
        }
        return line(current.assets[0]) + "\n  " + looks(current.assets[0])
    }

    /// What an undo took back, each decision with its own count (issue 32: a group's one keep
    /// and seven deletes were "keep of 8 photos"): "Undone: keep of 1 photo, delete of 7 photos."
    static func undone(_ change: TidyState.Change) -> String {
        var counts: [(what: String, n: Int)] = []
        for m in change.marks {
            let what = change.kind == .unmark ? "unmark" : m.to?.decision.rawValue ?? "change"
            if let i = counts.firstIndex(where: { $0.what == what }) { counts[i].n += 1 } else { counts.append((what, 1)) }
        }
        return "Undone: " + counts.map { "\($0.what) of \(plural($0.n, "photo"))" }.joined(separator: ", ") + "."
    }

    /// "4032×3024 — sharp, well exposed, one face" ("not analysed yet" in place of the words).
    static func looks(_ a: Asset) -> String {
        let size = a.width > 0 && a.height > 0 ? "\(a.width)×\(a.height)" : "size unknown"
        return size + " — " + (ScoreWords.sentence(of: a) ?? (a.score == nil ? "not analysed yet" : "score without its reasons"))
    }

    /// The item under review and how far the session is, or what to do when it is through.
    static func show(_ shown: TidySnapshot) {
        guard let current = shown.current else { return whenDone(shown.status).forEach(Terminal.message) }
        Terminal.out(item(current))
        Terminal.message(progress(shown.status))
    }

    static func progress(_ s: TidyStatus) -> String {
        "\(number(min(s.position + (s.done ? 0 : 1), s.total))) of \(number(s.total)) (\(s.filter))"
    }

    /// What to do when the session is through (brief 004: "You marked X photos for deletion.
    /// Review now?" and "Ready to tackle your X maybes?").
    static func whenDone(_ s: TidyStatus) -> [String] {
        var lines = ["This session is through: \(plural(s.reviewed, "photo")) reviewed."]
        if s.marked > 0 {
            lines.append("You marked \(plural(s.marked, "photo")) for deletion. Review them: `shoebox tidy trash`; then `shoebox tidy empty` moves them to Recently Deleted.")
        }
        if let unreviewed = s.unreviewed, unreviewed > 0 {
            lines.append("\(plural(unreviewed, "photo")) not reviewed yet: `shoebox tidy filter all`.")
        } else if s.maybe > 0 {
            lines.append("Every photo is reviewed. Ready to tackle your \(plural(s.maybe, "maybe"))? `shoebox tidy filter maybe`")
        }
        return lines
    }
}

// MARK: Session commands

struct TidyStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Where the session stands: \"X of Y\", marked, maybe, reviewed.",
        discussion: "With --json: filter, position, total, marked, maybe, reviewed (and more; docs/CONTRACT.md).")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let session = try options.session(forReading: true)
            let status = try Tidy.snapshot(session, countingUnreviewed: true).status
            if output.json { return try output.print(TidyStatusJSON(status)) }
            TidyText.analysisHint(session)
            Terminal.out("Session \(status.filter): \(TidyText.number(status.position)) of \(TidyText.number(status.total)) reviewed"
                + " — marked for deletion \(TidyText.number(status.marked)), maybe \(TidyText.number(status.maybe)),"
                + " reviewed this session \(TidyText.number(status.reviewed)).")
            if status.done { TidyText.whenDone(status).forEach(Terminal.message) }
        }
    }
}

struct TidyNext: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "next", abstract: "The item under review: a photo, or a group of similar shots best first.",
        discussion: "With --json: {\"item\": asset | {\"group\", \"kind\", \"items\"} | null, \"status\": …}.")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let shown = try Tidy.snapshot(options.session(forReading: true))
            if output.json { return try output.print(TidyNextJSON(item: shown.item, status: TidyStatusJSON(shown.status))) }
            TidyText.show(shown)
        }
    }
}

struct TidyListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "The session's items still to review, in order (with --all, from its start).",
        discussion: "With --json: an array of items, each an asset or a group as `tidy next --json` prints them.")
    @OptionGroup var options: LibraryOptions
    @Flag(help: "From the session's first item, decided ones included.") var all = false
    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let session = try options.session(forReading: true)
            if output.json {
                return try output.printArray { element in
                    try Tidy.forEachItem(session, all: all) { batch, companions in
                        for item in batch { try element(TidyItemJSON(item, companions: companions)) }
                    }
                }
            }
            let listed = try Tidy.forEachItem(session, all: all) { batch, _ in
                for item in batch { Terminal.out(TidyText.item(item)) }
            }
            Terminal.message("\(TidyText.plural(listed.count, "item")) (\(listed.filter)).")
        }
    }
}
