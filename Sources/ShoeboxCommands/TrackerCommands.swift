import ArgumentParser
import Foundation
import PhotoLibrary
import Tracker

// Which validations live where (docs/CONTRACT.md): the parser checks what it can see in the
// words — a required option missing, a miniature type, progress stage or export format that is
// not one of the listed values, `update` with nothing to change — and exits 2 (bad usage). The
// tracker checks values: an empty name or army, a game system it does not know (free text:
// "Warhammer 40K", "40k"…), an id that is not in the tracker, a photo that is not JPEG, PNG or
// HEIC — and exits 1 with one line.
extension MiniatureType: ExpressibleByArgument {}
extension ProgressStage: ExpressibleByArgument {}
extension TrackerExport.Format: ExpressibleByArgument {}

package struct TrackerCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "tracker",
        abstract: "Painting tracker: projects, miniatures, recipes and progress photos (kept in Tracker/).",
        discussion: """
            Projects (a game system: "Age of Sigmar", "Warhammer 40K" or "Horus Heresy"; an army) \
            hold miniatures (troop or character) whose progress (unpainted, primed, basecoated, \
            detailed, completed) is kept with its history. Recipes are independent and can be linked \
            to miniatures. Photos are copied into Tracker/photos/ byte for byte. Ids may be shortened \
            to a unique prefix of 4 or more characters. See docs/CONTRACT.md.
            """,
        subcommands: [TrackerProject.self, TrackerMini.self, TrackerRecipe.self, TrackerPhotoCommand.self, TrackerExportCommand.self])

    package init() {}
}

/// Opens the library's tracker on a session; integrity findings go to stderr, one line each.
/// `forReading`: for the commands that only read (`LibraryOptions.session(forReading:)`).
func openTracker(_ options: LibraryOptions, forReading: Bool = false) throws -> Tracker {
    Tracker(session: try options.session(forReading: forReading), note: { Terminal.message("shoebox: warning: \(TrackerStore.path): " + $0.commandLine) })
}

/// Prints `shape` as JSON, or `line` for people.
func printTracker<Shape: PublicJSONShape>(_ shape: Shape, _ output: JSONOutput, _ line: @autoclosure () -> String) throws {
    if output.json { return try output.print(shape) }
    Terminal.out(line())
}

/// A tracker entry point whose result is printed as JSON or as `line` says it.
func changeTracker<Shape: PublicJSONShape>(_ options: LibraryOptions, _ output: JSONOutput, line: (Shape) -> String,
                                          _ change: (Tracker) throws -> Shape) throws {
    try reportingErrors {
        let result = try change(openTracker(options))
        try printTracker(result, output, line(result))
    }
}

func describeProject(_ p: Project) -> String {
    "\(p.id)  \(p.game_system.rawValue) · \(p.army)" + (p.name.map { " · \($0)" } ?? "") + "  (created \(p.created_at))"
}

func describeMini(_ m: Miniature) -> String {
    "\(m.id)  \(m.name) [\(m.type.rawValue)] \(m.progress.rawValue)" + (m.photo_ids.isEmpty ? "" : ", " + counted(m.photo_ids.count, "photo"))
        + (m.recipe_ids.isEmpty ? "" : ", " + counted(m.recipe_ids.count, "recipe"))
}

// MARK: Projects

struct TrackerProject: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project", abstract: "Projects: add, list (by game system, then army), show, update, rm.",
        subcommands: [Add.self, List.self, Show.self, Update.self, Remove.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
        commandName: "add",
            abstract: "Create a project; prints its id (stdout) and the project (stderr).",
            discussion: "The id alone on stdout, so that `P=$(shoebox tracker project add …)` holds it; --json prints the project.")
        @OptionGroup var options: LibraryOptions
        @Option(help: "\"Age of Sigmar\", \"Warhammer 40K\" or \"Horus Heresy\" (also aos, 40k, hh).") var gameSystem: String
        @Option(help: "The army (required, non-empty).") var army: String
        @Option(help: "A name for the project.") var name: String?
        @OptionGroup var output: JSONOutput

        func run() throws {
            // The README promises the id (issue 32: a sentence was printed): the id on stdout, the
            // sentence on stderr.
            try changeTracker(options, output, line: { p in
                Terminal.message("Created the project \(describeProject(p))")
                return p.id
            }) {
                try $0.addProject(gameSystem: gameSystem, army: army, name: name)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Projects grouped by game system, then army (--json: one flat array in that order).")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var output: JSONOutput

        func run() throws {
            try reportingErrors {
                let projects = try openTracker(options, forReading: true).projects()
                if output.json { return try output.print(projects) }
                if projects.isEmpty { return Terminal.message("No project yet; `shoebox tracker project add --game-system SYSTEM --army ARMY` makes one.") }
                var heading = ""
                for p in projects {
                    let h = "\(p.game_system.rawValue) — \(p.army)"
                    if h != heading { Terminal.out(h); heading = h }
                    Terminal.out("  " + describeProject(p))
                }
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "One project; its miniatures follow on the terminal.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The project's id (or a unique prefix).") var id: String
        @OptionGroup var output: JSONOutput

        func run() throws {
            try reportingErrors {
                let (p, minis) = try openTracker(options, forReading: true).project(id)
                if output.json { return try output.print(p) }
                Terminal.out(describeProject(p))
                for m in minis { Terminal.out("  " + describeMini(m)) }
            }
        }
    }

    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "update", abstract: "Change a project's army or name (an empty --name clears it).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The project's id (or a unique prefix).") var id: String
        @Option(help: "The new army.") var army: String?
        @Option(help: "The new name.") var name: String?
        @OptionGroup var output: JSONOutput

        func validate() throws {
            if army == nil && name == nil { throw ValidationError("say what to change: --army A and/or --name N") }
        }

        func run() throws {
            try changeTracker(options, output, line: { p in "Updated the project \(describeProject(p))" }) {
                try $0.updateProject(id, army: army, name: name)
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a project with its miniatures and their photo files.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The project's id (or a unique prefix).") var id: String
        @OptionGroup var output: JSONOutput

        func run() throws {
            try changeTracker(options, output, line: { (r: TrackerRemovalJSON) in "Deleted the project \(r.id) with \(counted(r.miniature_ids.count, "miniature")) and \(counted(r.files_removed.count, "photo file"))." }) {
                TrackerRemovalJSON(try $0.removeProject(id))
            }
        }
    }
}

// MARK: Miniatures

struct TrackerMini: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mini", abstract: "Miniatures: add, list, show, update (progress, name), rm.",
        subcommands: [Add.self, List.self, Show.self, Update.self, Remove.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a miniature to a project (unpainted); prints it with its id.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The project's id (or a unique prefix).") var project: String
        @Option(help: "The miniature's name (required, non-empty).") var name: String
        @Option(help: "troop or character.") var type: MiniatureType
        @OptionGroup var output: JSONOutput

        func run() throws {
            try changeTracker(options, output, line: { m in "Added the miniature \(describeMini(m))" }) {
                try $0.addMini(project: project, name: name, type: type)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Miniatures, of one project or all (in the order added).")
        @OptionGroup var options: LibraryOptions
        @Option(help: "Only this project's (an id or a unique prefix).") var project: String?
        @OptionGroup var output: JSONOutput

        func run() throws {
            try reportingErrors {
                let minis = try openTracker(options, forReading: true).miniatures(ofProject: project)
                if output.json { return try output.print(minis) }
                if minis.isEmpty { return Terminal.message("No miniature yet; `shoebox tracker mini add PROJECT --name NAME --type troop|character` adds one.") }
                Terminal.out(minis.map(describeMini).joined(separator: "\n"))
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "One miniature with its progress history.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The miniature's id (or a unique prefix).") var id: String
        @OptionGroup var output: JSONOutput

        func run() throws {
            try reportingErrors {
                let m = try openTracker(options, forReading: true).miniature(id)
                if output.json { return try output.print(m) }
                Terminal.out(describeMini(m))
                for s in m.history { Terminal.out("  \(s.at)  \(s.progress.rawValue)") }
            }
        }
    }

    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "update", abstract: "Record a new progress stage (kept in the history with its time) or rename.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The miniature's id (or a unique prefix).") var id: String
        @Option(help: "unpainted, primed, basecoated, detailed or completed.") var progress: ProgressStage?
        @Option(help: "The new name.") var name: String?
        @OptionGroup var output: JSONOutput

        func validate() throws {
            if progress == nil && name == nil { throw ValidationError("say what to change: --progress STAGE and/or --name N") }
        }

        func run() throws {
            try changeTracker(options, output, line: { m in "Updated the miniature \(describeMini(m))" }) {
                try $0.updateMini(id, progress: progress, name: name)
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a miniature and its photo files.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The miniature's id (or a unique prefix).") var id: String
        @OptionGroup var output: JSONOutput

        func run() throws {
            try changeTracker(options, output, line: { (r: TrackerRemovalJSON) in "Deleted the miniature \(r.id) and \(counted(r.files_removed.count, "photo file"))." }) {
                TrackerRemovalJSON(try $0.removeMini(id))
            }
        }
    }
}
