import ArgumentParser
import Composer
import Foundation
import PhotoLibrary

struct ComposeExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write the story: one 1080×1920 HEIC of the draft's photos, top to bottom.",
        discussion: """
            Without -o, "Story yyyy-MM-dd HH.mm.ss.heic" in the current folder (" (2)"… when \
            taken). -o FILE never replaces anything: a file or link there is an error. --save \
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
            let library = try options.open()
            let index = try Index(library: library)
            let composer = Composer(library: library, index: index)
            let (draft, entries) = try composer.load(note: { Terminal.message($0) })
            guard !entries.isEmpty else { throw ShoeboxError(.invalidArgument, "nothing to export: the composer draft is empty; add 1–4 photos with `shoebox compose add ID|PATH…`") }
            if save, let problem = index.readOnlyReason { throw problem }
            let export = StoryExport(composer: composer)
            let now = ShoeboxClock.now()
            let name = StoryExport.defaultName(at: now)
            let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            // Checked before the work: an -o that cannot be written fails at once (and again,
            // race-free, when the file is created).
            let target = output.map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL.path }
            if let target { try refuseTaken(target) }
            let bytes = try export.encode(entries)
            var file: String?
            if let target {
                file = try export.writeOutside(bytes, to: target, numbering: false)
            } else if !save {
                file = try export.writeOutside(bytes, to: cwd.appendingPathComponent(name).path, numbering: true)
            }
            var saved: Asset?
            let lock = try LibraryLock(library: library)
            try withExtendedLifetime(lock) {
                if save {
                    do { saved = try export.save(bytes, named: name) } catch {
                        // All or nothing: the file this run wrote outside goes with the failed save.
                        if let file { unlink(file) }
                        throw error
                    }
                }
                // SPEC: the draft lasts until export. Cleared only if it is still the one drawn.
                if (try? composer.load().draft) == draft { try composer.store.erase() }
            }
            if json.json {
                return try json.print(ComposeExportJSON(file: file, saved: saved, size: bytes.count, photos: entries.map(\.asset.id)))
            }
            let size = String(format: "%.2f MB", Double(bytes.count) / 1e6)
            if let file { Terminal.out("Wrote \(file) (1080×1920 HEIC, \(size), \(entries.count) photo\(entries.count == 1 ? "" : "s"))") }
            if let saved { Terminal.out("Saved \(displayPath(saved.path)) into the library as \(saved.id) (1080×1920 HEIC, \(size))") }
            Terminal.message("The composer draft is cleared.")
        }
    }

    /// One clear error before any decoding when -o names something already there.
    private func refuseTaken(_ path: String) throws {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        if (st.st_mode & S_IFMT) == S_IFLNK {
            throw ShoeboxError(.alreadyExists, "\(path) is a symbolic link; Shoebox does not write through it: choose another name with -o")
        }
        throw ShoeboxError(.alreadyExists, "\(path) already exists; nothing was replaced: choose another name with -o")
    }
}
