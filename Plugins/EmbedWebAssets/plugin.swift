import Foundation
import PackagePlugin

/// Embeds the files under a target's `Web/` folder into its code at build time (one generated
/// Swift file), so the installed `shoebox` binary serves its pages with no folder beside it.
/// Every file is an input: editing, adding or removing one regenerates the source.
@main
struct EmbedWebAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let web = module.directoryURL.appendingPathComponent("Web")
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedWebFiles.swift")
        return [.buildCommand(
            displayName: "Embedding \(target.name)'s web files",
            executable: try context.tool(named: "embed-web-assets").url,
            arguments: [web.path, output.path],
            inputFiles: Self.files(under: web),
            outputFiles: [output])]
    }

    /// Regular files below `folder`, hidden ones left out (an editor's swap file is no asset).
    static func files(under folder: URL) -> [URL] {
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey],
                                                        options: [.skipsHiddenFiles]) else { return [] }
        return walk.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }
}
