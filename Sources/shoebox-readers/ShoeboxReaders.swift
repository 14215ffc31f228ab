import ArgumentParser
import Metadata
import ShoeboxCommands

/// `shoebox`'s commands with Metadata's readers (the image codecs: libheif, libtiff, LibRaw,
/// libjpeg-turbo, libpng, libexif, libiptcdata, libxml2) and nothing of the pixel stack:
/// `shoebox` hands it the commands that read files' headers — `scan`, `rebuild`, `doctor`,
/// `tracker photo add`, a hand-made `restore` — which ran in `shoebox-pixels` and paid its
/// ~90 ms start and OpenBLAS's spinning threads in every scan (issue 33; docs/ARCHITECTURE.md,
/// "Three executables"). Any other command line goes on to `shoebox-pixels`.
@main
struct ShoeboxReaders: ParsableCommand {
    static let configuration = CommandLineMain.configuration(subcommands: LightCommands.subcommands)

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if HandOff.runsHere(arguments, root: Self.self, partialGroups: [Curate.self]) {
            MetadataReaders.install(CodecMetadataReader())
            CommandLineMain.run(Self.self, arguments)
        }
        HandOff.execPixels(arguments)
    }
}
