import BlogConfig
import BlogContent
import BlogCore
import BlogIncremental
import BlogLiquid
import BlogMarkdown
import BlogOutput
import BlogRender
import BlogSite
import CSystem
import Foundation
import Synchronization

/// The stages, in the order they run: config -> content -> site (the posts placed, bodies not yet
/// rendered) -> markdown (``MarkdownStage``: Liquid, cmark-gfm, Pelican links, against the placed site;
/// the results go into the site's posts) -> render -> output. Each stage is a target that sees only the stages below
/// it; this one runs them. Each takes plain values and returns plain values; posts are read and
/// rendered on all cores. The incremental layer (BlogIncremental) comes in at one place, in
/// ``buildSite(_:quick:)``.
public enum Pipeline {
    /// `blog list`: the posts as the site places them (bodies not rendered), with the warnings reading them gave.
    public static func listing(_ options: BuildOptions) throws -> (PostListing, [Diagnostic]) {
        let (site, warnings) = try loadSite(options, render: false)
        return (PostListing(site: site), warnings)
    }

    /// Reads the configuration and every post, and builds the site model.
    /// - Parameter render: whether to render markdown (`blog list` does not need it).
    static func loadSite(_ options: BuildOptions, render: Bool = true) throws -> (Site, [Diagnostic]) {
        try requireBlogFolder(options.folder)
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

    /// The steps up to the site with its posts rendered: the content folder scanned, every post read,
    /// the posts placed and (with `render`) their markdown rendered, each step one stage. Every error of
    /// a step is collected before the build gives up.
    static func loadSite(_ options: BuildOptions, config: SiteConfig, warnings configWarnings: [Diagnostic],
                         render: Bool, shortcodes: ShortcodeTemplates = ShortcodeTemplates(), memo: BuildMemo? = nil,
                         reads: PostFileReads? = nil, scanned: Result<ContentInventory, any Error>? = nil,
                         clock: inout StageClock) throws -> LoadedSite {
        var warnings = configWarnings
        let inventory = try scanContent(options, config: config, memo: memo, scanned: scanned, warnings: &warnings)
        // From `dueAt` on, a post now in the future is published with no file changed.
        var dueAt: Double?
        var read = readPosts(inventory, options: options, config: config, memo: memo, reads: reads, dueAt: &dueAt)
        let present = takeMessages(&read, into: &warnings)
        clock.lap("read posts")
        if warnings.hasErrors { throw BuildFailure(warnings.sortedForDisplay()) }
        var (site, placed) = try placePosts(read, present: present, assets: inventory.assets, options: options, config: config,
                                            memo: memo?.model)
        // Two passes over the placed site, one per core.
        // `blog serve` keeps the notes of merged terms while the posts' terms are as they were, and the case collisions
        // with the site model (see SiteModelMemo).
        let (notes, caseWarnings) = Parallel.both({
            SiteBuilder.replacementNotes(site)
                + (memo?.model.mergedTermNotes(site) { SiteBuilder.mergedTermNotes(site) } ?? SiteBuilder.mergedTermNotes(site))
        }, { () -> [Diagnostic] in
            // The posts as placed, which the site copied, let go beside the longer pass (on one core alone, their release
            // left the other idle ~5 ms at 10,000 posts).
            var letGo: [RenderedPost] = []
            swap(&letGo, &placed)
            return memo?.model.caseCollisions(site) { SiteBuilder.caseCollisions(site) } ?? SiteBuilder.caseCollisions(site)
        })
        warnings += notes + caseWarnings
        clock.lap("site model")
        if render {
            warnings += renderMarkdown(&site, options: options, config: config, shortcodes: shortcodes, memo: memo)
            clock.lap("markdown")
            // What the markdown stage freed (each post's source, cmark's arenas) goes back to the system.
            blog_give_back_memory()
            // A post whose Liquid could not run to its end (too deep, too much work) can't be published as it is.
            if warnings.hasErrors { throw BuildFailure(warnings.sortedForDisplay()) }
        }
        // Each post moved out of what was read, not copied (a copy retains every string of the post, and the
        // read posts' release releases them again).
        // Swapped into place: a post appended from a local was copied (and the local released).
        var posts = [Post?](repeating: nil, count: read.count)
        for index in present {
            swap(&posts[index], &read[index].0)
            if render { posts[index]?.body = "" }
        }
        return LoadedSite(site: site, warnings: warnings.sortedForDisplay(), inventory: inventory, posts: posts, dueAt: dueAt)
    }

    /// Each post's messages moved out of what was read into `warnings`, in the files' order; the numbers of the files
    /// that gave a post. On one core, and in place: reading `read[index].1` or asking `read[index].0 != nil` of the
    /// array copied the whole (post, messages) pair, every string of the post retained and released again.
    private static func takeMessages(_ read: inout [(Post?, [Diagnostic])], into warnings: inout [Diagnostic]) -> [Int] {
        var present: [Int] = []
        present.reserveCapacity(read.count)
        for index in read.indices {
            var messages: [Diagnostic] = []
            swap(&messages, &read[index].1)
            warnings += messages
            if read[index].0 != nil { present.append(index) }
        }
        return present
    }

    /// Content: the content folder's files, its messages added to `warnings`; none is an error.
    /// `blog serve` keeps the last build's list while its watcher saw no file added, removed or moved (see BuildMemo).
    /// `scanned` is the walk ``buildSite(_:quick:)`` made beside the theme's compile, when it made one.
    private static func scanContent(_ options: BuildOptions, config: SiteConfig, memo: BuildMemo?,
                                    scanned: Result<ContentInventory, any Error>?, warnings: inout [Diagnostic]) throws -> ContentInventory {
        let (contentDir, contentDisplay) = contentFolder(options, config: config)
        let inventory = try scanned?.get() ?? memo?.inventory(contentDir) { try walkContent(options, config: config) }
            ?? walkContent(options, config: config)
        warnings += inventory.warnings
        if inventory.posts.isEmpty {
            throw BuildFailure(warnings + [.error("no posts found in \(contentDisplay)/: expected *.md or *.markdown files under \(contentDisplay)/")])
        }
        warnings += PageBundle.warnings(inventory, display: contentDisplay)
        return inventory
    }

    /// Content: the content folder's files, as its walk finds them.
    private static func walkContent(_ options: BuildOptions, config: SiteConfig) throws -> ContentInventory {
        let (contentDir, contentDisplay) = contentFolder(options, config: config)
        return try ContentScanner.scan(contentDir, displayPath: contentDisplay, blogFolder: options.source)
    }

    /// Content: every post file of `inventory` read, on all cores, with its messages (a post that is
    /// not used, or does not read, is nil); every error is collected before the build gives up.
    /// `dueAt` is when the first post dated after the build's "now" falls due (seconds since 1970). `reads` hears of
    /// each file read, with its bytes (the incremental layer's state takes what it needs of them).
    private static func readPosts(_ inventory: ContentInventory, options: BuildOptions, config: SiteConfig,
                                  memo: BuildMemo?, reads: PostFileReads?, dueAt: inout Double?) -> [(Post?, [Diagnostic])] {
        let (contentDir, contentDisplay) = contentFolder(options, config: config)
        let timeZone = config.timeZone
        let bundles = PageBundle.Folders(posts: inventory.posts)
        let folderPath = contentDir.path.hasSuffix("/") ? contentDir.path : contentDir.path + "/"
        func readPost(_ number: Int, _ path: String, bundle: Bool) -> (Post?, [Diagnostic]) {
            let source = contentDisplay + "/" + path
            do {
                let file = folderPath + path
                let (data, status) = try PostReader.contentsAndStatus(ofPath: file, source: source)
                let (post, postWarnings) = try PostReader.read(data: data, source: source, contentPath: path, bundle: bundle, timeZone: timeZone)
                // Only a file at the top of content/ can be the home page's: asked first, as finding the
                // last part of every post's path cost 35M instructions for 1,000 posts.
                if !path.utf8.contains(UInt8(ascii: "/")), SiteBuilder.isSectionIndex(path) {
                    reads?.read(number, path: file, data: data, status: status, post: nil)
                    return (nil, postWarnings + [.warning(source, "the home page's _index.md is not used: the home page lists the posts; move its text to a page under pages/")])
                }
                reads?.read(number, path: file, data: data, status: status, post: post)
                return (post, postWarnings)
            } catch let failure as BuildFailure {
                return (nil, failure.diagnostics)
            } catch {
                return (nil, [.error(source, "\(error)")])
            }
        }
        defer { memo?.finishReading() }
        reads?.start(count: inventory.posts.count)
        // Found as each post is read, on every core: read from the array afterwards, each post was copied out of its
        // optional, twice, on one core.
        let due = Mutex<Double?>(nil)
        defer { dueAt = due.withLock { $0 } }
        return Parallel.map(inventory.posts.count) { index -> (Post?, [Diagnostic]) in
            let path = inventory.posts[index]
            let bundle = bundles.contains(path)
            let read: (Post?, [Diagnostic])
            if let memo {
                read = memo.post(path, in: contentDir, bundle: bundle) { readPost(index, path, bundle: bundle) }
            } else {
                read = readPost(index, path, bundle: bundle)
            }
            if let post = read.0, post.dated, post.date > options.now {
                due.withLock { $0 = min($0 ?? .infinity, post.date.timeIntervalSince1970) }
            }
            return read
        }
    }

    /// Site: the posts placed (order, URLs, tags) before their markdown is rendered, so that only posts
    /// that get a page are rendered, and links between posts resolve against the placed site.
    /// `present`: the numbers of the files of `read` that gave a post. With the site, the posts it was built from (its
    /// caller lets them go).
    private static func placePosts(_ read: [(Post?, [Diagnostic])], present: [Int], assets: [String], options: BuildOptions,
                                   config: SiteConfig, memo: SiteModelMemo?) throws -> (Site, [RenderedPost]) {
        let empty = RenderedMarkdown(html: "", summaryHTML: "", headings: [])
        let siteOptions = SiteOptions(includeDrafts: options.drafts, includeFuture: options.future, now: options.now)
        // Each post copied once, into its RenderedPost (not into an array of posts first), on every core: a copy
        // retains each of the post's strings. `Optional.map` of `read[index].0` copied it twice and released one.
        let posts = read.withUnsafeBufferPointer { read in
            Parallel.map(present.count) { RenderedPost(post: read[present[$0]].0!, rendered: empty) }
        }
        return (try SiteBuilder.build(posts: posts, assets: assets, config: config, options: siteOptions, memo: memo), posts)
    }

    /// Markdown: every placed post of `site` rendered (see ``MarkdownStage``), and the messages. Links to
    /// other posts (Liquid's `post_url`, Pelican's `{filename}`) resolve against the placed site through
    /// ``ContentLinks``; shortcodes through the theme's templates. A post `memo` kept from the last build
    /// of the process is not rendered again; when its site model memo gave back the last build's site, only the posts
    /// that changed and those whose markdown depends on other files are rendered, the others' markdown is the last
    /// build's (see ``SiteModelMemo/markdownPlaces()``).
    private static func renderMarkdown(_ site: inout Site, options: BuildOptions, config: SiteConfig, shortcodes: ShortcodeTemplates,
                                       memo: BuildMemo?) -> [Diagnostic] {
        let places = memo?.model.markdownPlaces()
        // Both index every post's page, one per core; `blog serve` keeps them while its site model is kept.
        let content = contentFolder(options, config: config).url
        let (links, images) = memo?.model.lookups { lookups(of: site, content: content) } ?? lookups(of: site, content: content)
        var liquid = MarkdownStage.liquidContext(config: config, resolvePost: { links.href(forPostNamed: $0) },
                                                 resolvePath: { links.href(forPath: $0) })
        liquid.renderShortcode = { call in
            try shortcodes.render(name: call.name, positional: call.positional, named: call.named.map { ($0.key, $0.value) }, inner: call.inner)
        }
        liquid.shortcodeTakesInner = { shortcodes.takesInner($0) }
        let siteWarnings: [Diagnostic]
        (liquid.site, siteWarnings) = JekyllSiteFiles.site(config: config, baseURL: liquid.baseURL, siteURL: liquid.siteURL,
                                                           display: jekyllDisplay(options, config: config))
        // Then each image gets its size from its file, and lazy loading (see ImageAttributes).
        var (rendered, diagnostics) = MarkdownStage.render(places?.count ?? site.posts.count, page: {
            let place = places?[$0] ?? $0
            return (site.posts[place].post, "/" + site.posts[place].url)
        }, config: config, liquid: liquid, liquidPage: JekyllSiteFiles.page, rewriteLinks: { html, post in
            let (linked, warnings, references) = links.rewritePelican(html: html, post: post)
            // Whether the HTML links elsewhere is known from the two searches made here (see BodyText.linksElsewhere).
            let holdsImages = ImageAttributes.holdsImages(linked)
            return (holdsImages ? images.apply(linked, post: post) : linked, warnings, holdsImages || references)
        }, memo: memo, keepingOthers: places != nil)
        for index in rendered.indices {
            let place = places?[index] ?? index
            // Moved into the site, not copied (a copy retains each string, and the array's release releases them again).
            swap(&site.posts[place].rendered, &rendered[index])
            // Rendered, the markdown sources are let go: no later step reads a body (the incremental
            // state reads the files again), and 50,000 posts' are 250 MB kept to the end of the build.
            site.posts[place].post.body = ""
        }
        // A post whose Liquid could not run to its end fails the build: nothing is kept.
        guard let memo, !diagnostics.contains(where: \.hasErrors) else { return siteWarnings + Array(diagnostics.joined()) }
        // The site is kept with its markdown for the next build, which renders again the posts whose markdown the
        // memo does not keep.
        let rerender = rendered.indices.compactMap { index -> Int? in
            let place = places?[index] ?? index
            return memo.keepsMarkdown(of: site.posts[place].post.contentPath) ? nil : place
        }
        return siteWarnings + memo.model.keepRendered(site, places: places, diagnostics: diagnostics, rerender: rerender)
    }

    /// The links between the content files of `site` and its images' table, one on each core.
    private static func lookups(of site: Site, content: URL) -> (ContentLinks, ImageAttributes) {
        Parallel.both({ ContentLinks(site: site) }, { ImageAttributes(site: site, content: content) })
    }

    /// Builds the site and writes it to the output folder: in place when only post bodies changed
    /// since the last build (see BlogIncremental), else whole.
    public static func build(_ options: BuildOptions) throws -> BuildReport {
        try buildSite(options, quick: options.quick).report
    }

    /// Builds the site, and returns the site model with the report (`blog check` reads both);
    /// with `quick`, a build done in place returns no site.
    static func buildSite(_ options: BuildOptions, quick: Bool = false) throws -> (report: BuildReport, site: Site?) {
        blog_fix_large_allocations()
        // Before anything can fail: what changed since the last build is known to the next one.
        if options.buildsAgain {
            BuildMemo.changed(options.changes?.paths, content: options.changes?.content ?? "")
        }
        try requireBlogFolder(options.folder)
        var (config, configWarnings) = try loadConfig(options)
        let (output, outputDisplay) = try outputFolder(options, config: config)
        var clock = StageClock()
        // `blog serve` keeps its theme from one build to the next while the theme's files are as they were.
        var theme = options.buildsAgain ? try themes.theme(name: config.theme, siteRoot: options.source) : nil
        let themeFiles = try theme?.files ?? ThemeFiles.read(name: config.theme, siteRoot: options.source)
        configWarnings += themeFiles.warnings + choosePalette(&config, theme: themeFiles, options: options)
        let content = contentFolder(options, config: config)
        // The incremental layer, the one place it comes in: it builds in place when only post bodies
        // changed since the last build; else the full build runs with it watching (a render hook),
        // and it keeps a state for the next build. With --no-cache it only drops the state this
        // build makes stale; so with relative URLs, whose rewriting moves the bodies within the pages.
        let incremental = try layer(options, config: config, theme: themeFiles, content: content, output: output, outputDisplay: outputDisplay)
        // The templates are compiled here, their errors said before anything else is done, unless the build may be
        // done in place, which renders none: the last build compiled these same files then, and its state keeps the
        // compile's warnings. Should it be a full build after all, they are compiled for it.
        // Beside the compile, the content folder is walked (it needs nothing of the theme: each took ~15 ms on one core at
        // 10,000 posts while the other idled); what the walk found, or its error, is the full build's when it comes to it.
        var scanned: Result<ContentInventory, any Error>?
        if theme == nil, !(quick && !themeFiles.warnings.hasErrors && incremental.mayBuildInPlace()) {
            let compiled: Result<Theme, any Error>
            (compiled, scanned) = Parallel.both({ Result { try Theme.compile(themeFiles) } },
                                                { Result { try walkContent(options, config: config) } })
            theme = try compiled.get()
        }
        // One build of the blog at a time, with the cache or without: two would share the staging
        // folder, the spare copy and the state.
        let (lock, lockWarnings) = try BuildLock.hold(blog: options.source, folder: incremental.stateFolder, create: options.cache)
        defer { lock.release() }
        // Under the lock: the output folder is one a build may replace (no link where it or the
        // folders beside it belong, and no files that blog did not write), or nothing is built.
        let replaced = try OutputFolder.locate(output, display: outputDisplay).checkOwner(writtenBefore: incremental.lastBuildWroteOutput)
        // What it replaces is said once, with this build's report, never kept with the warnings a build
        // in place says again.
        let warnings = configWarnings + Feeds.warnings(config: config, path: options.sourceDisplay + "blog.yml") + lockWarnings
        let outcome = try incremental.build(inPlace: quick, warnings: warnings, strict: { try checkStrict(options, warnings: $0) },
                                            clock: &clock) { observer, clock in
            let compiled = try theme ?? Theme.compile(themeFiles)
            // The compile's warnings are not the configuration's: the state keeps them, for the builds in place.
            return try fullBuild(options, config: config, warnings: warnings + compiled.compileWarnings, theme: compiled, output: output,
                                 outputDisplay: outputDisplay, scanned: scanned, observer: observer, clock: &clock)
        }
        switch outcome {
        case .inPlace(let done):
            return (BuildReport(posts: done.posts, contentPages: done.contentPages, leftOut: done.leftOut, tags: done.tags, pages: done.pages, files: done.files, output: outputDisplay,
                                warnings: replaced + done.warnings, timings: clock.timings, cacheSummary: done.summary), nil)
        case .full(var built, let summary):
            built.report.warnings = replaced + built.report.warnings
            built.report.timings = clock.timings
            built.report.cacheSummary = summary
            return built
        }
    }

    /// The incremental layer of a build of `options`.
    private static func layer(_ options: BuildOptions, config: SiteConfig, theme: ThemeFiles, content: (url: URL, display: String),
                              output: URL, outputDisplay: String) throws -> IncrementalBuild {
        try IncrementalBuild(IncrementalRequest(
            config: config, theme: theme, source: options.source, sourceDisplay: options.sourceDisplay,
            content: content.url, contentDisplay: content.display, output: output, outputDisplay: outputDisplay,
            drafts: options.drafts, future: options.future, now: options.now, version: options.version,
            buildsAgain: options.buildsAgain, ownsOutput: options.privateOutput,
            changesBefore: options.changes?.before), enabled: options.cache && !config.relativeURLs)
    }

    /// For `blog serve`, between builds: makes the spare copy of the site that the next build in place (a body
    /// edit) would otherwise make first, when the last build left none it can take (see BlogIncremental's
    /// `IncrementalBuild.readySpare()`). Whether one was made; false, having done nothing, when blog.yml no longer
    /// reads or another build holds the lock.
    package static func readySpare(_ options: BuildOptions) -> Bool {
        guard options.cache, let (config, _) = try? loadConfig(options),
              let (output, outputDisplay) = try? outputFolder(options, config: config),
              let theme = try? themes.theme(name: config.theme, siteRoot: options.source),
              let incremental = try? layer(options, config: config, theme: theme.files, content: contentFolder(options, config: config),
                                           output: output, outputDisplay: outputDisplay),
              let (lock, _) = try? BuildLock.hold(blog: options.source, folder: incremental.stateFolder, create: false)
        else { return false }
        defer { lock.release() }
        return incremental.readySpare()
    }

    /// The theme of the builds of a process that builds again (`blog serve`), kept while its files are unchanged.
    private static let themes = ThemeMemo()

    /// The whole site built and written: read, placed, rendered (through `observer`'s hook) and
    /// written; `observer` gets the files once they are staged.
    private static func fullBuild(_ options: BuildOptions, config: SiteConfig, warnings configWarnings: [Diagnostic], theme: Theme,
                                  output: URL, outputDisplay: String, scanned: Result<ContentInventory, any Error>?,
                                  observer: FullBuildObserver, clock: inout StageClock) throws -> (report: BuildReport, site: Site?) {
        clock.lap("config and theme")
        let loaded = try loadSite(options, config: config, warnings: configWarnings, render: true, shortcodes: theme.shortcodes,
                                  memo: observer.memo, reads: observer.fileReads, scanned: scanned, clock: &clock)
        let site = loaded.site
        var warnings = loaded.warnings + unusedFilePaths(site, options: options) + unlistedDrafts(site, options: options)
        try checkStrict(options, warnings: warnings)
        // Pages are rendered as they are written, on all cores: see SiteRenderer.pages.
        let hook = observer.renderHook(for: site)
        // With the incremental layer, on a blog built before, each page also gets the digest of its
        // values: a page whose values are the last build's is not rendered again (see
        // BlogIncremental's PartialBuild).
        // The pages' values and the feeds are made beside each other: each has parts that run on one
        // core (the feeds' lists of posts, the values of the list pages), which the other fills.
        // The files after the pages (feeds, static and content files, redirects) are made on the feeds' side, and with a
        // whole site to write, the check and folders' plan of every path (the pages' are the site's pages' output paths):
        // made after the values, they ran alone on one core (~46 ms at 10,000 posts). A build that may write only what
        // changed (in place) makes none.
        let plans = !observer.mayWriteChanges
        let (rendered, after) = Parallel.both({ () -> (files: [OutputFile], inputs: [Digest]?) in
            guard observer.wantsPageInputs else { return (SiteRenderer.pages(site, theme: theme, hook: hook), nil) }
            let rendered = SiteRenderer.pagesAndInputs(site, theme: theme, hook: hook)
            return (rendered.files, rendered.inputs)
        }, { () -> (files: [OutputFile], generated: Set<String>, notes: [Diagnostic], paths: SiteWriter.PathPlan?) in
            let feeds = Feeds.render(site, hook: hook) + Sitemap.render(site, hook: hook) + SearchIndex.render(site, hook: hook)
            // A file of the author's (robots.txt, a feed) at the path of one blog makes replaces it.
            let authored = Dictionary(site.assets.map { ($0.path, $0.source) }) { first, _ in first }
            let content = contentFolder(options, config: config).display
            var files: [OutputFile] = []
            var notes: [Diagnostic] = []
            for file in feeds {
                guard let source = authored[file.path] else { files.append(file); continue }
                notes.append(.note(content + "/" + source, "replaces the \(file.path) that blog makes: a file of yours at the path of a generated one wins"))
            }
            let generated = Set(files.map(\.path))
            let redirects = Redirects.render(site)
            files += theme.staticFiles + assetFiles(site, options: options) + (config.relativeURLs ? relativeLinks(redirects, basePath: config.basePath) : redirects)
            let paths = plans ? SiteWriter.PathPlan(site.pages.map(\.outputPath) + files.map(\.path)) : nil
            return (files, generated, notes, paths)
        })
        var files = rendered.files
        if config.relativeURLs { files = relativeLinks(files, basePath: config.basePath) }
        let pages = files.count
        warnings += after.notes
        files += after.files
        clock.lap("template values and feeds")
        // And what making the values freed, before the pages grow the heap again.
        blog_give_back_memory()
        let built = BuiltSite(site: site, posts: loaded.posts, inventory: loaded.inventory, files: files,
                              warnings: warnings, dueAt: loaded.dueAt, pageInputs: rendered.inputs)
        let generatedPaths = after.generated
        let origins = OriginLookup { OutputOrigins.of($0, site: site, theme: theme, generated: generatedPaths, options: options) }
        let written = try observer.writeChanges(built)
            ?? SiteWriter.write(files, to: output, displayPath: outputDisplay, origins: origins, paths: after.paths) { staged in
                observer.staged(built, in: staged)
            }
        clock.lap("render pages and write")
        if !options.releasesMemory { HeldUntilExit.shared.keep([site, files, loaded]) }
        let posts = site.posts.reduce(0) { $0 + ($1.post.kind == .post ? 1 : 0) }
        let report = BuildReport(posts: posts, contentPages: site.posts.count - posts, leftOut: site.leftOut, tags: site.tags.count, pages: pages,
                                 files: written, output: outputDisplay, warnings: warnings, timings: [])
        return (report, site)
    }

    /// A warning for each `file_paths` entry of blog.yml that names no file of the content folder.
    private static func unusedFilePaths(_ site: Site, options: BuildOptions) -> [Diagnostic] {
        let sources = Set(site.assets.map(\.source))
        let content = site.config.content
        return site.config.filePaths.filter { !sources.contains($0.source) }.map {
            .warning(options.sourceDisplay + "blog.yml", line: $0.line, column: $0.column,
                     "`file_paths`: \"\($0.source)\" is no file of the content folder (\(content)/\($0.source)); nothing is published at \($0.path)")
        }
    }

    /// A note saying that drafts are published unlisted at `permalinks.draft`, as Pelican publishes
    /// them, when the build has any (and no `--drafts`, which lists them).
    private static func unlistedDrafts(_ site: Site, options: BuildOptions) -> [Diagnostic] {
        // By index: filtering the posts would copy each draft whole, and reading `posts` element by element each post.
        guard !options.drafts, let pattern = site.config.permalinks.draft else { return [] }
        let drafts = site.posts.indices.filter { site.posts[$0].post.status == .draft }
        guard let first = drafts.first else { return [] }
        let count = drafts.count == 1 ? "1 draft is" : "\(drafts.count) drafts are"
        return [Diagnostic(.note, "\(count) published unlisted (in no list, feed or sitemap) at `permalinks.draft` (\(pattern)), as Pelican publishes drafts: /\(site.posts[first].url)\(drafts.count > 1 ? ", …" : ""); set `permalinks.draft: none` to leave them out")]
    }

    /// `files` (pages) with every link inside the site relative to its page (`relative_urls`; see ``RelativeURLs``).
    private static func relativeLinks(_ files: [OutputFile], basePath: String) -> [OutputFile] {
        files.map { file in
            let path = file.path
            func relative(_ data: Data) -> Data {
                Data(RelativeURLs.rewrite(html: String(decoding: data, as: UTF8.self), pagePath: path, basePath: basePath).utf8)
            }
            switch file.contents {
            case .made(let maker): return OutputFile(path: path, contents: .made(by: OutputFile.Maker { relative(try maker.make()) }))
            case .bytes(let data): return OutputFile(path: path, contents: .bytes(relative(data)))
            case .copy: return file
            }
        }
    }

    /// The content folder's files that are not posts, copied as they are.
    private static func assetFiles(_ site: Site, options: BuildOptions) -> [OutputFile] {
        let contentDir = contentFolder(options, config: site.config).url
        let copies = site.assets.map { OutputFile(path: $0.path, contents: .copy(from: contentDir.appendingPathComponent($0.source))) }
        // A post's own file (`output_sources`) is made from its bytes rather than copied: a build that
        // writes only what changed compares what is made with the published file, and takes copies
        // to be of files that did not change, which a post that was edited is not.
        return copies + site.sources.map { copy in
            let file = contentDir.appendingPathComponent(copy.source)
            return OutputFile(path: copy.path, contents: .made(by: OutputFile.Maker { try Data(contentsOf: file) }))
        }
    }

    /// With `--strict`, any warning (not a note) fails the build before anything is written.
    static func checkStrict(_ options: BuildOptions, warnings: [Diagnostic]) throws {
        let counted = warnings.warningsOnly.count
        if options.strict, counted > 0 {
            throw BuildFailure(warnings + [.error("--strict: \(counted) warning\(counted == 1 ? "" : "s") above; fix them or build without --strict")])
        }
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

/// The incremental layer's memo keeps the markdown stage's posts from one build of `blog serve` to the next.
extension BuildMemo: MarkdownMemo {}
