import Analysis
import ArgumentParser
import Composer
import Foundation
import PhotoLibrary
import ShoeboxCommands

struct ComposeExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write the story: one 1080×1920 HEIC of the draft's photos, top to bottom.",
        discussion: """
            Without -o, "Story yyyy-MM-dd HH.mm.ss.heic" in the current folder (" (2)"… when \
            taken); run inside the library, it is saved into Collages/ instead (as --save). \
            -o FILE never replaces anything: a file or link there is an error. --save \
            puts it into the library instead (Collages/, indexed as a photo); with -o as well, \
            both. The draft is cleared once the story is written.
            """)
    @OptionGroup var options: LibraryOptions
    @Option(name: .shortAndLong, help: ArgumentHelp("The HEIC file to write (outside the library).", valueName: "file.heic"))
    var output: String?
    @Flag(help: "Save the story into the library (Collages/) and index it.") var save = false
    @OptionGroup var json: JSONOutput

    func run() throws {
        try reportingErrors {
            let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            let session = try options.session()
            // The README's `cd ~/Pictures` puts the current folder inside the library, where no file
            // is written outside the index's knowledge: the story goes into Collages/ (issue 32).
            let inLibrary = output == nil && !save && Self.isInside(cwd, session.library.root)
            if inLibrary { Terminal.message("The current folder is inside the library: the story is saved into Collages/ (-o FILE writes one elsewhere).") }
            let destination: StoryExport.Destination = output.map { .file(URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL.path) }
                ?? (save || inLibrary ? .nowhere : .defaultName(inFolder: cwd.path))
            let done = try StoryExport.run(session, to: destination, save: save || inLibrary, note: { Terminal.message($0) })
            let (file, saved, entries) = (done.file, done.saved, done.entries)
            saved.map { SavedPhotoAnalysis.run($0.id, in: session) }
            if json.json {
                return try json.print(ComposeExportJSON(file: file, saved: saved, size: done.size, photos: entries.map(\.asset.id)))
            }
            let size = String(format: "%.2f MB", Double(done.size) / 1e6)
            if let file { Terminal.out("Wrote \(file) (1080×1920 HEIC, \(size), \(entries.count) photo\(entries.count == 1 ? "" : "s"))") }
            if let saved { Terminal.out("Saved \(displayPath(saved.path)) into the library as \(saved.id) (1080×1920 HEIC, \(size))") }
            Terminal.message("The composer draft is cleared.")
        }
    }

    /// `folder` is the library's root or under it, links resolved (the confined layer checks
    /// again whatever is written; this only chooses the default).
    static func isInside(_ folder: URL, _ root: URL) -> Bool {
        let f = folder.resolvingSymlinksInPath().standardizedFileURL.path, r = root.resolvingSymlinksInPath().standardizedFileURL.path
        return f == r || f.hasPrefix(r.hasSuffix("/") ? r : r + "/")
    }
}
