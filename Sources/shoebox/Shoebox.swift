import ArgumentParser
import ShoeboxCommands

/// The command line people type. It links no image library: it runs the commands that read and
/// change the library without reading a photo (`list`, `show`, `trash`, `album`, `tidy`,
/// `tracker`, `curate` but `add`…), hands those that read files' headers (`scan`, `rebuild`,
/// `doctor`…) to `shoebox-readers` and every other command line, unchanged, to `shoebox-pixels`
/// (see `HandOff`). Loading OpenCV, dlib, Tesseract and FFmpeg (~150 shared libraries) took
/// ~90 ms before `main`, in every command.
@main
struct Shoebox: ParsableCommand {
    static let configuration = CommandLineMain.configuration(subcommands: LightCommands.subcommands)

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if HandOff.alwaysReadsHeaders(arguments) { HandOff.execReaders(arguments) }
        if HandOff.runsHere(arguments, root: Self.self, partialGroups: [Curate.self]) {
            // Scan, rebuild, doctor, a tracker photo and a hand-made restore read files' headers:
            // they throw `NeedsMetadataReaders` before changing anything, and go over then.
            CommandLineMain.run(Self.self, arguments, handOff: HandOff.execReaders)
        }
        HandOff.execPixels(arguments)
    }
}
