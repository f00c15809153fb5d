import BlogConfig
import BlogCore
import Foundation

/// Where a build reads and writes: blog.yml with the command line's overrides, and the folders it names.
extension Pipeline {
    /// The content folder, and how messages name it (`content`, `site/_posts`).
    static func contentFolder(_ options: BuildOptions, config: SiteConfig) -> (url: URL, display: String) {
        options.folder.resolve(config.content)
    }

    /// Refuses a folder that holds neither `blog.yml` nor `content/`, before anything is read or written (no
    /// lock, no `.blog-cache/`, no output folder): run in the wrong folder, `build`, `list`, `check` and `serve`
    /// say so and how to start a blog or name the blog's folder, instead of a missing content folder.
    /// - Throws: ``BuildFailure`` with one error about no file.
    public static func requireBlogFolder(source: String) throws {
        try requireBlogFolder(BlogFolder(source))
    }

    static func requireBlogFolder(_ folder: BlogFolder) throws {
        let manager = FileManager.default
        let config = folder.url.appendingPathComponent("blog.yml").path
        let content = folder.url.appendingPathComponent("content").path
        guard !manager.fileExists(atPath: config), !manager.fileExists(atPath: content) else { return }
        let named = folder.display.isEmpty ? "this folder (\(folder.url.path))" : String(folder.display.dropLast())
        let initHere = folder.display.isEmpty ? "blog init" : "blog init \(folder.display.dropLast())"
        throw BuildFailure([.error("\(named) is not a blog folder: it has no blog.yml and no content/; "
                                   + "start a blog with `\(initHere)`, or name the blog's folder with --source DIR")])
    }

    /// blog.yml with the command line's overrides applied.
    static func loadConfig(_ options: BuildOptions) throws -> (SiteConfig, [Diagnostic]) {
        var (config, warnings) = try ConfigLoader.load(path: options.source.appendingPathComponent("blog.yml").path,
                                                       displayPath: options.sourceDisplay + "blog.yml")
        if let baseURL = options.baseURL {
            guard let normalized = ConfigLoader.normalizeBaseURL(baseURL) else {
                throw BuildFailure([.error("--base-url: expected a URL such as https://example.org/ or a path such as /blog/, got \"\(baseURL)\"")])
            }
            config.baseURL = normalized
            // --base-url replaces `blog init`'s placeholder, so the placeholder is no longer a problem.
            warnings.removeAll { $0.message == ConfigLoader.placeholderMessage }
        }
        if let cacheFolder = options.cacheFolder { config.cacheDir = cacheFolder }
        if options.relativeURLs { config.relativeURLs = true }
        let jekyll = try JekyllSiteFiles.read(source: options.source, content: config.content,
                                              display: jekyllDisplay(options, config: config))
        config.jekyllFiles = jekyll.files
        return (config, warnings + jekyll.warnings)
    }

    /// The folders of a blog besides its content folder (which `content` names) that a build reads or
    /// that hold its history: never an output folder, nor inside one.
    static let sourceFolders = [".git", "themes", "_data", "shortcodes", "static", "layouts", ".github"]

    /// The output folder, refused when writing there could destroy the sources.
    static func outputFolder(_ options: BuildOptions, config: SiteConfig) throws -> (URL, String) {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let output: URL
        let display: String
        if let flag = options.output {
            output = URL(fileURLWithPath: flag, relativeTo: cwd).standardizedFileURL
            display = flag
        } else {
            (output, display) = options.folder.resolve(config.output)
        }
        let resolved = PathSafety.resolved, inside = PathSafety.isInside
        let target = resolved(output)
        let source = resolved(options.source)
        // The blog's own folders: a build into one, or around one, would delete them.
        let sources = [(config.content, resolved(options.folder.resolve(config.content).url))]
            + sourceFolders.map { ($0, resolved(options.source.appendingPathComponent($0))) }
        var problem: String?
        if target == "/" {
            problem = "the output folder is the root of the file system"
        } else if inside(source, target) {
            problem = target == source ? "the output folder is the blog folder itself" : "the output folder contains the blog folder"
        } else if let (name, _) = sources.first(where: { target == $0.1 }) {
            problem = "the output folder is the blog's \(name)/"
        } else if let (name, _) = sources.first(where: { inside($0.1, target) }) {
            problem = "the output folder contains the blog's \(name)/"
        } else if inside(target, sources[0].1) {
            problem = "the output folder is inside \(config.content)/"
        } else if inside(target, resolved(options.source.appendingPathComponent("themes"))) {
            problem = "the output folder is inside themes/"
        } else if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty, target == resolved(URL(fileURLWithPath: home)) {
            problem = "the output folder is your home folder"
        }
        if let problem {
            throw BuildFailure([.error("refusing to build into \(target): \(problem), and building replaces the output folder's whole content; choose a folder of its own such as public/")])
        }
        return (output, display)
    }

    /// How messages name a file of the Jekyll folder (see ``JekyllSiteFiles``), from its path there.
    static func jekyllDisplay(_ options: BuildOptions, config: SiteConfig) -> (String) -> String {
        let root = JekyllSiteFiles.root(source: options.source, content: config.content)
        let display: String
        if root == nil || root?.standardizedFileURL.path == options.source.standardizedFileURL.path {
            display = options.sourceDisplay
        } else {
            let content = contentFolder(options, config: config).display
            let parent = content.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            display = parent.isEmpty ? "" : parent + "/"
        }
        return { display + $0 }
    }
}
