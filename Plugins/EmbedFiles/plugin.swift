import Foundation
import PackagePlugin

/// Embeds a target's data folder into its code at build time (one generated Swift file,
/// `EmbeddedFiles`), so the installed `shoebox` binary is one file: no resource folder beside it
/// (SwiftPM's `resources:` are a bundle looked up beside the binary or in the build folder).
/// Every file is an input: editing, adding or removing one regenerates the source.
@main
struct EmbedFiles: BuildToolPlugin {
    /// The folder embedded, by target (the target excludes it from its sources).
    static let folders = ["WebServer": "Web", "Places": "Resources"]
    /// Targets whose files are all text, embedded as it is (`embed-files --text`): nothing to
    /// decode when they are read.
    static let asText: Set<String> = ["Places"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget, let name = Self.folders[target.name] else { return [] }
        let web = module.directoryURL.appendingPathComponent(name)
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedFiles.swift")
        return [.buildCommand(
            displayName: "Embedding \(target.name)'s \(name)/",
            executable: try context.tool(named: "embed-files").url,
            arguments: (Self.asText.contains(target.name) ? ["--text"] : []) + [web.path, output.path],
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
