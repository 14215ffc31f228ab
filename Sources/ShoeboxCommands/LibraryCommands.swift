import ArgumentParser
import Foundation
import PhotoLibrary

package struct Init: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Make a folder a Shoebox library (creates .shoebox/ inside it).")

    @Argument(help: "The folder (default: --library, else the current one).")
    var path: String?

    @Option(name: .long, help: ArgumentHelp("The same as PATH, for `shoebox --library PATH init`.", valueName: "path"))
    var library: String?

    @OptionGroup var output: JSONOutput

    package func run() throws {
        try reportingErrors {
            let url = URL(fileURLWithPath: path ?? library ?? ".", relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            let library = try Library.initialize(at: url)
            if output.json {
                try output.print(LibraryJSON(library))
            } else {
                Terminal.out("Initialised a Shoebox library in \(library.root.path)")
                Terminal.message("Next: shoebox --library \(library.root.path) scan")
            }
        }
    }

    package init() {}
}

package struct Scan: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Bring the index up to date with the folder.",
        discussion: """
            Unchanged files are skipped without being read; new and changed ones are hashed and \
            their metadata read. Moved files keep their ids; vanished ones become missing and come \
            back with their ids if their content reappears.
            """)

    @OptionGroup var options: LibraryOptions

    @OptionGroup var output: JSONOutput

    @Flag(name: .shortAndLong, help: "Also list skipped entries (links, FIFOs, …).")
    var verbose = false

    @Flag(help: "Mark files missing even when most of the library vanished at once.")
    var allowMassRemoval = false

    package func run() throws {
        try NeedsMetadataReaders.unlessReaderAvailable()
        try reportingErrors {
            let session = try options.session()
            var scanOptions = Scanner.Options(settings: try session.settings)
            scanOptions.allowMassRemoval = allowMassRemoval
            let bar = Terminal.ProgressBar(label: "Scanning")
            let report = try session.scan(options: scanOptions) { bar.update(done: $0.done, total: $0.total, bytes: $0.bytes) }
            bar.finish()
            try ScanOutput.print(report, output: output, verbose: verbose)
        }
    }

    package init() {}
}

enum ScanOutput {
    /// The report as JSON (`--json`; nil: never) or as one line, and its problems on stderr either way.
    static func print(_ r: ScanReport, output: JSONOutput?, verbose: Bool) throws {
        let json = output?.json ?? false
        if let output, json {
            try output.print(ScanReportJSON(r))
        }
        for p in r.failed { Terminal.problem(p) }
        for p in r.warnings { Terminal.problem(p, label: "warning: ") }
        if let off = r.albumsOff { Terminal.message(off) }
        if r.removedFromAlbums > 0 {
            Terminal.message("\(r.removedFromAlbums) photo\(r.removedFromAlbums == 1 ? "" : "s") taken out of user albums: their links were deleted by hand")
        }
        if verbose { for p in r.skipped { Terminal.problem(p, label: "skipped: ") } }
        if verbose { for p in r.neverIndexed { Terminal.problem(p, label: "not indexed: ") } }
        guard !json else { return }
        var parts = ["\(r.added) added", "\(r.updated) updated", "\(r.moved) moved"]
        if r.returned > 0 { parts.append("\(r.returned) returned") }
        parts += ["\(r.removed) removed", "\(r.unchanged) unchanged", "\(r.failed.count) failed"]
        var line = "Scan: " + parts.joined(separator: ", ")
        if r.duplicates > 0 { line += "; \(r.duplicates) duplicate\(r.duplicates == 1 ? "" : "s") of other files" }
        // Everything left alone is counted by kind, so a folder of GIFs or TIFFs under another
        // name is never "0 failed" and nothing else (issue 32).
        let leftAlone = r.skipped + r.notIndexed
        if !leftAlone.isEmpty {
            line += "; \(leftAlone.count) skipped: \(FileProblem.kindsText(leftAlone))" + (verbose ? "" : " (--verbose lists them)")
        }
        line += String(format: " (%.2f s, %@ read)", r.seconds, formatBytes(r.bytesRead))
        Terminal.out(line)
    }
}

package struct Rebuild: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Recreate the index from the sidecars and the files (same ids).")

    @OptionGroup var options: LibraryOptions

    @OptionGroup var output: JSONOutput

    package func run() throws {
        try NeedsMetadataReaders.unlessReaderAvailable()
        try reportingErrors {
            let bar = Terminal.ProgressBar(label: "Rebuilding")
            let report = try LibrarySession.rebuild(try options.open()) { bar.update(done: $0.done, total: $0.total, bytes: $0.bytes) }
            bar.finish()
            for p in report.badSidecars { Terminal.problem(p) }
            if output.json {
                try output.print(RebuildReportJSON(report))
            } else {
                let fromIndex = report.sidecarsFromIndex
                Terminal.out("Rebuilt the index from \(counted(report.sidecars, "sidecar"))"
                             + (fromIndex > 0 ? " (\(fromIndex) of them written again from the old index: missing or not valid)." : "."))
                try ScanOutput.print(report.scan, output: nil, verbose: false)
            }
        }
    }

    package init() {}
}

package struct Doctor: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the library: index against disk, sidecars, permissions, inotify limits, disk space.")

    @OptionGroup var options: LibraryOptions

    @OptionGroup var output: JSONOutput

    package func run() throws {
        // It reads the headers of files the index lacks (to tell unreadable ones from unscanned).
        try NeedsMetadataReaders.unlessReaderAvailable()
        try reportingErrors {
            let report = try LibrarySession.doctor(try options.open(), features: Features.all).wordedForCommandLine()
            if output.json {
                try output.print(DoctorReportJSON(report))
            } else {
                for c in report.checks {
                    let mark = c.status == .ok ? "ok" : (c.status == .warning ? "warning" : "PROBLEM")
                    // A remedy the fix line does not say already (a damaged index's) ends the detail.
                    let worded: String? = (c.remedy as? any CommandWorded)?.commandHint
                    let hint = worded.map { $0 == c.fix ? "" : "; " + $0 } ?? ""
                    Terminal.out("\(mark.padding(toLength: 8, withPad: " ", startingAt: 0)) \(c.name): \(c.detail)\(hint)")
                    if let fix = c.fix, c.status != .ok { Terminal.out("         fix: \(fix)") }
                }
            }
            if !report.healthy { throw ExitCode(1) }
        }
    }

    package init() {}
}
