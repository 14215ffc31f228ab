import ArgumentParser
import Foundation
import PhotoLibrary
import Tracker

// MARK: Recipes

struct TrackerRecipe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recipe", abstract: "Recipes: add, list (by miniature type), show, update, rm, link and unlink to miniatures.",
        subcommands: [Add.self, List.self, Show.self, Update.self, Remove.self, Link.self, Unlink.self])

    static func describe(_ r: Recipe) -> String {
        "\(r.id)  \(r.name)" + (r.type.map { " [\($0.rawValue)]" } ?? "")
            + " — " + [counted(r.steps.count, "step"), counted(r.paints.count, "paint"), counted(r.techniques.count, "technique")].joined(separator: ", ")
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Create a recipe; prints it with its id.")
        @OptionGroup var options: LibraryOptions
        @Option(help: "The recipe's name (required, non-empty).") var name: String
        @Option(help: "troop or character: the miniatures it is for (recipe list --type filters by it).") var type: MiniatureType?
        @Option(help: "A step, in order (repeat for each).") var step: [String] = []
        @Option(help: "A paint used (repeat for each).") var paint: [String] = []
        @Option(help: "A technique used (repeat for each).") var technique: [String] = []
        @OptionGroup var output: JSONOutput

        func run() throws {
            try changeTracker(options, output, line: { r in "Created the recipe \(TrackerRecipe.describe(r))" }) {
                try $0.addRecipe(name: name, type: type, steps: step, paints: paint, techniques: technique)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Recipes, all or only those for one miniature type.")
        @OptionGroup var options: LibraryOptions
        @Option(help: "troop or character: only recipes of that type.") var type: MiniatureType?
        @OptionGroup var output: JSONOutput

        func run() throws {
            try reportingErrors {
                let recipes = try openTracker(options, forReading: true).recipes(ofType: type)
                if output.json { return try output.print(recipes) }
                if recipes.isEmpty { return Terminal.message("No recipe" + (type.map { " for \($0.rawValue)s" } ?? "") + ".") }
                Terminal.out(recipes.map(TrackerRecipe.describe).joined(separator: "\n"))
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "One recipe: its steps, paints and techniques.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The recipe's id (or a unique prefix).") var id: String
        @OptionGroup var output: JSONOutput

        func run() throws {
            try reportingErrors {
                let r = try openTracker(options, forReading: true).recipe(id)
                if output.json { return try output.print(r) }
                Terminal.out(TrackerRecipe.describe(r))
                for (i, s) in r.steps.enumerated() { Terminal.out("  \(i + 1). \(s)") }
                if !r.paints.isEmpty { Terminal.out("  paints: " + r.paints.joined(separator: ", ")) }
                if !r.techniques.isEmpty { Terminal.out("  techniques: " + r.techniques.joined(separator: ", ")) }
            }
        }
    }

    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
        commandName: "update",
            abstract: "Change a recipe: its name, its type, or a whole list (the steps, paints or techniques given replace that list).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The recipe's id (or a unique prefix).") var id: String
        @Option(help: "The new name.") var name: String?
        @Option(help: "troop or character.") var type: MiniatureType?
        @Flag(help: "The recipe is for no particular type any more.") var noType = false
        @Option(help: "The steps, in order, replacing the old ones (repeat for each).") var step: [String] = []
        @Option(help: "The paints, replacing the old ones (repeat for each).") var paint: [String] = []
        @Option(help: "The techniques, replacing the old ones (repeat for each).") var technique: [String] = []
        @OptionGroup var output: JSONOutput

        func validate() throws {
            if type != nil && noType { throw ValidationError("--type and --no-type cannot go together") }
            if name == nil && type == nil && !noType && step.isEmpty && paint.isEmpty && technique.isEmpty {
                throw ValidationError("say what to change: --name, --type, --no-type, --step, --paint or --technique")
            }
        }

        func run() throws {
            try changeTracker(options, output, line: { r in "Updated the recipe \(TrackerRecipe.describe(r))" }) {
                try $0.updateRecipe(id, name: name, type: type, clearType: noType, steps: step.isEmpty ? nil : step,
                                    paints: paint.isEmpty ? nil : paint, techniques: technique.isEmpty ? nil : technique)
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a recipe (unlinked from every miniature).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The recipe's id (or a unique prefix).") var id: String
        @OptionGroup var output: JSONOutput

        func run() throws {
            try changeTracker(options, output, line: { (result: TrackerRemovalJSON) in "Deleted the recipe \(result.id); unlinked from \(counted(result.miniature_ids.count, "miniature"))." }) {
                TrackerRemovalJSON(try $0.removeRecipe(id))
            }
        }
    }

    struct Link: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "link", abstract: "Link a recipe to a miniature; prints the miniature.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The recipe's id (or a unique prefix).") var recipe: String
        @Argument(help: "The miniature's id (or a unique prefix).") var mini: String
        @OptionGroup var output: JSONOutput

        func run() throws { try TrackerRecipe.link(options, recipe, mini, output, linked: true) }
    }

    struct Unlink: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unlink", abstract: "Unlink a recipe from a miniature; prints the miniature.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The recipe's id (or a unique prefix).") var recipe: String
        @Argument(help: "The miniature's id (or a unique prefix).") var mini: String
        @OptionGroup var output: JSONOutput

        func run() throws { try TrackerRecipe.link(options, recipe, mini, output, linked: false) }
    }

    static func link(_ options: LibraryOptions, _ recipe: String, _ mini: String, _ output: JSONOutput, linked: Bool) throws {
        try changeTracker(options, output, line: { m in (linked ? "Linked" : "Unlinked") + " — \(describeMini(m))" }) {
            linked ? try $0.link(recipe: recipe, mini: mini) : try $0.unlink(recipe: recipe, mini: mini)
        }
    }
}

// MARK: Photos

struct TrackerPhotoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photo", abstract: "Progress photos of a miniature: add (a file or a library asset), list (oldest first), rm.",
        subcommands: [Add.self, List.self, Remove.self])

    static func describe(_ p: TrackerPhoto) -> String {
        "\(p.id)  \(p.taken_at.map { "taken \($0)" } ?? "added \(p.added_at)")  \(p.file)"
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
        commandName: "add",
            abstract: "Copy a JPEG, PNG or HEIC photo (checked by content) to a miniature; prints it with its id.",
            discussion: "FILE is any file (outside the library); ASSET an asset of the library by id, id prefix or path. The copy is byte-identical, under Tracker/photos/.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The miniature's id (or a unique prefix).") var mini: String
        @Argument(help: "A photo file, or a library asset's id or path.") var source: String
        @OptionGroup var output: JSONOutput

        func run() throws {
            // The photo's headers give its size and capture date.
            try NeedsMetadataReaders.unlessReaderAvailable()
            try changeTracker(options, output, line: { p in "Added the photo \(TrackerPhotoCommand.describe(p))" }) {
                try $0.addPhoto(mini: mini, from: .reference(source))
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "A miniature's photos, by capture time (else the time added), oldest first.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The miniature's id (or a unique prefix).") var mini: String
        @OptionGroup var output: JSONOutput

        func run() throws {
            try reportingErrors {
                let photos = try openTracker(options, forReading: true).photos(ofMini: mini)
                if output.json { return try output.print(photos) }
                if photos.isEmpty { return Terminal.message("No photo of this miniature; `shoebox tracker photo add MINI FILE|ASSET` adds one.") }
                Terminal.out(photos.map(TrackerPhotoCommand.describe).joined(separator: "\n"))
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a photo: its record and its file.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The photo's id (or a unique prefix).") var id: String
        @OptionGroup var output: JSONOutput

        func run() throws {
            try changeTracker(options, output, line: { (r: TrackerRemovalJSON) in "Deleted the photo \(r.id) and its file." }) {
                TrackerRemovalJSON(try $0.removePhoto(id))
            }
        }
    }
}

// MARK: Export

struct TrackerExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export everything or one project as JSON (one file) or CSV (one file per entity).",
        discussion: "Photos are referenced by id and by path relative to the library, never embedded. DIR is outside the library; it is made if its parent exists; no file in it is replaced.")
    @OptionGroup var options: LibraryOptions
    @Option(help: "Only this project (an id or a unique prefix), its miniatures, their photos and linked recipes.") var project: String?
    @Option(help: "json or csv.") var format: TrackerExport.Format
    @Option(name: .customShort("o"), help: ArgumentHelp("The folder to write into.", valueName: "dir")) var output: String
    @OptionGroup var json: JSONOutput

    func run() throws {
        try reportingErrors {
            let folder = URL(fileURLWithPath: output, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
                .standardizedFileURL.path
            let (files, d) = try openTracker(options).export(project: project, format: format, to: folder)
            let shape = TrackerExportJSON(to: folder, format: format.rawValue, files: files, projects: d.projects.count,
                                          miniatures: d.miniatures.count, recipes: d.recipes.count, photos: d.photos.count)
            try printTracker(shape, json, files.joined(separator: "\n"))
            if !json.json {
                Terminal.message("Exported \(counted(d.projects.count, "project")), \(counted(d.miniatures.count, "miniature")), \(counted(d.recipes.count, "recipe")) and \(counted(d.photos.count, "photo reference")) to \(folder).")
            }
        }
    }
}
