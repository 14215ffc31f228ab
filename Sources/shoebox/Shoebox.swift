import ArgumentParser
import Foundation
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

@main
struct Shoebox: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shoebox",
        abstract: "A photo library manager whose library is a plain folder.",
        discussion: """
            The library is --library PATH, else $SHOEBOX_LIBRARY, else the outermost enclosing folder \
            whose .shoebox/ holds an index or sidecars. $SHOEBOX_NOW (ISO 8601) replaces the clock, for tests.
            """,
        version: "0.1.0",
        subcommands: [Init.self, Scan.self, Watch.self, List.self, Show.self, Trash.self, Restore.self, Album.self,
                      Rebuild.self, Doctor.self, Analyze.self, PeopleCommand.self, Cache.self, Curate.self,
                      TidyCommand.self, TrackerCommand.self, MemoriesCommand.self, Compose.self, Serve.self]
    )

    /// `shoebox --library PATH COMMAND …` is the documented spelling; ArgumentParser wants a
    /// command's options after its name, so global options given first are moved there.
    static func main() {
        let arguments = Self.movingGlobalOptions(Array(CommandLine.arguments.dropFirst()))
        // A clock override that does not parse was silently ignored (the real clock ran): a
        // test or script believing it is 2099 would then purge by today's date.
        if let now = ProcessInfo.processInfo.environment["SHOEBOX_NOW"], ShoeboxClock.parseISO8601(now) == nil {
            Terminal.error("$SHOEBOX_NOW is \(String(reflecting: now)), not an ISO 8601 date (e.g. 2026-11-22T10:15:03Z or 2026-11-22); unset it to use the clock")
            Foundation.exit(2)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            // SPEC: bad usage exits 2 (ArgumentParser's own convention is EX_USAGE, 64).
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }

    static func movingGlobalOptions(_ args: [String]) -> [String] {
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
        guard !globals.isEmpty, !words.isEmpty else { return args }
        return words + globals + rest
    }

    /// Commands whose next word may be a subcommand name, with those names.
    static let nestedCommands: [String: Set<String>] = [
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
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The library folder.", valueName: "path"))
    var library: String?

    func open() throws -> Library {
        try Library.locate(explicit: library)
    }
}

/// Runs a command body, turning errors into one line on stderr and exit 1.
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
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
