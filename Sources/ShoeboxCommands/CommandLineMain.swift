import ArgumentParser
import Foundation
import MetadataCore
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// What the two executables share: the root command's words, and the one way a command line is
/// parsed, run and its errors turned into exit statuses. `shoebox` (the commands that touch no
/// pixels) and `shoebox-pixels` (every command, with the pixel stack) both run `CommandLineMain.run`.
package enum CommandLineMain {
    package static let commandName = "shoebox"
    package static let abstract = "A photo library manager whose library is a plain folder."
    package static let discussion = """
        The library is --library PATH, else $SHOEBOX_LIBRARY, else the outermost enclosing folder \
        whose .shoebox/ holds an index or sidecars. $SHOEBOX_NOW (ISO 8601) replaces the clock, for tests.
        """
    package static let version = "0.1.0"

    /// The root command's configuration in every binary, with that binary's commands.
    package static func configuration(subcommands: [any ParsableCommand.Type]) -> CommandConfiguration {
        CommandConfiguration(commandName: commandName, abstract: abstract, discussion: discussion, version: version,
                             subcommands: subcommands)
    }

    /// Parses `arguments` (the process's, less the program name) with `Root` and runs the command;
    /// a command that needs a file's headers read in a program without the readers (`NeedsMetadataReaders`)
    /// is given, before it changed anything, to `handOff` with the same arguments. Never returns.
    package static func run<Root: ParsableCommand>(_ root: Root.Type, _ original: [String],
                                                   handOff: (([String]) -> Never)? = nil) -> Never {
        let arguments = movingGlobalOptions(original)
        // A clock override that does not parse was silently ignored (the real clock ran): a
        // test or script believing it is 2099 would then purge by today's date.
        if let now = ProcessInfo.processInfo.environment["SHOEBOX_NOW"], ShoeboxClock.parseISO8601(now) == nil {
            Terminal.error("$SHOEBOX_NOW is \(String(reflecting: now)), not an ISO 8601 date (e.g. 2026-11-22T10:15:03Z or 2026-11-22); unset it to use the clock")
            Foundation.exit(2)
        }
        do {
            var command = try Root.parseAsRoot(arguments)
            try command.run()
            Foundation.exit(0)
        } catch is NeedsMetadataReaders {
            guard let handOff else { preconditionFailure("NeedsMetadataReaders in a program with the metadata readers") }
            handOff(original)
        } catch {
            // SPEC: bad usage exits 2 (ArgumentParser's own convention is EX_USAGE, 64).
            if Root.exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((Root.fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            Root.exit(withError: error)
        }
    }

    /// `shoebox --library PATH COMMAND …` is the documented spelling; ArgumentParser wants a
    /// command's options after its name, so global options given first are moved there.
    package static func movingGlobalOptions(_ args: [String]) -> [String] {
        let (globals, words, rest) = split(args)
        guard !globals.isEmpty, !words.isEmpty else { return args }
        return words + globals + rest
    }

    /// The command's words (`["tidy", "next"]`, `["tracker", "mini", "add"]`), global options skipped.
    package static func commandWords(_ args: [String]) -> [String] { split(args).words }

    private static func split(_ args: [String]) -> (globals: [String], words: [String], rest: ArraySlice<String>) {
        var globals: [String] = []
        var words: [String] = []
        var rest = args[...]
        while let first = rest.first {
            if first == "--library", rest.count >= 2 {
                globals += rest.prefix(2)
                rest = rest.dropFirst(2)
            } else if first.hasPrefix("--library=") {
                globals.append(first)
                rest = rest.dropFirst()
            } else if words.isEmpty, !first.hasPrefix("-") {
                words.append(first)
                rest = rest.dropFirst()
            } else if let group = Self.nestedCommands[words.joined(separator: " ")], group.contains(first) {
                // Nested commands (`trash list`, `album create`, `tracker mini add`) keep their words together.
                words.append(first)
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        return (globals, words, rest)
    }

    /// Commands whose next word may be a subcommand name, with those names.
    package static let nestedCommands: [String: Set<String>] = [
        "trash": ["put", "list", "purge"],
        "album": ["list", "show", "create", "add", "remove", "order", "delete"],
        "people": ["list", "show", "name", "merge", "move", "forget"],
        "cache": ["clear", "thumbnail"],
        "curate": ["add", "list", "select", "deselect", "top", "remove", "share", "album", "clear"],
        "tidy": ["status", "next", "keep", "delete", "maybe", "undo", "filter", "similar", "trash", "unmark", "empty", "maybes", "list"],
        "tracker": ["project", "mini", "recipe", "photo", "export"],
        "tracker project": ["add", "list", "show", "update", "rm"],
        "tracker mini": ["add", "list", "show", "update", "rm"],
        "tracker recipe": ["add", "list", "show", "update", "rm", "link", "unlink"],
        "tracker photo": ["add", "list", "rm"],
        "memories": ["sources", "collage"],
        "compose": ["add", "list", "move", "replace", "remove", "clear", "export"],
    ]
}

/// `--library`, accepted by every command that works on a library (`--json` is `JSONOutput`).
package struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The library folder.", valueName: "path"))
    package var library: String?

    package init() {}

    package func open() throws -> Library {
        try Library.locate(explicit: library)
    }
}

/// Thrown, before anything is changed, by a command that must read a file's headers (scan, rebuild,
/// doctor, a tracker photo, restoring a file put in Recently Deleted by hand) where this program
/// has no metadata reader: `CommandLineMain.run` then runs the command line in `shoebox-readers`
/// (`HandOff.execReaders`; `shoebox-pixels` where the readers binary is not installed).
package struct NeedsMetadataReaders: Error {
    /// Throws unless this program can read files' headers (`MetadataReaders`).
    package static func unlessReaderAvailable() throws {
        if !MetadataReaders.isAvailable { throw NeedsMetadataReaders() }
    }
}

/// Runs a command body, turning errors into one line on stderr and exit 1.
package func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let e as NeedsMetadataReaders {
        throw e
    } catch let e as ShoeboxError {
        Terminal.error(CommandHint.line(e))
        throw ExitCode(1)
    } catch let e as ExitCode {
        throw e
    } catch let e as ValidationError {
        throw e
    } catch {
        Terminal.error(String(describing: error))
        throw ExitCode(1)
    }
}
