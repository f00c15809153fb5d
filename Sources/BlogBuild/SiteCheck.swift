import BlogCheck
import BlogCore
import BlogSite
import Foundation

/// `blog check`: builds the site where it harms nothing and checks its links, or checks a folder
/// that is already built.
public enum SiteCheck {
    /// The result: the links found broken, and the warnings of the build.
    public struct Report: Sendable {
        public var links: LinkCheckReport
        public var warnings: [Diagnostic]
    }

    /// Without `existingOutput`, builds the blog of `options` into a temporary folder (deleted
    /// afterwards) and checks it; messages name the output folder `blog build` would write. With
    /// `existingOutput` (relative to the working folder), checks that folder as it is, without
    /// building; the blog of `options` is still read, when it can be, to report links of post pages
    /// in the posts' sources.
    /// - Throws: ``BuildFailure`` when the build fails or `existingOutput` is not a folder.
    public static func run(_ options: BuildOptions, existingOutput: String? = nil) throws -> Report {
        var options = options
        options.output = nil
        // The state describes the real output folder; a build into a scratch folder must not touch it.
        options.cache = false
        let (config, _) = try Pipeline.loadConfig(options)
        if let existingOutput {
            let folder = URL(fileURLWithPath: existingOutput, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            let display = existingOutput.count > 1 && existingOutput.hasSuffix("/") ? String(existingOutput.dropLast()) : existingOutput
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
                throw BuildFailure([.error(display, "no folder to check at \(folder.standardizedFileURL.path)")])
            }
            let site = try? Pipeline.loadSite(options).0
            let links = LinkChecker.check(folder: folder, displayPath: display, config: config, posts: postPages(site, options))
            return Report(links: links, warnings: [])
        }

        let display = (try? Pipeline.outputFolder(options, config: config).1) ?? config.output
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("blog-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = scratch.appendingPathComponent("site")
        options.output = folder.path
        let (build, site) = try Pipeline.buildSite(options)
        let links = LinkChecker.check(folder: folder, displayPath: display, config: config, posts: postPages(site, options))
        return Report(links: links, warnings: build.warnings)
    }

    /// The post pages of `site`, with the files their sources are read from.
    private static func postPages(_ site: Site?, _ options: BuildOptions) -> [PostPage] {
        (site?.posts ?? []).map { sitePost in
            let source = sitePost.post.source
            let relative = source.hasPrefix(options.sourceDisplay) ? String(source.dropFirst(options.sourceDisplay.count)) : source
            return PostPage(outputPath: sitePost.outputPath, source: source,
                            sourceFile: options.source.appendingPathComponent(relative), bodyHTML: sitePost.rendered.html)
        }
    }
}
