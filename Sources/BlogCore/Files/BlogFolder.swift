import Foundation

/// The blog folder a command was given (`--source`, `blog init DIR`), and how messages name it.
package struct BlogFolder: Sendable {
    /// The folder, absolute.
    package var url: URL
    /// How messages name it: `""` for the working folder, else the path as given with a `/` (`site/`).
    package var display: String

    /// The folder `source`, as the user named it (relative to the working folder).
    package init(_ source: String) {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        url = URL(fileURLWithPath: source, relativeTo: cwd).standardizedFileURL
        let trimmed = source.hasSuffix("/") ? String(source.dropLast()) : source
        display = (trimmed == "." || trimmed.isEmpty) ? "" : trimmed + "/"
    }

    /// The folder `url`, named `display` in messages (`""` or `path/`).
    package init(url: URL, display: String) {
        self.url = url
        self.display = display
    }

    /// The folder a setting of blog.yml names (`content`, `output`, `cache_dir`): relative to this
    /// folder unless absolute; and how messages name it (`site/content`, or the absolute path).
    package func resolve(_ setting: String) -> (url: URL, display: String) {
        (URL(fileURLWithPath: setting, relativeTo: url).standardizedFileURL,
         setting.hasPrefix("/") ? setting : display + setting)
    }
}
