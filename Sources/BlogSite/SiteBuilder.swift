import BlogConfig
import BlogContent
import BlogCore
import Foundation

/// Which posts take part in a build.
package struct SiteOptions: Sendable {
    /// Include drafts (`--drafts`).
    var includeDrafts: Bool
    /// Include posts dated after `now` (`--future`).
    var includeFuture: Bool
    /// The build's "now", for future posts.
    var now: Date

    package init(includeDrafts: Bool = false, includeFuture: Bool = false, now: Date = Date()) {
        self.includeDrafts = includeDrafts
        self.includeFuture = includeFuture
        self.now = now
    }
}

/// A post read and rendered, before it has a place in the site.
package struct RenderedPost: Sendable {
    /// The post as read.
    package var post: Post
    /// Its rendered body and summary.
    var rendered: RenderedMarkdown

    package init(post: Post, rendered: RenderedMarkdown) {
        self.post = post
        self.rendered = rendered
    }
}

/// Turns posts into the site model: which posts are in, their order, URLs, tags, archives and
/// the list of pages. Every URL is checked here: two pages that want the same URL are an error
/// naming both sources.
package enum SiteBuilder {
    /// Builds the site model. Throws ``BuildFailure`` when URLs collide.
    /// - Parameters:
    ///   - posts: every post read, in any order.
    ///   - assets: files under `content/` to copy as they are (paths relative to `content/`).
    ///   - memo: the last build's site model, given back with the posts put in when they differ from the last build's
    ///     only in what the pages show (a title, a body); else its related posts while their inputs are as they were
    ///     (`blog serve`).
    package static func build(posts: [RenderedPost], assets: [String] = [], config: SiteConfig,
                      options: SiteOptions, memo: SiteModelMemo? = nil) throws -> Site {
        if let kept = memo?.site(of: posts, assets: assets, options: options) { return kept }
        var leftOut = LeftOut()
        // Indices, not copies: a post copied is every one of its strings retained, and released again.
        // Each field read in place: `let post = posts[index].post` copied the post.
        let included = posts.indices.filter { index in
            switch posts[index].post.status {
            case .draft:
                // Published unlisted where `permalinks.draft` (or `draft_page`) says, as Pelican does.
                let pattern = posts[index].post.kind == .page ? config.permalinks.draftPage : config.permalinks.draft
                if !options.includeDrafts && pattern == nil {
                    leftOut.drafts += 1
                    return false
                }
            case .published, .hidden: break
            }
            if !options.includeFuture, posts[index].post.date > options.now {
                leftOut.future += 1
                return false
            }
            return true
        }
        // Sorting indices moves integers, not whole posts; the posts compared are read in place (an
        // array's element passed as an argument was copied, twice a comparison).
        let order = posts.withUnsafeBufferPointer { posts in included.sorted { newestFirst(posts[$0], posts[$1]) } }
        var sitePosts = Parallel.map(order.count) { number -> SitePost in
            // The one copy of the post, the site's: `let item = posts[…]` copied the whole RenderedPost, and its post
            // was copied again into the SitePost.
            let post = posts[order[number]].post
            let (url, outputPath) = placement(of: post, config: config)
            let future = post.dated && post.date > options.now
            return SitePost(post: post, rendered: posts[order[number]].rendered, url: url, outputPath: outputPath, future: future)
        }
        let permalinks = config.permalinks
        let replacements = self.replacements(sitePosts, permalinks: permalinks)
        for (generated, index) in replacements where outputPath(for: sitePosts[index].url) == generated.outputPath(in: permalinks) {
            // `save_as: index.html` names the home page's file: its links go to `/`, as the home page's do.
            sitePosts[index].url = generated.url(in: permalinks)
        }
        let listURL = replacements[.home] == nil ? "" : config.permalinks.homeList
        let (translated, versions) = translations(sitePosts, config: config)
        for (index, others) in versions { sitePosts[index].translations = others }
        let listed = sitePosts.indices.filter {
            let status = sitePosts[$0].post.status
            // A draft published at `permalinks.draft` is listed only in a `--drafts` build.
            return status != .hidden && (status != .draft || options.includeDrafts) && sitePosts[$0].post.kind == .post && !translated.contains($0)
        }
        // The taxonomies, the archives, the assets' places and the related posts need only the placed posts, not each
        // other: each made on a core of its own (one core alone made them for 40% of this step). The related posts
        // start with a part on one core (their tables of terms), made while the other core makes the taxonomies (whose
        // tags, the longest of them, left that core idle), then spread over every core.
        let placedPosts = sitePosts
        let (relatedPosts, (terms, (archives, placedAssets))) = Parallel.both({
            guard let memo else { return related(posts: placedPosts, listed: listed, limit: config.relatedPosts) }
            return memo.related(of: placedPosts, listed: listed, limit: config.relatedPosts) {
                related(posts: placedPosts, listed: listed, limit: config.relatedPosts)
            }
        }, {
            Parallel.both({
                Parallel.map(Taxonomy.allCases.count) { number -> [TagGroup] in
                    let taxonomy = Taxonomy.allCases[number]
                    guard taxonomy != .section else { return sectionGroups(placedPosts, translated: translated, config: config) }
                    return termGroups(taxonomy, placedPosts, listed: listed, config: config)
                }
            }, {
                (archiveYears(placedPosts, listed: listed.filter { placedPosts[$0].post.dated }, timeZone: config.timeZone),
                 placeAssets(assets, posts: placedPosts, allPosts: posts, filePaths: config.filePaths))
            })
        })
        let (tags, categories, authors, sections) = (terms[0], terms[1], terms[2], terms[3])

        var pages: [Page] = sitePosts.indices.map { Page(kind: .post($0), url: sitePosts[$0].url, outputPath: sitePosts[$0].outputPath) }
        for pagination in paginate(listed, perPage: config.paginate, firstURL: listURL, style: permalinks.listPages) {
            let url = listPageURL(listURL, pagination.number, style: permalinks.listPages)
            pages.append(Page(kind: .home(pagination), url: url, outputPath: outputPath(for: url)))
        }
        for (taxonomy, groups) in [(Taxonomy.tag, tags), (.category, categories), (.author, authors), (.section, sections)] {
            pages += termPages(taxonomy, groups: groups, config: config)
        }
        for (generated, kind) in [(GeneratedPage.tagIndex, Page.Kind.termIndex(.tag)), (.archives, .archives), (.notFound, .notFound)]
        where replacements[generated] == nil {
            pages.append(Page(kind: kind, url: generated.url(in: permalinks), outputPath: generated.outputPath(in: permalinks)))
        }

        var redirects: [Redirect] = []
        for index in sitePosts.indices {
            for alias in sitePosts[index].post.aliases {
                redirects.append(Redirect(url: alias, outputPath: outputPath(for: alias), target: index))
            }
        }
        if permalinks.firstPageAlias {
            for page in pages {
                let first: String
                switch page.kind {
                case .home(let pagination) where pagination.number == 1: first = listURL
                case .term(_, _, let pagination) where pagination.number == 1: first = page.url
                default: continue
                }
                let alias = first + "page/1/"
                redirects.append(Redirect(url: alias, outputPath: outputPath(for: alias), target: nil, location: first))
            }
        }
        var diagnostics: [Diagnostic] = []
        for rule in config.redirects {
            switch redirectTarget(rule.to, posts: sitePosts, content: config.content) {
            case .success(let redirect):
                var redirect = redirect
                redirect.url = rule.from
                redirect.outputPath = outputPath(for: rule.from)
                redirect.rule = rule
                redirects.append(redirect)
            case .failure(let message):
                diagnostics.append(.error(rule.file, line: rule.line, column: rule.column, message.text))
            }
        }

        var site = Site(config: config, posts: sitePosts, listed: listed, tags: tags, archives: archives,
                        pages: pages, assets: placedAssets)
        site.categories = categories
        site.authors = authors
        site.sections = sections
        site.redirects = redirects
        site.sources = sourceCopies(sitePosts, config: config)
        site.translations = translated
        site.replacements = replacements
        site.listURL = listURL
        site.leftOut = leftOut
        site.related = relatedPosts
        // The URL check and the series need only the placed site, not each other: one on each core (each ~5 ms on one
        // core alone at 10,000 posts, while the other idled).
        let placed = site
        let (collisions, grouped) = Parallel.both({ urlCollisions(placed) }, { series(posts: sitePosts, listed: listed) })
        (site.series, site.seriesOf) = grouped
        diagnostics += collisions
        if !diagnostics.isEmpty { throw BuildFailure(diagnostics.sortedForDisplay()) }
        memo?.keep(site, posts: posts, order: order, assets: assets, options: options)
        return site
    }

    /// Newest first, undated posts last; ties broken by title, then source path, so the order
    /// never depends on input order.
    static func newestFirst(_ a: RenderedPost, _ b: RenderedPost) -> Bool {
        if a.post.dated != b.post.dated { return a.post.dated }
        if a.post.date != b.post.date { return a.post.date > b.post.date }
        if a.post.title != b.post.title { return a.post.title < b.post.title }
        return a.post.source < b.post.source
    }
}

extension String {
    /// nil when empty.
    package var nilIfEmpty: String? { isEmpty ? nil : self }
}
