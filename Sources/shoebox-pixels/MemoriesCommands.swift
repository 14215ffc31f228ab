import Analysis
import ArgumentParser
import Foundation
import Memories
import PhotoLibrary
import ShoeboxCommands

struct MemoriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memories",
        abstract: "Memories: collages of the best photos of a year, a place or a person.",
        discussion: """
            `sources` lists what a memory can be of, with counts (people need at least 10 photos \
            in which the analysis found their face; run `shoebox analyze` first). `collage` picks \
            six of the best-scored photos spread over the time range and lays them out 2×3 on \
            1200×1500 with face-aware crops. Nothing is saved without --save (into Collages/, \
            where it is indexed) or -o FILE.jpg (outside the library). See docs/CONTRACT.md.
            """,
        subcommands: [MemoriesSources.self, MemoriesCollage.self])
}

extension MemoryRange: ExpressibleByArgument {}

struct MemoriesSources: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources", abstract: "Years, places and people (with at least 10 photos) a memory can be of, with counts.")
    @OptionGroup var options: LibraryOptions
    @Option(help: "all, last-year or last-5-years (before $SHOEBOX_NOW when set).") var range: MemoryRange = .all
    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let sources = try Memories(session: try options.session()).sources(range: range)
            if output.json { return try output.print(MemorySourcesJSON(sources, range: range)) }
            let years = sources.years.map { "\($0.year) (\($0.count))" }
            let places = sources.places.map { "\(Place(city: $0.city, country: $0.country).label) (\($0.count))" }
            let people = sources.people.map { $0.name + ($0.name == $0.id ? "" : " [\($0.id)]") + " (\($0.count))" }
            for (title, items, empty) in [("Years", years, "No photos with a capture date" + range.phrase),
                                          ("Places", places, "No places: no photo\(range.phrase) has a location"),
                                          ("People", people, "No people with at least 10 photos\(range.phrase) (`shoebox analyze` finds faces)")] {
                if items.isEmpty { Terminal.message(empty) } else { Terminal.out("\(title): " + items.joined(separator: ", ")) }
            }
        }
    }
}

struct MemoriesCollage: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collage", abstract: "A 2×3 collage (1200×1500 JPEG) of the best photos of a year, a place or a person.",
        discussion: """
            The same seed and library give the same bytes; another seed reshuffles (default 1). \
            --place takes a city, a country or "City, Country" (case and accents ignored); \
            --person a name or an id from `people list`. With --json: the seed, the file, and \
            each cell's photo and crop (normalised to the upright photo, x/y its top-left corner).
            """)
    @OptionGroup var options: LibraryOptions
    @Option(help: "Photos taken in this year.") var year: Int?
    @Option(help: "Photos taken in this place.") var place: String?
    @Option(help: "Photos in which this person's face was found.") var person: String?
    @Option(help: "all, last-year or last-5-years (before $SHOEBOX_NOW when set).") var range: MemoryRange = .all
    @Option(help: "Picks and order: the same seed gives the same collage.") var seed: UInt64 = 1
    @Option(name: .short, help: ArgumentHelp("Write the collage to this file, outside the library (never replaced).", valueName: "file.jpg"))
    var output: String?
    @Flag(help: "Save it into the library's Collages/ folder, where it is indexed.") var save = false
    @OptionGroup var json: JSONOutput

    var source: MemorySource? {
        if let year { return .year(year) }
        if let place { return .place(place) }
        return person.map { .person($0) }
    }

    func validate() throws {
        let given = [year != nil, place != nil, person != nil].filter { $0 }.count
        if given != 1 { throw ValidationError("name one source: --year Y, --place P or --person N") }
        if save && output != nil { throw ValidationError("use either -o FILE.jpg (outside the library) or --save (into Collages/), not both") }
        if place?.trimmingCharacters(in: .whitespaces).isEmpty == true || person?.trimmingCharacters(in: .whitespaces).isEmpty == true {
            throw ValidationError("--place and --person need a name")
        }
    }

    func run() throws {
        try reportingErrors {
            let memories = Memories(session: try options.session())
            let outputPath = output.map {
                URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
                    .standardizedFileURL.path
            }
            let collage = try memories.collage(of: source!, range: range, seed: seed)
            let notes = collage.notes.map { CommandHint.line($0.description, $0.remedy) }
            for note in notes { Terminal.message(note) }
            var path: String?
            var savedID: AssetID?
            if let outputPath {
                try CollageOutput.write(collage, to: outputPath, library: memories.library)
                path = outputPath
            } else if save {
                (path, savedID) = try memories.save(collage)
                savedID.map { SavedPhotoAnalysis.run($0, in: memories.session) }
            }
            if json.json { return try json.print(CollageJSON(collage, path: path, savedID: savedID, notes: notes)) }
            for (i, cell) in collage.cells.enumerated() {
                let c = cell.crop
                Terminal.out("\(i + 1) \(String(cell.asset.id.rawValue.prefix(13))) \(cell.asset.score.map { String(format: "%+.3f", $0) } ?? "  —   ") "
                             + "\(displayPath(cell.asset.path)) crop \(String(format: "%.3f,%.3f %.3f×%.3f", c.x, c.y, c.w, c.h))")
            }
            if let savedID, let path {
                Terminal.message("Saved the collage (seed \(seed)) as \(path) (id \(savedID.rawValue)).")
            } else if let path {
                Terminal.message("Wrote the collage (seed \(seed)) to \(path).")
            } else {
                Terminal.message("Nothing saved (seed \(seed)): add --save to put it into Collages/, or -o FILE.jpg.")
            }
        }
    }
}
