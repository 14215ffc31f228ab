import ArgumentParser
import Metadata
import ShoeboxCommands

/// Every command of the command line, with the pixel stack (OpenCV, dlib, Tesseract, FFmpeg, the
/// image codecs) linked: `shoebox` hands over to this binary the commands that decode, analyse
/// or serve (see `HandOff` and docs/ARCHITECTURE.md, "Three executables"). Run directly, it
/// is the whole command line.
@main
struct ShoeboxPixels: ParsableCommand {
    static let configuration = CommandLineMain.configuration(subcommands: [
        Init.self, Scan.self, Watch.self, List.self, Show.self, Trash.self, Restore.self, Album.self,
        Rebuild.self, Doctor.self, Analyze.self, PeopleCommand.self, Cache.self, CurateWithPixels.self,
        TidyCommand.self, TrackerCommand.self, MemoriesCommand.self, Compose.self, Serve.self,
    ])

    static func main() {
        MetadataReaders.install(CodecMetadataReader())
        CommandLineMain.run(Self.self, Array(CommandLine.arguments.dropFirst()))
    }
}
