import Foundation
import PackagePlugin

/// Generates `DefaultTheme.swift` from the files under `themes/default/`, so the `blog` binary
/// carries its default theme and a blog folder without a `themes/` folder builds as it is.
@main
struct EmbedTheme: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let themeDir = context.package.directoryURL.appending(path: "themes/default")
        let output = context.pluginWorkDirectoryURL.appending(path: "DefaultTheme.swift")
        var inputs: [URL] = []
        if let walker = FileManager.default.enumerator(at: themeDir, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in walker {
                if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                    inputs.append(url)
                }
            }
        }
        inputs.sort { $0.path < $1.path }
        return [
            .buildCommand(
                displayName: "Embedding the default theme",
                executable: try context.tool(named: "embed-theme").url,
                arguments: [themeDir.path, output.path],
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
