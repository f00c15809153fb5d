import BlogConfig
import BlogContent
import BlogCore
import BlogIncremental
import BlogLiquid
import BlogMarkdown
import BlogOutput
import BlogRender
import BlogSite
import Foundation

/// What `blog build` and `blog list` are asked to do.
public struct BuildOptions: Sendable {
    /// The blog folder: holds `blog.yml`, `content/` and maybe `themes/`.
    var source: URL
    /// How to show the blog folder in messages (`""` for the working folder, else `path/`).
    var sourceDisplay: String
    /// The output folder from the command line (relative to the working folder), overriding `output` of blog.yml.
    var output: String?
    /// `--base-url`, overriding `base_url` of blog.yml.
    var baseURL: String?
    /// Include drafts.
    var drafts: Bool
    /// Include posts dated in the future.
    var future: Bool
    /// Warnings fail the build (`--strict`, for CI): nothing is written.
    public var strict: Bool = false
    /// The build's "now".
    var now: Date
    /// Use the incremental layer (its state in `cache_dir`, see BlogIncremental);
    /// `blog build --no-cache` turns it off: everything is built, no state is read or written.
    public var cache: Bool = true
    /// The `blog` version the state is made by: a state of another version is not used.
    var version: String = blogVersion
    /// With the incremental layer, patch post bodies into the published site when nothing else
    /// changed (a build in place); tests of the full build with the layer turn it off.
    var quick: Bool = true
    /// Free the site's memory when the build returns. The `blog` command, which exits right
    /// after, turns it off: freeing a 10,000-post site's half a million values one by one takes
    /// a tenth of a second, and the exit gives the memory back at once.
    public var releasesMemory: Bool = true
    /// The process builds again after this build (`blog serve`): it keeps what the next build can
    /// use in memory (each post's rendered markdown).
    public var buildsAgain: Bool = false
    /// The folder of the build's state and lock, overriding `cache_dir` of blog.yml: `blog serve` keeps its
    /// own in its private folder.
    public var cacheFolder: String?

    /// The blog folder, and how messages name it.
    var folder: BlogFolder { BlogFolder(url: source, display: sourceDisplay) }

    /// The build's "now": `SOURCE_DATE_EPOCH` (seconds since 1970, the reproducible-builds
    /// convention) when the environment sets it, else the clock. Only the cut-off for future posts
    /// depends on it; nothing in the output reads the clock.
    public static func defaultNow(environment: [String: String] = ProcessInfo.processInfo.environment) -> Date {
        if let epoch = environment["SOURCE_DATE_EPOCH"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
            return Date(timeIntervalSince1970: TimeInterval(epoch))
        }
        return Date()
    }

    /// Options for the blog folder `source` as the user named it.
    public init(source: String = ".", output: String? = nil, baseURL: String? = nil, drafts: Bool = false,
                future: Bool = false, now: Date = BuildOptions.defaultNow()) {
        let folder = BlogFolder(source)
        self.source = folder.url
        self.sourceDisplay = folder.display
        self.output = output
        self.baseURL = baseURL
        self.drafts = drafts
        self.future = future
        self.now = now
    }
}

/// The outcome of a build.
public struct BuildReport: Sendable {
    /// Posts with a page.
    public var posts: Int
    /// Tags with a page.
    public var tags: Int
    /// HTML pages rendered.
    public var pages: Int
    /// Files written and left unchanged.
    public var files: WriteReport
    /// The output folder, as shown to the user.
    public var output: String
    /// Warnings about the input, and notes (``Diagnostic/Severity/note``) about what it made the build do.
    public var warnings: [Diagnostic]
    /// Seconds spent in each stage, in order (`blog build --timings` prints them).
    public var timings: [(stage: String, seconds: Double)]
    /// Whether the build was done in place, or why not (`blog build --timings` prints it); nil
    /// with `--no-cache`.
    public var cacheSummary: String?
}

/// The stages, in the order they run: config -> content -> site (the posts placed, bodies not yet
/// rendered) -> markdown (Liquid, cmark-gfm, Pelican links, against the placed site; the results go
/// into the site's posts) -> render -> output. Each stage is a target that sees only the stages below
/// it; this one runs them. Each takes plain values and returns plain values; posts are read and
/// rendered on all cores. The incremental layer (BlogIncremental) comes in at one place, in
/// ``buildSite(_:quick:)``.
public enum Pipeline {
    /// Reads the configuration and every post, and builds the site model.
    /// - Parameter render: whether to render markdown (`blog list` does not need it).
    public static func loadSite(_ options: BuildOptions, render: Bool = true) throws -> (Site, [Diagnostic]) {
        let (config, warnings) = try loadConfig(options)
        var clock = StageClock()
        let theme = render ? try Theme.load(name: config.theme, siteRoot: options.source) : nil
        let loaded = try loadSite(options, config: config, warnings: warnings + (theme?.warnings ?? []), render: render,
                                  shortcodes: theme?.shortcodes ?? ShortcodeTemplates(), clock: &clock)
        return (loaded.site, loaded.warnings)
    }

    /// What reading the content gives a build.
    struct LoadedSite {
        var site: Site
        /// In display order.
        var warnings: [Diagnostic]
        /// The content folder's files.
        var inventory: ContentInventory
        /// The post read from each post file of `inventory` (nil where none was).
        var posts: [Post?]
        /// When the first post dated after the build's "now" falls due (seconds since 1970).
        var dueAt: Double?
    }

    static func loadSite(_ options: BuildOptions, config: SiteConfig, warnings configWarnings: [Diagnostic],
                         render: Bool, shortcodes: ShortcodeTemplates = ShortcodeTemplates(), memo: BuildMemo? = nil,
                         clock: inout StageClock) throws -> LoadedSite {
        var warnings = configWarnings
        let (contentDir, contentDisplay) = contentFolder(options, config: config)
        let inventory = try ContentScanner.scan(contentDir, displayPath: contentDisplay, blogFolder: options.source)
        warnings += inventory.warnings
        if inventory.posts.isEmpty {
            throw BuildFailure(warnings + [.error(contentDisplay, "no posts found: expected *.md or *.markdown files under \(contentDisplay)/")])
        }
        warnings += PageBundle.warnings(inventory, display: contentDisplay)

        let read = readPosts(inventory, options: options, config: config, memo: memo)
        warnings += read.flatMap { $0.1 }
        // From this time on, a post now in the future is published with no file changed.
        let dueAt = read.compactMap { $0.0 }.filter { $0.dated && $0.date > options.now }.map(\.date.timeIntervalSince1970).min()
        clock.lap("read posts")
        if warnings.hasErrors { throw BuildFailure(warnings.sortedForDisplay()) }

        // Place the posts (order, URLs, tags) before rendering: only posts that get a page are rendered.
        let empty = RenderedMarkdown(html: "", summaryHTML: "", headings: [])
        let siteOptions = SiteOptions(includeDrafts: options.drafts, includeFuture: options.future, now: options.now)
        var site = try SiteBuilder.build(posts: read.compactMap { $0.0 }.map { RenderedPost(post: $0, rendered: empty) },
                                         assets: inventory.assets, config: config, options: siteOptions)
        warnings += SiteBuilder.replacementNotes(site) + SiteBuilder.caseCollisions(site)
        clock.lap("site model")

        if render {
            let markdownWarnings: [Diagnostic]
            (site, markdownWarnings) = renderMarkdown(site, config: config, jekyllDisplay: jekyllDisplay(options, config: config),
                                                      shortcodes: shortcodes, memo: memo)
            warnings += markdownWarnings
            clock.lap("markdown")
            // A post whose Liquid could not run to its end (too deep, too much work) can't be published as it is.
            if warnings.hasErrors { throw BuildFailure(warnings.sortedForDisplay()) }
        }
        return LoadedSite(site: site, warnings: warnings.sortedForDisplay(), inventory: inventory, posts: read.map(\.0), dueAt: dueAt)
    }

    /// Content: every post file of `inventory` read, on all cores, with its messages (a post that is
    /// not used, or does not read, is nil); every error is collected before the build gives up.
    private static func readPosts(_ inventory: ContentInventory, options: BuildOptions, config: SiteConfig,
                                  memo: BuildMemo?) -> [(Post?, [Diagnostic])] {
        let (contentDir, contentDisplay) = contentFolder(options, config: config)
        let timeZone = config.timeZone
        let bundles = PageBundle.Folders(posts: inventory.posts)
        func readPost(_ path: String, bundle: Bool) -> (Post?, [Diagnostic]) {
            let source = contentDisplay + "/" + path
            do {
                let (post, postWarnings) = try PostReader.read(fileAt: contentDir.appendingPathComponent(path), source: source,
                                                               contentPath: path, bundle: bundle, timeZone: timeZone)
                if SiteBuilder.isSectionIndex(path), !path.contains("/") {
                    return (nil, postWarnings + [.warning(source, "the home page's _index.md is not used: the home page lists the posts; move its text to a page under pages/")])
                }
                return (post, postWarnings)
            } catch let failure as BuildFailure {
                return (nil, failure.diagnostics)
            } catch {
                return (nil, [.error(source, "\(error)")])
            }
        }
        defer { memo?.finishReading() }
        return Parallel.map(inventory.posts.count) { index -> (Post?, [Diagnostic]) in
            let path = inventory.posts[index]
            let bundle = bundles.contains(path)
            guard let memo else { return readPost(path, bundle: bundle) }
            return memo.post(path, in: contentDir, bundle: bundle) { readPost(path, bundle: bundle) }
        }
    }

    /// Markdown: `site` with every placed post's body and summary rendered, on all cores, and the
    /// messages. Links to other posts (Liquid's `post_url`, Pelican's `{filename}`) resolve against
    /// the placed site through ``ContentLinks``. A post `memo` kept from the last build of the
    /// process is not rendered again.
    private static func renderMarkdown(_ site: Site, config: SiteConfig, jekyllDisplay: @escaping (String) -> String,
                                       shortcodes: ShortcodeTemplates, memo: BuildMemo?) -> (Site, [Diagnostic]) {
        let posts = site.posts
        let links = ContentLinks(site: site)
        var liquid = liquidContext(config: config, links: links)
        liquid.renderShortcode = { call in
            try shortcodes.render(name: call.name, positional: call.positional, named: call.named.map { ($0.key, $0.value) }, inner: call.inner)
        }
        liquid.shortcodeTakesInner = { shortcodes.takesInner($0) }
        let siteWarnings: [Diagnostic]
        (liquid.site, siteWarnings) = JekyllSiteFiles.site(config: config, baseURL: liquid.baseURL, siteURL: liquid.siteURL, display: jekyllDisplay)
        let rendered = Parallel.map(posts.count) { index -> (RenderedMarkdown, [Diagnostic]) in
            let post = posts[index].post
            let options = config.markdownOptions(for: post)
            if let kept = memo?.rendered(post, options: options) { return kept }
            var (body, summary, linkWarnings) = (post.body, post.summary, [Diagnostic]())
            var fragments: (body: [String], summary: [String]) = ([], [])
            if post.headerFormat == .yaml || post.headerFormat == .toml {
                // Jekyll-form posts are run as Liquid templates; others have their links and shortcodes rewritten.
                let page = JekyllSiteFiles.page(post, url: "/" + posts[index].url)
                let runsLiquid = post.markdownDialect == .kramdown
                let done = Liquid.run(body, path: post.source, firstLine: post.bodyLine, context: liquid, page: page, runsLiquid: runsLiquid)
                (body, linkWarnings, fragments.body) = (done.markdown, done.diagnostics, done.fragments)
                if let text = summary {
                    let done = Liquid.run(text, path: post.source, firstLine: post.bodyLine, context: liquid, page: page, runsLiquid: runsLiquid)
                    (summary, fragments.summary) = (done.markdown, done.fragments)
                }
            }
            var markdown = MarkdownRenderer.render(body: body, summary: summary, options: options)
            markdown.html = ShortcodeMarks.restore(markdown.html, fragments: fragments.body, policy: options.html)
            markdown.summaryHTML = ShortcodeMarks.restore(markdown.summaryHTML, fragments: summary == nil ? fragments.body : fragments.summary,
                                                          policy: options.html)
            let (html, pelicanWarnings) = links.rewritePelican(html: markdown.html, post: post)
            markdown.html = html
            markdown.summaryHTML = links.rewritePelican(html: markdown.summaryHTML, post: post).0
            let diagnostics = linkWarnings + pelicanWarnings + markdown.diagnostics(path: post.source, bodyLine: post.bodyLine)
            memo?.keep(post, options: options, rendered: markdown, diagnostics: diagnostics)
            return (markdown, diagnostics)
        }
        memo?.finishMarkdown()
        var site = site
        for index in site.posts.indices { site.posts[index].rendered = rendered[index].0 }
        return (site, siteWarnings + rendered.flatMap(\.1))
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

    /// What Jekyll's `{{ site.baseurl }}` and `{{ site.url }}`, `{% post_url %}`, `{% link %}` and
    /// Hugo's `ref` become in this site.
    static func liquidContext(config: SiteConfig, links: ContentLinks) -> LiquidContext {
        let basePath = config.basePath.hasSuffix("/") ? String(config.basePath.dropLast()) : config.basePath
        var siteURL = ""
        if let url = URL(string: config.baseURL), let scheme = url.scheme, let host = url.host {
            siteURL = "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
        }
        return LiquidContext(baseURL: basePath, siteURL: siteURL,
                             resolvePost: { links.href(forPostNamed: $0) }, resolvePath: { links.href(forPath: $0) },
                             timeZone: config.timeZone)
    }

    /// Builds the site and writes it to the output folder: in place when only post bodies changed
    /// since the last build (see BlogIncremental), else whole.
    public static func build(_ options: BuildOptions) throws -> BuildReport {
        try buildSite(options, quick: options.quick).report
    }

    /// Builds the site, and returns the site model with the report (`blog check` reads both);
    /// with `quick`, a build done in place returns no site.
    static func buildSite(_ options: BuildOptions, quick: Bool = false) throws -> (report: BuildReport, site: Site?) {
        var (config, configWarnings) = try loadConfig(options)
        let (output, outputDisplay) = try outputFolder(options, config: config)
        var clock = StageClock()
        let theme = try Theme.load(name: config.theme, siteRoot: options.source)
        configWarnings += theme.warnings + choosePalette(&config, theme: theme, options: options)
        let content = contentFolder(options, config: config)
        // The incremental layer, the one place it comes in: it builds in place when only post bodies
        // changed since the last build; else the full build runs with it watching (a render hook),
        // and it keeps a state for the next build. With --no-cache it only drops the state this
        // build makes stale.
        let incremental = try IncrementalBuild(IncrementalRequest(
            config: config, theme: theme, source: options.source, sourceDisplay: options.sourceDisplay,
            content: content.url, contentDisplay: content.display, output: output, outputDisplay: outputDisplay,
            drafts: options.drafts, future: options.future, now: options.now, version: options.version,
            buildsAgain: options.buildsAgain), enabled: options.cache)
        // One build of the blog at a time, with the cache or without: two would share the staging
        // folder, the spare copy and the state.
        let (lock, lockWarnings) = try BuildLock.hold(blog: options.source, folder: incremental.stateFolder, create: options.cache)
        defer { lock.release() }
        // Under the lock: the output folder is one a build may replace (no link where it or the
        // folders beside it belong, and no files that blog did not write), or nothing is built.
        try OutputFolder.locate(output, display: outputDisplay).checkOwner(writtenBefore: incremental.lastBuildWroteOutput)
        let warnings = configWarnings + Feeds.warnings(config: config, path: options.sourceDisplay + "blog.yml") + lockWarnings
        let outcome = try incremental.build(inPlace: quick, warnings: warnings, strict: { try checkStrict(options, warnings: $0) },
                                            clock: &clock) { observer, clock in
            try fullBuild(options, config: config, warnings: warnings, theme: theme, output: output, outputDisplay: outputDisplay,
                          observer: observer, clock: &clock)
        }
        switch outcome {
        case .inPlace(let done):
            return (BuildReport(posts: done.posts, tags: done.tags, pages: done.pages, files: done.files, output: outputDisplay,
                                warnings: done.warnings, timings: clock.timings, cacheSummary: done.summary), nil)
        case .full(var built, let summary):
            built.report.timings = clock.timings
            built.report.cacheSummary = summary
            return built
        }
    }

    /// The whole site built and written: read, placed, rendered (through `observer`'s hook) and
    /// written; `observer` gets the files once they are staged.
    private static func fullBuild(_ options: BuildOptions, config: SiteConfig, warnings configWarnings: [Diagnostic], theme: Theme,
                                  output: URL, outputDisplay: String, observer: FullBuildObserver,
                                  clock: inout StageClock) throws -> (report: BuildReport, site: Site?) {
        clock.lap("config and theme")
        let loaded = try loadSite(options, config: config, warnings: configWarnings, render: true, shortcodes: theme.shortcodes,
                                  memo: observer.memo, clock: &clock)
        let (site, warnings) = (loaded.site, loaded.warnings)
        try checkStrict(options, warnings: warnings)
        // Pages are rendered as they are written, on all cores: see SiteRenderer.pages.
        let hook = observer.renderHook(for: site)
        // With the incremental layer, on a blog built before, each page also gets the digest of its
        // values: a page whose values are the last build's is not rendered again (see
        // BlogIncremental's PartialBuild).
        let rendered = observer.wantsPageInputs ? SiteRenderer.pagesAndInputs(site, theme: theme, hook: hook) : nil
        var files = rendered?.files ?? SiteRenderer.pages(site, theme: theme, hook: hook)
        let pages = files.count
        let generated = Feeds.render(site, hook: hook) + Sitemap.render(site)
        files += generated
        clock.lap("template values and feeds")
        files += theme.staticFiles
        let contentDir = contentFolder(options, config: config).url
        files += site.assets.map { OutputFile(path: $0.path, contents: .copy(from: contentDir.appendingPathComponent($0.source))) }
        files += Redirects.render(site)
        let built = BuiltSite(site: site, posts: loaded.posts, inventory: loaded.inventory, files: files,
                              warnings: warnings, dueAt: loaded.dueAt, pageInputs: rendered?.inputs)
        let generatedPaths = Set(generated.map(\.path))
        let origins = OriginLookup { OutputOrigins.of($0, site: site, theme: theme, generated: generatedPaths, options: options) }
        let written = try observer.writeChanges(built)
            ?? SiteWriter.write(files, to: output, displayPath: outputDisplay, origins: origins) { staged in
                observer.staged(built, in: staged)
            }
        clock.lap("render pages and write")
        if !options.releasesMemory { HeldUntilExit.shared.keep([site, files, loaded]) }
        let report = BuildReport(posts: site.posts.reduce(0) { $0 + ($1.post.kind == .post ? 1 : 0) }, tags: site.tags.count, pages: pages,
                                 files: written, output: outputDisplay, warnings: warnings, timings: [])
        return (report, site)
    }

    /// With `--strict`, any warning (not a note) fails the build before anything is written.
    static func checkStrict(_ options: BuildOptions, warnings: [Diagnostic]) throws {
        let counted = warnings.warningsOnly.count
        if options.strict, counted > 0 {
            throw BuildFailure(warnings + [.error(options.sourceDisplay + "blog.yml", "--strict: \(counted) warning\(counted == 1 ? "" : "s") above; fix them or build without --strict")])
        }
    }

    /// The content folder, and how messages name it (`content`, `site/_posts`).
    static func contentFolder(_ options: BuildOptions, config: SiteConfig) -> (url: URL, display: String) {
        options.folder.resolve(config.content)
    }

    /// blog.yml with the command line's overrides applied.
    static func loadConfig(_ options: BuildOptions) throws -> (SiteConfig, [Diagnostic]) {
        var (config, warnings) = try ConfigLoader.load(path: options.source.appendingPathComponent("blog.yml").path,
                                                       displayPath: options.sourceDisplay + "blog.yml")
        if let baseURL = options.baseURL {
            guard let normalized = ConfigLoader.normalizeBaseURL(baseURL) else {
                throw BuildFailure([.error("--base-url", "expected a URL such as https://example.org/ or a path such as /blog/, got \"\(baseURL)\"")])
            }
            config.baseURL = normalized
            // --base-url replaces `blog init`'s placeholder, so the placeholder is no longer a problem.
            warnings.removeAll { $0.message == ConfigLoader.placeholderMessage }
        }
        if let cacheFolder = options.cacheFolder { config.cacheDir = cacheFolder }
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
            throw BuildFailure([.error(display, "refusing to build into \(target): \(problem), and building replaces the output folder's whole content; choose a folder of its own such as public/")])
        }
        return (output, display)
    }
}

/// What builds leave to the process's exit to free (see ``BuildOptions/releasesMemory``).
private final class HeldUntilExit: @unchecked Sendable {
    static let shared = HeldUntilExit()
    private let lock = NSLock()
    private var values: [Any] = []

    func keep(_ more: [Any]) {
        lock.lock()
        values += more
        lock.unlock()
    }
}
