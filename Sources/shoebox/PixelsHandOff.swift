import ArgumentParser
import Foundation
import ShoeboxCommands
#if canImport(Glibc)
import Glibc
#endif

/// Which binary runs a command line, and the hand-over to `shoebox-pixels`.
///
/// A helper process rather than a library opened with `dlopen`: the pixel code is Swift spread
/// over five modules (Imaging, Faces, Scoring, Analysis, the web server) that call their C
/// libraries directly; behind a C function table every call would change, while `execv` keeps
/// one process (the same pid, stdin/stdout/stderr, signals and exit status, nothing to relay),
/// and costs one more program start only where the pixel stack's load dwarfs it.
enum PixelsHandOff {
    /// True when `shoebox`'s own command tree has every word of the command line (`tidy next`,
    /// `tracker mini add`): those commands are the same code in both binaries. The root's help,
    /// an unknown word and a group whose `shoebox` form lacks subcommands (`curate` without a
    /// subcommand, `curate add`) go to `shoebox-pixels`, which knows every command.
    static func runsHere(_ arguments: [String], root: any ParsableCommand.Type,
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

    /// `shoebox-pixels` beside this binary (symlinks resolved), else `$SHOEBOX_PIXELS`.
    static var pixelsPath: String {
        if let path = ProcessInfo.processInfo.environment["SHOEBOX_PIXELS"], !path.isEmpty { return path }
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (me as NSString).deletingLastPathComponent + "/shoebox-pixels"
    }

    /// Replaces this process with `shoebox-pixels ARGUMENTS…`; if it cannot, says which file is
    /// missing or refused and exits 1.
    static func execPixels(_ arguments: [String]) -> Never {
        let path = pixelsPath
        let argv: [UnsafeMutablePointer<CChar>?] = ([CommandLine.arguments[0]] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        let words = CommandLineMain.commandWords(arguments).joined(separator: " ")
        Terminal.error("\(path): \(reason): `shoebox \(words.isEmpty ? "--help" : words)` runs in shoebox-pixels, "
                       + "which belongs beside shoebox (install both, or set $SHOEBOX_PIXELS to it)")
        exit(1)
    }
}
