import Analysis
import ArgumentParser
import Foundation
import PhotoLibrary
import ShoeboxCommands

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Analyse the photos and videos that need it: thumbnails, perceptual hashes, faces and people.",
        discussion: """
            Decodes each file once; its pixels never leave this machine. Results are stored a few \
            files at a time, so an interrupted run resumes where it stopped, and a running \
            `shoebox watch` (which analyses new files in the background) goes on indexing \
            meanwhile. With --wait, waits for the library's writer however long it is busy, and \
            until nothing is left to analyse (files the watcher is still analysing included).
            """)

    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: JSONOutput

    @Flag(help: "Wait for a busy library, and until every file is analysed.")
    var wait = false

    /// For bench/analyze.py: only these parts (`thumbnails`, `hash`, `faces`), nothing stored.
    @Option(help: .hidden) var stages: String?

    func run() throws {
        try reportingErrors {
            // Ctrl-C or SIGTERM: no file is started any more, what is done is stored and said.
            let signals = StopSignals()
            var only: PixelAnalyzer.Stages?
            if let stages {
                only = []
                for part in stages.split(separator: ",") {
                    switch part {
                    case "thumbnails": only?.insert(.thumbnails)
                    case "hash": only?.insert(.hash)
                    case "faces": only?.insert(.faces)
                    case "score": only?.insert(.score)
                    default: throw ValidationError("--stages takes thumbnails, hash, faces, score")
                    }
                }
            }
            let bar = Terminal.ProgressBar(label: "Analysing")
            let report: AnalysisRunner.Report
            do {
                report = try Analysis.run(try options.session(), wait: wait, measuring: only, shouldStop: { signals.isStopping }) {
                    bar.update(done: $0.done, total: $0.total, bytes: nil)
                }
            } catch let e as ShoeboxError where e.code == .locked {
                // Stopped while another process held the library: nothing more to store.
                if let status = signals.interruptedStatus { throw ExitCode(status) }
                throw e
            }
            bar.finish()
            if output.json { try output.print(AnalyzeReportJSON(report, reason: CommandHint.line)) }
            printProblems(report)
            if !output.json {
                Terminal.message("\(report.analysed) analysed, \(report.faces) face\(report.faces == 1 ? "" : "s") found"
                    + (report.damaged > 0 ? ", \(report.damaged) damaged" : "") + (report.left > 0 ? ", \(report.left) left for later" : ""))
            }
            if let status = signals.interruptedStatus { throw ExitCode(status) }
        }
    }

}

/// One line per file whose pixels had a problem, then per file that could not be analysed (with
/// what to do about it).
func printProblems(_ report: AnalysisRunner.Report) {
    for p in report.problems { Terminal.problem(p) }
    for n in report.notAnalysed { Terminal.problem(FileProblem(path: n.path, reason: CommandHint.line(n.error))) }
}

struct PeopleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "people",
        abstract: "The people the analysis found: list, show, name, merge, move, forget.",
        discussion: """
            A person is given as its id (p3), its present name (any case) or one of its faces \
            (<asset id>#n). Small, blurred or turned faces are put into no person by the analysis: \
            `people move FACE PERSON` puts one somewhere.
            """,
        subcommands: [ListPeople.self, ShowPerson.self, NamePerson.self, MergePeople.self, MoveFace.self, ForgetFace.self])

    struct ListPeople: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Every person, most photos first.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var output: JSONOutput

        func run() throws {
            try reportingErrors {
                let people = try People.list(try options.session())
                if output.json { return try output.print(people.map(PersonJSON.init)) }
                if people.isEmpty { return Terminal.message("No people yet: `shoebox analyze` finds the faces in the photos") }
                for p in people {
                    Terminal.out("\(p.id)\t\(p.name ?? "unnamed")\t\(counted(p.photoCount, "photo"))\tface \(p.representative)")
                }
            }
        }
    }

    struct NamePerson: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "name",
            abstract: "Name a person (its id, present name, or one of its faces: <asset id>#n).",
            discussion: "The name goes into Shoebox's sidecars, never into the photos; Albums/People/ follows.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var output: JSONOutput
        @Argument(help: "p3, a present name, or a face <asset id>#n") var person: String
        @Argument(help: "The name") var name: String

        func run() throws {
            var before: People.Person?
            try changePerson(options, output, { session in
                before = try People.person(person, in: session)
                return try People.name(person, as: name, in: session)
            }) { p in
                // Naming reaches every face of the person: say which person, and how many photos.
                let was = before?.name.map { $0 == p.name ? "" : ", was \($0)" } ?? ""
                let whose = FaceKey.parse(person) != nil ? "face \(person) is in \(p.id), \(counted(p.photoCount, "photo")): " : ""
                return "\(whose)\(p.id) (\(counted(p.photoCount, "photo"))\(was)) is now \(p.name ?? name)"
            }
        }
    }

    struct MergePeople: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "merge", abstract: "Merge person B into person A.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var output: JSONOutput
        @Argument(help: "The person kept") var a: String
        @Argument(help: "The person merged into it") var b: String

        func run() throws {
            try changePerson(options, output, { try People.merge(a, b, in: $0) }) { "\($0.id) (\($0.name ?? "unnamed")) now has \(counted($0.photoCount, "photo"))" }
        }
    }

    struct ShowPerson: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show",
            abstract: "A person's faces, largest first, each with its photo.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var output: JSONOutput
        @Argument(help: "p3, a present name, or a face <asset id>#n") var person: String

        func run() throws {
            try reportingErrors {
                let (p, faces) = try People.show(person, in: try options.session())
                if output.json { return try output.print(PersonFacesJSON(p, faces)) }
                Terminal.out("\(p.id)\t\(p.name ?? "unnamed")\t\(counted(p.photoCount, "photo"))\t\(counted(faces.count, "face"))")
                for f in faces { Terminal.out("\(f.key)\t\(f.path)") }
            }
        }
    }

    struct MoveFace: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "move",
            abstract: "Put a face (<asset id>#n) into another person, or `new` for a person of its own.",
            discussion: "How a person that mixes two people is split; the face stays where it is put.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var output: JSONOutput
        @Argument(help: "The face, <asset id>#n") var face: String
        @Argument(help: "p3, a present name, or new") var person: String

        func run() throws {
            try reportingErrors {
                let move = try People.move(face, to: person, in: try options.session())
                if output.json { return try output.print(PersonJSON(move.to)) }
                let p = move.to
                Terminal.out("Face \(move.face) moved \(move.from.map { "from \($0) " } ?? "")to \(p.id) (\(p.name ?? "unnamed"), \(counted(p.photoCount, "photo")))")
            }
        }
    }

    struct ForgetFace: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "forget",
            abstract: "Take a face (<asset id>#n) out of its person for good.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The face, <asset id>#n") var face: String

        func run() throws {
            try reportingErrors {
                let key = try People.forget(face, in: try options.session())
                Terminal.out("Face \(key) forgotten")
            }
        }
    }
}

struct Cache: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cache", abstract: "The thumbnail cache.", subcommands: [Clear.self, Thumbnail.self])

    struct Thumbnail: ParsableCommand {
        static let configuration = CommandConfiguration(
        commandName: "thumbnail",
            abstract: "Print the path of an asset's thumbnail, making it when the cache lacks it.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "An id, a unique id prefix, or a path.") var asset: String
        @Option(help: "256 or 1024 (long side, px).") var size = 256

        func run() throws {
            try reportingErrors {
                let session = try options.session()
                let a = try session.index.resolve(asset)
                Terminal.out(session.library.root.appendingPathComponent(try Thumbnails.path(of: a, size: size, library: session.library)).path)
            }
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Empty .shoebox/thumbs/ (thumbnails are made again on demand).")
        @OptionGroup var options: LibraryOptions

        func run() throws {
            try reportingErrors {
                let (files, bytes) = try options.session().write { w in try ThumbnailStore(library: w.library).clear() }
                Terminal.out("Removed \(files) thumbnail\(files == 1 ? "" : "s") (\(ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)))")
            }
        }
    }
}

/// A `people` command that changes a person: the person as it now is, as JSON or one line.
func changePerson(_ options: LibraryOptions, _ output: JSONOutput, _ change: (LibrarySession) throws -> People.Person,
                  line: (People.Person) -> String) throws {
    try reportingErrors {
        let p = try change(try options.session())
        if output.json { try output.print(PersonJSON(p)) } else { Terminal.out(line(p)) }
    }
}

/// "1 photo", "15 photos".
