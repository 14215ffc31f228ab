import Analysis
import ArgumentParser
import Foundation
import PhotoLibrary

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
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
            let library = try options.open()
            let index = try Index(library: library)
            if let problem = index.readOnlyReason { throw problem }
            let writer = AssetWriter(library: library, index: index)
            // Ctrl-C or SIGTERM: no file is started any more, what is done is stored and said.
            let signals = StopSignals()
            let locked: AnalysisRunner.LockedSection = { body in
                let lock = try Self.writerLock(library, patience: wait ? .infinity : 30, signals: signals)
                try withExtendedLifetime(lock) { try body() }
            }
            try locked { try writer.recoverUnfinishedBatch() }
            var only: PixelAnalyzer.Stages = .all
            if let stages {
                only = []
                for part in stages.split(separator: ",") {
                    switch part {
                    case "thumbnails": only.insert(.thumbnails)
                    case "hash": only.insert(.hash)
                    case "faces": only.insert(.faces)
                    case "score": only.insert(.score)
                    default: throw ValidationError("--stages takes thumbnails, hash, faces, score")
                    }
                }
            }
            let chosen = only
            let runner = AnalysisRunner(writer: writer) { try PixelAnalyzer(stages: chosen) }
            runner.storesResults = stages == nil
            let bar = Terminal.ProgressBar(label: "Analysing")
            let stop: @Sendable () -> Bool = { signals.isStopping }
            let progress = { (p: AnalysisRunner.Progress) in bar.update(done: p.done, total: p.total, bytes: nil) }
            var report = try runner.run(withWriterLock: locked, shouldStop: stop, progress: progress)
            var stuck = StuckFiles()
            while wait, !signals.isStopping, try stuck.worthWaiting(pending: runner.pending(), after: report) {
                usleep(200_000)
                report.add(try runner.run(withWriterLock: locked, shouldStop: stop, progress: progress))
            }
            bar.finish()
            if output.json { try output.print(AnalyzeReportJSON(report)) }
            for p in report.problems + report.notAnalysed { Terminal.problem(p) }
            if !output.json {
                Terminal.message("\(report.analysed) analysed, \(report.faces) face\(report.faces == 1 ? "" : "s") found"
                    + (report.damaged > 0 ? ", \(report.damaged) damaged" : "") + (report.left > 0 ? ", \(report.left) left for later" : ""))
            }
            if let status = signals.interruptedStatus { throw ExitCode(status) }
        }
    }

    /// The writer lock, waited for up to `patience` seconds (another process writes) but no
    /// longer once a signal asked to stop: the command then ends as interrupted. A free lock is
    /// taken after the signal too — it stores what is done.
    static func writerLock(_ library: Library, patience: Double, signals: StopSignals) throws -> LibraryLock {
        let deadline = patience.isFinite ? Date().addingTimeInterval(patience) : .distantFuture
        while true {
            do {
                return try LibraryLock(library: library, timeout: 1)
            } catch let e as ShoeboxError where e.code == .locked && Date() < deadline {
                if let status = signals.interruptedStatus { throw ExitCode(status) }
            }
        }
    }
}

/// When `analyze --wait` stops waiting: once nothing is pending, or when all that is pending are
/// files the last run could not analyse (unreadable, or changed since the last scan) and no
/// watcher has made them analysable within `patience` (a watcher indexes a changed file within
/// a few seconds; an unreadable one waits for the user).
struct StuckFiles {
    var patience: TimeInterval = 5
    private var since: Date?

    mutating func worthWaiting(pending: [Asset], after report: AnalysisRunner.Report) -> Bool {
        guard !pending.isEmpty else { return false }
        let skipped = Set(report.notAnalysed.map(\.path))
        guard pending.allSatisfy({ skipped.contains($0.path) }) else {
            since = nil
            return true
        }
        let start = since ?? Date()
        since = start
        return Date().timeIntervalSince(start) < patience
    }
}

struct PeopleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "people",
        abstract: "The people the analysis found: list, name, merge, forget.",
        subcommands: [ListPeople.self, NamePerson.self, MergePeople.self, ForgetFace.self])

    struct ListPeople: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Every person, most photos first.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var output: JSONOutput

        func run() throws {
            try reportingErrors {
                let index = try Index(library: try options.open())
                let people = try People.list(index: index)
                if output.json { return try output.print(people.map(PersonJSON.init)) }
                if people.isEmpty { return Terminal.message("No people yet: `shoebox analyze` finds the faces in the photos") }
                for p in people {
                    Terminal.out("\(p.id)\t\(p.name ?? "unnamed")\t\(p.photoCount) photo\(p.photoCount == 1 ? "" : "s")\tface \(p.representative)")
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
            try changePerson(options, output, { try $0.name(person, as: name) }) { "\($0.id) is now \($0.name ?? name) (\($0.photoCount) photos)" }
        }
    }

    struct MergePeople: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "merge", abstract: "Merge person B into person A.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var output: JSONOutput
        @Argument(help: "The person kept") var a: String
        @Argument(help: "The person merged into it") var b: String

        func run() throws {
            try changePerson(options, output, { try $0.merge(a, b) }) { "\($0.id) (\($0.name ?? "unnamed")) now has \($0.photoCount) photos" }
        }
    }

    struct ForgetFace: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "forget",
            abstract: "Take a face (<asset id>#n) out of its person for good.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The face, <asset id>#n") var face: String

        func run() throws {
            try reportingErrors {
                try withWriter(options) { writer in
                    let key = try People(writer: writer).forget(face)
                    Terminal.out("Face \(key) forgotten")
                }
            }
        }
    }
}

struct Cache: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The thumbnail cache.", subcommands: [Clear.self, Thumbnail.self])

    struct Thumbnail: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the path of an asset's thumbnail, making it when the cache lacks it.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "An id, a unique id prefix, or a path.") var asset: String
        @Option(help: "256 or 1024 (long side, px).") var size = 256

        func run() throws {
            try reportingErrors {
                let library = try options.open()
                let a = try Index(library: library).resolve(asset)
                Terminal.out(library.root.appendingPathComponent(try Thumbnails.path(of: a, size: size, library: library)).path)
            }
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Empty .shoebox/thumbs/ (thumbnails are made again on demand).")
        @OptionGroup var options: LibraryOptions

        func run() throws {
            try reportingErrors {
                let library = try options.open()
                let lock = try LibraryLock(library: library)
                let (files, bytes) = try withExtendedLifetime(lock) { try ThumbnailStore(library: library).clear() }
                Terminal.out("Removed \(files) thumbnail\(files == 1 ? "" : "s") (\(ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)))")
            }
        }
    }
}

/// A `people` command that changes a person: the person as it now is, as JSON or one line.
func changePerson(_ options: LibraryOptions, _ output: JSONOutput, _ change: (People) throws -> People.Person,
                  line: (People.Person) -> String) throws {
    try reportingErrors {
        try withWriter(options) { writer in
            let p = try change(People(writer: writer))
            if output.json { try output.print(PersonJSON(p)) } else { Terminal.out(line(p)) }
        }
    }
}

/// Runs `body` with the library's writer, holding the writer lock.
func withWriter(_ options: LibraryOptions, _ body: (AssetWriter) throws -> Void) throws {
    let library = try options.open()
    let lock = try LibraryLock(library: library)
    try withExtendedLifetime(lock) {
        let writer = AssetWriter(library: library, index: try Index(library: library))
        try writer.recoverUnfinishedBatch()
        try body(writer)
    }
}
