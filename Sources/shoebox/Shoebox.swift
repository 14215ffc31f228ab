import ArgumentParser
import ShoeboxCommands

/// The command line people type. It links no pixel library: it runs the commands that read and
/// change the library without decoding a photo (`list`, `show`, `scan`, `trash`, `album`, `tidy`,
/// `tracker`, `curate` but `add`…), and hands every other command line, unchanged, to
/// `shoebox-pixels` beside it, which has every command and the pixel stack. Loading OpenCV, dlib,
/// Tesseract and FFmpeg (~150 shared libraries) took ~90 ms before `main`, in every command.
@main
struct Shoebox: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CommandLineMain.commandName,
        abstract: CommandLineMain.abstract,
        discussion: CommandLineMain.discussion,
        version: CommandLineMain.version,
        subcommands: [Init.self, Scan.self, List.self, Show.self, Trash.self, Restore.self, Album.self,
                      Rebuild.self, Doctor.self, Curate.self, TidyCommand.self, TrackerCommand.self]
    )

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if PixelsHandOff.runsHere(arguments, root: Self.self, partialGroups: [Curate.self]) {
            // Scan, rebuild, doctor, a tracker photo and a hand-made restore read files' headers:
            // they throw `RunsInPixels` before changing anything, and go over then.
            CommandLineMain.run(Self.self, arguments, handOff: PixelsHandOff.execPixels)
        }
        PixelsHandOff.execPixels(arguments)
    }
}
