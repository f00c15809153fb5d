import BlogConfig
import BlogContent
import BlogCore
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
    /// Use the build cache (`cache_dir`); `blog build --no-cache` turns it off.
    public var cache: Bool = true
    /// The `blog` version the cache is made by: a cache of another version is not used.
    var version: String = blogVersion
    /// With the cache, patch post bodies into the published site when nothing else changed
    /// (see ``QuickBuild``); tests of the full incremental build turn it off.
    var quick: Bool = true
    /// Free the site's memory when the build returns. The `blog` command, which exits right
    /// after, turns it off: freeing a 10,000-post site's half a million values one by one takes
    /// a tenth of a second, and the exit gives the memory back at once.
    public var releasesMemory: Bool = true

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
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        self.source = URL(fileURLWithPath: source, relativeTo: cwd).standardizedFileURL
        let trimmed = source.hasSuffix("/") ? String(source.dropLast()) : source
        self.sourceDisplay = (trimmed == "." || trimmed.isEmpty) ? "" : trimmed + "/"
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
    /// Warnings about the build cache (ignored or unwritable): printed, but never counted by `--strict`.
    public var cacheWarnings: [Diagnostic] = []
    /// What the build cache saved (`blog build --timings` prints it); nil without the cache.
    public var cacheSummary: String?
}

/// Measures stages one after the other.
struct StageClock {
    private(set) var timings: [(stage: String, seconds: Double)] = []
    private var last = DispatchTime.now()

    /// Records the time since the previous lap under `stage`.
    mutating func lap(_ stage: String) {
        let now = DispatchTime.now()
        timings.append((stage, Double(now.uptimeNanoseconds - last.uptimeNanoseconds) / 1e9))
        last = now
    }
}

/// The stages, in the order they run: config -> content -> site (the posts placed, bodies not yet
/// rendered) -> markdown (Liquid, cmark-gfm, Pelican links, against the placed site; the results go
/// into the site's posts) -> render -> output. Each stage is a target that sees only the stages below
/// it; this one runs them. Each takes plain values and returns plain values; posts are read and
/// rendered on all cores.
public enum Pipeline {
    /// Reads the configuration and every post, and builds the site model.
    /// - Parameter render: whether to render markdown (`blog list` does not need it).
    public static func loadSite(_ options: BuildOptions, render: Bool = true) throws -> (Site, [Diagnostic]) {
        let (config, warnings) = try loadConfig(options)
        var clock = StageClock()
        let loaded = try loadSite(options, config: config, warnings: warnings, render: render, cache: nil, clock: &clock)
        return (loaded.site, loaded.warnings)
    }

    /// What reading the content gives a build.
    struct LoadedSite {
        var site: Site
        /// In display order.
        var warnings: [Diagnostic]
        /// The content folder's files.
        var inventory: ContentInventory
        /// When the first post dated after the build's "now" falls due (seconds since 1970).
        var dueAt: Double?
    }

    static func loadSite(_ options: BuildOptions, config: SiteConfig, warnings configWarnings: [Diagnostic],
                         render: Bool, cache: BuildCache?, clock: inout StageClock) throws -> LoadedSite {
        var warnings = configWarnings
        let (contentDir, contentDisplay) = contentFolder(options, config: config)
        let inventory = try ContentScanner.scan(contentDir, displayPath: contentDisplay)
        if inventory.posts.isEmpty {
            throw BuildFailure(warnings + [.error(contentDisplay, "no posts found: expected *.md or *.markdown files under \(contentDisplay)/")])
        }
        warnings += PageBundle.warnings(inventory, display: contentDisplay)

        let read = readPosts(inventory, options: options, config: config, cache: cache)
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
        warnings += SiteBuilder.replacementNotes(site)
        clock.lap("site model")

        if render {
            let markdownWarnings: [Diagnostic]
            (site, markdownWarnings) = renderMarkdown(site, config: config, cache: cache)
            warnings += markdownWarnings
            clock.lap("markdown")
        }
        return LoadedSite(site: site, warnings: warnings.sortedForDisplay(), inventory: inventory, dueAt: dueAt)
    }

    /// Content: every post file of `inventory` read, on all cores, with its messages (a post that is
    /// not used, or does not read, is nil); every error is collected before the build gives up.
    private static func readPosts(_ inventory: ContentInventory, options: BuildOptions, config: SiteConfig,
                                  cache: BuildCache?) -> [(Post?, [Diagnostic])] {
        let (contentDir, contentDisplay) = contentFolder(options, config: config)
        let timeZone = config.timeZone
        let readerKey = cache.map { _ in BuildCache.readerKey(config: config, version: options.version) }
        let bundles = PageBundle.Folders(posts: inventory.posts)
        return Parallel.map(inventory.posts.count) { index -> (Post?, [Diagnostic]) in
            let path = inventory.posts[index]
            let source = contentDisplay + "/" + path
            let bundle = bundles.contains(path)
            do {
                let file = contentDir.appendingPathComponent(path)
                let (post, postWarnings): (Post, [Diagnostic])
                if let cache, let readerKey {
                    (post, postWarnings) = try cache.post(at: file, path: path, readerKey: BuildCache.postKey(readerKey, bundle: bundle),
                                                          source: source) { data in
                        try PostReader.read(data: data, source: source, contentPath: path, bundle: bundle, timeZone: timeZone)
                    }
                } else {
                    (post, postWarnings) = try PostReader.read(fileAt: file, source: source, contentPath: path, bundle: bundle, timeZone: timeZone)
                }
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
    }

    /// Markdown: `site` with every placed post's body and summary rendered, on all cores, and the
    /// messages. Links to other posts (Liquid's `post_url`, Pelican's `{filename}`) resolve against
    /// the placed site through ``ContentLinks``.
    private static func renderMarkdown(_ site: Site, config: SiteConfig, cache: BuildCache?) -> (Site, [Diagnostic]) {
        let posts = site.posts
        let links = ContentLinks(site: site)
        let liquid = liquidContext(config: config, links: links)
        let rendered = Parallel.map(posts.count) { index -> (RenderedMarkdown, [Diagnostic]) in
            let post = posts[index].post
            var (body, summary, linkWarnings) = (post.body, post.summary, [Diagnostic]())
            if post.headerFormat == .yaml || post.headerFormat == .toml {
                (body, linkWarnings) = Liquid.process(body, path: post.source, firstLine: post.bodyLine, context: liquid)
                summary = summary.map { Liquid.process($0, path: post.source, firstLine: post.bodyLine, context: liquid).0 }
            }
            // The cache keys rendered markdown by the exact body and summary handed to the
            // renderer, and the options, dialect included.
            let options = config.markdownOptions(for: post)
            var markdown = cache?.rendered(body: body, summary: summary, options: options) { [body, summary] in
                MarkdownRenderer.render(body: body, summary: summary, options: options)
            } ?? MarkdownRenderer.render(body: body, summary: summary, options: options)
            let (html, pelicanWarnings) = links.rewritePelican(html: markdown.html, post: post)
            markdown.html = html
            markdown.summaryHTML = links.rewritePelican(html: markdown.summaryHTML, post: post).0
            return (markdown, linkWarnings + pelicanWarnings + markdown.diagnostics(path: post.source, bodyLine: post.bodyLine))
        }
        var site = site
        for index in site.posts.indices { site.posts[index].rendered = rendered[index].0 }
        return (site, rendered.flatMap(\.1))
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
                             resolvePost: { links.href(forPostNamed: $0) }, resolvePath: { links.href(forPath: $0) })
    }

    /// Builds the site and writes it to the output folder: in place when only post bodies changed
    /// since the last build (see ``QuickBuild``), else whole.
    public static func build(_ options: BuildOptions) throws -> BuildReport {
        try buildSite(options, quick: options.quick).report
    }

    /// Builds the whole site, and returns the site model with the report (`blog check` reads both);
    /// with `quick`, a build done in place (see ``QuickBuild``) returns no site.
    static func buildSite(_ options: BuildOptions, quick: Bool = false) throws -> (report: BuildReport, site: Site?) {
        let (config, configWarnings) = try loadConfig(options)
        let (output, outputDisplay) = try outputFolder(options, config: config)
        var clock = StageClock()
        let theme = try Theme.load(name: config.theme, siteRoot: options.source)
        // With --no-cache the cache folder is only where the last cached build's state is dropped.
        let store = options.cache ? try BuildCache.store(options, config: config, output: output)
            : (try? BuildCache.store(options, config: config, output: output)) ?? nil
        // One build at a time per cache (and so per output folder): two would share the staging
        // folder, the spare copy and the state.
        let lock = try store.map { try $0.lock(create: options.cache) }
        defer { lock?.release() }
        // The last build's state: for a build in place, and to know what the spare copy holds.
        let previous = store?.loadState()
        var fullBecause: String?
        if quick, options.cache, let store {
            do {
                return (try QuickBuild.attempt(options, config: config, warnings: configWarnings, theme: theme, output: output,
                                               outputDisplay: outputDisplay, store: store, state: previous, clock: &clock), nil)
            } catch let refusal as QuickBuild.Refusal {
                fullBecause = refusal.reason
            }
        }
        let cache = options.cache ? store.map { BuildCache(store: $0) } : nil
        clock.lap("config and theme")
        let feedWarnings = Feeds.warnings(config: config, path: options.sourceDisplay + "blog.yml")
        let loaded = try loadSite(options, config: config, warnings: configWarnings + feedWarnings, render: true,
                                  cache: cache, clock: &clock)
        let (site, warnings) = (loaded.site, loaded.warnings)
        try checkStrict(options, warnings: warnings)
        // Pages are rendered as they are written, on all cores: see SiteRenderer.pages.
        let log = RenderLog(pages: site.pages.count)
        var files = SiteRenderer.pages(site, theme: theme, log: log)
        let pages = files.count
        let (feeds, feedHoles) = Feeds.render(site, holes: log.holes)
        files += feeds + Sitemap.render(site)
        clock.lap("template values and feeds")
        files += theme.staticFiles
        let contentDir = contentFolder(options, config: config).url
        files += site.assets.map { OutputFile(path: $0.path, contents: .copy(from: contentDir.appendingPathComponent($0.source))) }
        files += Redirects.render(site)
        // The state describes the published site: it goes before the site changes (a build into
        // another folder leaves it).
        if let store, cache != nil || previous?.output == resolved(output) { store.dropState() }
        // The cache's new parsed posts and rendered markdown are encoded, and the state for the
        // next build in place made (from the files as staged: a rename keeps their identity),
        // while the new site is flushed to disk, which leaves the cores idle. Both are saved once
        // the site is published; the cache also when the write fails.
        var state: SiteState?
        let written: WriteReport
        do {
            written = try SiteWriter.write(files, to: output, displayPath: outputDisplay) { staged in
                guard let cache else { return }
                let entries = cache.postEntries
                let encoding = DispatchGroup()
                DispatchQueue.global().async(group: encoding) { cache.encode() }
                let posts = QuickBuild.postStates(site, inventory: loaded.inventory, entries: entries, theme: theme)
                state = QuickBuild.state(after: site, files: files, in: staged, pageHoles: log.pageHoles, feedHoles: feedHoles,
                                         opaque: log.opaquePosts, posts: posts, inventory: loaded.inventory,
                                         contentDir: contentDir, warnings: warnings, dueAt: loaded.dueAt,
                                         options: options, theme: theme, output: output, previousPaths: previous?.pathsDigest)
                encoding.wait()
            }
        } catch {
            cache?.save()
            throw error
        }
        clock.lap("render pages and write")
        if let cache, let store {
            cache.save()
            clock.lap("save cache")
            if let state { store.saveState(state) }
            clock.lap("save state")
        }
        if !options.releasesMemory { HeldUntilExit.shared.keep([site, files, loaded, log, cache as Any]) }
        let report = BuildReport(posts: site.posts.reduce(0) { $0 + ($1.post.kind == .post ? 1 : 0) }, tags: site.tags.count, pages: pages, files: written,
                                 output: outputDisplay, warnings: warnings, timings: clock.timings,
                                 cacheWarnings: cache?.warnings ?? [],
                                 cacheSummary: cache.map { $0.summary + (fullBecause.map { "; full build: \($0)" } ?? "") })
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
        (URL(fileURLWithPath: config.content, relativeTo: options.source).standardizedFileURL,
         config.content.hasPrefix("/") ? config.content : options.sourceDisplay + config.content)
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
        }
        return (config, warnings)
    }

    /// The output folder, refused when writing there could destroy the sources.
    static func outputFolder(_ options: BuildOptions, config: SiteConfig) throws -> (URL, String) {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let output: URL
        let display: String
        if let flag = options.output {
            output = URL(fileURLWithPath: flag, relativeTo: cwd).standardizedFileURL
            display = flag
        } else {
            output = URL(fileURLWithPath: config.output, relativeTo: options.source).standardizedFileURL
            display = config.output.hasPrefix("/") ? config.output : options.sourceDisplay + config.output
        }
        let target = resolved(output)
        let source = resolved(options.source)
        func inside(_ path: String, _ folder: String) -> Bool {
            path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/")
        }
        var problem: String?
        if target == "/" {
            problem = "the output folder is the root of the file system"
        } else if inside(source, target) {
            problem = target == source ? "the output folder is the blog folder itself" : "the output folder contains the blog folder"
        } else if inside(target, resolved(URL(fileURLWithPath: config.content, relativeTo: options.source))) {
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

    /// The absolute path with symbolic links resolved, also for a path that does not exist yet.
    static func resolved(_ url: URL) -> String {
        var existing = url.standardizedFileURL
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            rest.insert(existing.lastPathComponent, at: 0)
            existing = existing.deletingLastPathComponent()
        }
        var path = existing.resolvingSymlinksInPath().path
        for part in rest { path = (path as NSString).appendingPathComponent(part) }
        return path
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
