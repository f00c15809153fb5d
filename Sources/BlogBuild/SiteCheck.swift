import BlogCheck
import BlogConfig
import BlogContent
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
        /// Notes on broken links that a `permalinks` preset would mend, one per preset.
        public var hints: [Diagnostic] = []
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
        if existingOutput == nil { try Pipeline.requireBlogFolder(options.folder) }
        let (config, _) = try Pipeline.loadConfig(options)
        if let existingOutput {
            let folder = URL(fileURLWithPath: existingOutput, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            let display = existingOutput.count > 1 && existingOutput.hasSuffix("/") ? String(existingOutput.dropLast()) : existingOutput
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
                throw BuildFailure([.error("no folder to check at \(folder.standardizedFileURL.path)")])
            }
            let site = try? Pipeline.loadSite(options).0
            let links = LinkChecker.check(folder: folder, displayPath: display, config: config, posts: postPages(site, options),
                                          alternatives: { presetLayouts(site, options) })
            return Report(links: links, warnings: [], hints: hints(links, site: site, options))
        }

        let display = (try? Pipeline.outputFolder(options, config: config).1) ?? config.output
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("blog-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = scratch.appendingPathComponent("site")
        options.output = folder.path
        let (build, site) = try Pipeline.buildSite(options)
        let links = LinkChecker.check(folder: folder, displayPath: display, config: config, posts: postPages(site, options),
                                      alternatives: { presetLayouts(site, options) })
        return Report(links: links, warnings: build.warnings + largeImages(site, options), hints: hints(links, site: site, options))
    }

    /// A warning for each image the site publishes from content/ whose file is over
    /// `image_size_warning` bytes: every reader downloads all of it.
    static func largeImages(_ site: Site?, _ options: BuildOptions) -> [Diagnostic] {
        guard let site else { return [] }
        let (content, display) = Pipeline.contentFolder(options, config: site.config)
        let limit = site.config.imageSizeWarning
        return site.assets.filter { ImageAttributes.isImagePath($0.path) }.compactMap { asset in
            let url = content.appendingPathComponent(asset.source)
            guard let size = (try? url.resourceValues(forKeys: [.fileSizeKey]))?.fileSize, size > limit else { return nil }
            return .warning(display + "/" + asset.source, "the image is \(ByteSize.text(size)), over `image_size_warning` (\(ByteSize.text(limit))): every reader downloads all of it; make it smaller (a lower resolution or quality, or WebP), or raise `image_size_warning` in blog.yml")
        }.sortedForDisplay()
    }

    /// The files the site would have under each `permalinks` preset other than its own: its
    /// pages, redirects, copied files and site feeds, placed again (nothing is rendered).
    static func presetLayouts(_ site: Site?, _ options: BuildOptions) -> [AlternativeLayout] {
        guard let site else { return [] }
        let posts = site.posts.map { RenderedPost(post: $0.post, rendered: $0.rendered) }
        let siteOptions = SiteOptions(includeDrafts: options.drafts, includeFuture: options.future, now: options.now)
        return PermalinkPreset.allCases.filter { $0 != site.config.permalinks.preset }.compactMap { preset in
            var config = site.config
            config.permalinks = preset.permalinks
            config.permalinks.homeList = site.config.permalinks.homeList
            guard let placed = try? SiteBuilder.build(posts: posts, assets: site.assets.map(\.source), config: config, options: siteOptions) else { return nil }
            let links = config.permalinks
            let files = placed.pages.map(\.outputPath) + placed.redirects.map(\.outputPath) + placed.assets.map(\.path)
                + [links.atomFeed, links.rssFeed, links.jsonFeed]
            return AlternativeLayout(name: preset.rawValue, files: Set(files))
        }
    }

    /// Notes at blog.yml: first the `post` and `page` patterns that the most broken links were
    /// written for (their last segment a post's or page's slug, ``PermalinkInference``), in blog.yml's
    /// syntax; then one per preset that would mend broken links.
    static func hints(_ links: LinkCheckReport, site: Site?, _ options: BuildOptions) -> [Diagnostic] {
        var notes: [Diagnostic] = []
        if let site, !links.missing.isEmpty {
            let current = site.config.permalinks
            var inference = PermalinkInference(site.posts.map(\.post).map { post in
                PermalinkInference.Target(page: post.kind == .page, slugs: [post.slug, post.asciiSlug],
                                          date: post.dated ? post.date : nil, timeZone: site.config.timeZone(writtenOffset: post.writtenOffset))
            })
            for (link, path) in links.missing { inference.add(link, path: path) }
            let proposals = inference.proposals().filter { $0.pattern != ($0.key == "page" ? current.page : current.post) }
            if !proposals.isEmpty {
                let count = proposals.map(\.links).reduce(0, +)
                let keys = (current.preset.map { ["preset: \($0.rawValue)"] } ?? []) + proposals.map { "\($0.key): \"\($0.pattern)\"" }
                let examples = proposals.map { "\($0.example) (a \($0.key))" }.joined(separator: " and ")
                notes.append(.note(options.sourceDisplay + "blog.yml", "links like \(examples) name posts and pages by slug in other URLs: with `permalinks: {\(keys.joined(separator: ", "))}` in blog.yml, \(count == 1 ? "1 broken link" : "\(count) broken links") of this check would work"))
            }
        }
        notes += links.matches.map { match in
            let some = match.count == 1 ? "1 broken link" : "\(match.count) broken links"
            return .note(options.sourceDisplay + "blog.yml", "links like \(match.example) match the `\(match.name)` preset: with `permalinks: \(match.name)` in blog.yml, \(some) of this check would work")
        }
        return notes
    }

    /// The post pages of `site`, with the files their sources are read from.
    static func postPages(_ site: Site?, _ options: BuildOptions) -> [PostPage] {
        postPages(site?.posts ?? [], options)
    }

    /// The post pages of `posts`, with the files their sources are read from.
    static func postPages(_ posts: [SitePost], _ options: BuildOptions) -> [PostPage] {
        posts.map { sitePost in
            let source = sitePost.post.source
            let relative = source.hasPrefix(options.sourceDisplay) ? String(source.dropFirst(options.sourceDisplay.count)) : source
            return PostPage(outputPath: sitePost.outputPath, source: source,
                            sourceFile: options.source.appendingPathComponent(relative), bodyHTML: sitePost.rendered.html)
        }
    }
}

/// `blog serve`'s check of the links of each site it builds (see ``Pipeline/buildForPreview(_:)``).
package struct PreviewLinks: Sendable {
    let config: SiteConfig
    /// The site's posts and the options it was built with, made into the post pages (``SiteCheck/postPages(_:_:)``:
    /// a broken link of a post is reported at its source's line) as a check starts, on the check's thread: at 10,000
    /// posts making them (an URL a post) was a twentieth of the build thread's time of a title edit.
    let posts: [SitePost]
    let options: BuildOptions

    /// Every broken link of the site built into `folder`; messages name the folder as `blog check` does
    /// (`output` of blog.yml, `public`), so that they read the same.
    package func check(folder: URL) -> LinkCheckReport {
        LinkChecker.check(folder: folder, displayPath: config.output, config: config, posts: SiteCheck.postPages(posts, options))
    }

    /// The same, reading again only what changed since the check `memo` made last; nil when `stale` turns true.
    package func check(folder: URL, memo: LinkCheckMemo, stale: () -> Bool) -> LinkCheckReport? {
        memo.check(folder: folder, displayPath: config.output, config: config, posts: SiteCheck.postPages(posts, options), stale: stale)
    }
}

extension Pipeline {
    /// A build for `blog serve`, and what checks its links; nil for a build in place, which changed only post
    /// bodies: the last full build's ``PreviewLinks`` still holds.
    package static func buildForPreview(_ options: BuildOptions) throws -> (report: BuildReport, links: PreviewLinks?) {
        let (report, site) = try buildSite(options, quick: options.quick)
        guard let site else { return (report, nil) }
        return (report, PreviewLinks(config: site.config, posts: site.posts, options: options))
    }
}
