import Analysis
import ArgumentParser
import Curation
import Foundation
import PhotoLibrary
import ShoeboxCommands

/// `curate` as `shoebox-pixels` has it: `add`, which analyses what it adds, and the rest.
struct CurateWithPixels: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "curate", abstract: CurateGroup.abstract, discussion: CurateGroup.discussion,
        subcommands: [CurateAdd.self] + CurateGroup.pixelFree)
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
            let session = try options.session()
            let result = try Curation.add(session, assets, album: album, year: year) { ids in
                let bar = Terminal.ProgressBar(label: "Scoring")
                let report = try Analysis.run(session, ids: ids, wait: true, progress: { bar.update(done: $0.done, total: $0.total, bytes: nil) })
                bar.finish()
                printProblems(report)
            }
            let (added, entries) = (result.added, result.entries)
            try printList(entries, output, line: "Added \(added) to the curation list"
                + (added < result.named ? " (\(result.named - added) already in it)" : "")
                + "; it has \(plural(entries.count, "photo")), best first: `shoebox curate list`.")
            let unscored = result.unscored
            if unscored > 0 { Terminal.message("\(unscored) of them \(unscored == 1 ? "has" : "have") no score; they rank after the scored photos.") }
        }
    }
}
