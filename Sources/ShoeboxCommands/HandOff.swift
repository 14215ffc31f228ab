import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which of the three binaries runs a command line, and the hand-over between them.
///
/// - `shoebox` links no image library: the everyday commands start in milliseconds.
/// - `shoebox-readers` adds Metadata's readers (the image codecs, ~30 libraries): the commands
///   that read files' headers (`scan`, `rebuild`, `doctor`, `tracker photo add`, a hand-made
///   `restore`) run there, without the pixel stack's ~90 ms start and OpenBLAS's spinning threads.
/// - `shoebox-pixels` has every command and the pixel stack (OpenCV, dlib, Tesseract, FFmpeg).
///
/// Helper processes rather than libraries opened with `dlopen`: the pixel code is Swift spread
/// over five modules (Imaging, Faces, Scoring, Analysis, the web server) that call their C
/// libraries directly; behind a C function table every call would change, while `execv` keeps
/// one process (the same pid, stdin/stdout/stderr, signals and exit status, nothing to relay),
/// and costs one more program start only where what is loaded dwarfs it.
package enum HandOff {
    /// A binary beside `shoebox` that a command line can be handed to.
    package enum Program: String {
        case readers = "shoebox-readers"
        case pixels = "shoebox-pixels"

        /// The environment variable that names it elsewhere.
        var variable: String { self == .readers ? "SHOEBOX_READERS" : "SHOEBOX_PIXELS" }

        /// `$SHOEBOX_READERS` / `$SHOEBOX_PIXELS`, else the binary beside this one (symlinks resolved).
        var path: String {
            if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty { return path }
            let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
            return (me as NSString).deletingLastPathComponent + "/" + rawValue
        }
    }

    /// True when `root`'s command tree has every word of the command line (`tidy next`,
    /// `tracker mini add`): those commands are the same code in every binary. The root's help, an
    /// unknown word and a group whose light form lacks subcommands (`curate` without a
    /// subcommand, `curate add`) go to `shoebox-pixels`, which knows every command.
    package static func runsHere(_ arguments: [String], root: any ParsableCommand.Type,
                                 partialGroups: [any ParsableCommand.Type]) -> Bool {
        let words = CommandLineMain.commandWords(arguments)
        if words.isEmpty { return arguments == ["--version"] }
        var node = root
        for word in words {
            guard let next = node.configuration.subcommands.first(where: { $0._commandName == word }) else { return false }
            node = next
        }
        return !partialGroups.contains { ObjectIdentifier($0) == ObjectIdentifier(node) }
    }

    /// True for a command line whose command reads files' headers on every run (`scan`,
    /// `rebuild`, `doctor`): `shoebox` hands it over before parsing it. The readers parse the same
    /// line with the same commands (help, usage errors and exit statuses are theirs either way);
    /// parsing it here first, only to learn it must go, was ~4 ms of every scan's start.
    package static func alwaysReadsHeaders(_ arguments: [String]) -> Bool {
        guard let word = CommandLineMain.commandWords(arguments).first else { return false }
        return alwaysReadingHeaders.contains(word)
    }

    private static let alwaysReadingHeaders: Set<String> = [
        Scan.configuration.commandName, Rebuild.configuration.commandName, Doctor.configuration.commandName,
    ].reduce(into: []) { names, name in if let name { names.insert(name) } }

    /// Replaces this process with `shoebox-readers ARGUMENTS…` (a command that reads files'
    /// headers, `NeedsMetadataReaders`). Where that binary is not installed (a `shoebox` and
    /// `shoebox-pixels` installed before it existed), `shoebox-pixels`, which has the readers too;
    /// where neither runs, one line naming the readers' file, exit 1.
    package static func execReaders(_ arguments: [String]) -> Never {
        let readers = Program.readers.path
        let failure = exec(readers, arguments)
        if failure == ENOENT, ProcessInfo.processInfo.environment[Program.readers.variable] == nil {
            let pixels = Program.pixels.path
            let pixelsFailure = exec(pixels, arguments)
            if pixelsFailure != ENOENT { refuse(pixels, .pixels, arguments, errno: pixelsFailure) }
        }
        refuse(readers, .readers, arguments, errno: failure)
    }

    /// Replaces this process with `shoebox-pixels ARGUMENTS…`; if it cannot, says which file is
    /// missing or refused and exits 1.
    package static func execPixels(_ arguments: [String]) -> Never {
        let path = Program.pixels.path
        refuse(path, .pixels, arguments, errno: exec(path, arguments))
    }

    /// `execv`s `path`; returns only on failure, with its errno.
    private static func exec(_ path: String, _ arguments: [String]) -> Int32 {
        let argv: [UnsafeMutablePointer<CChar>?] = ([CommandLine.arguments[0]] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let e = errno
        for p in argv { free(p) }
        return e
    }

    private static func refuse(_ path: String, _ program: Program, _ arguments: [String], errno e: Int32) -> Never {
        let reason = String(cString: strerror(e))
        let words = CommandLineMain.commandWords(arguments).joined(separator: " ")
        Terminal.error("\(path): \(reason): `shoebox \(words.isEmpty ? "--help" : words)` runs in \(program.rawValue), "
                       + "which belongs beside shoebox (install the three, or set $\(program.variable) to it)")
        exit(1)
    }
}

/// The commands every binary has (the root command's subcommands of `shoebox` and
/// `shoebox-readers`; `shoebox-pixels` adds its own).
package enum LightCommands {
    package static let subcommands: [any ParsableCommand.Type] = [
        Init.self, Scan.self, List.self, Show.self, Trash.self, Restore.self, Album.self,
        Rebuild.self, Doctor.self, Curate.self, TidyCommand.self, TrackerCommand.self,
    ]
}
