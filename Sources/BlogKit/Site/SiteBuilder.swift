import Foundation

/// Which posts take part in a build.
public struct SiteOptions: Sendable {
    /// Include drafts (`--drafts`).
    public var includeDrafts: Bool
    /// Include posts dated after `now` (`--future`).
    public var includeFuture: Bool
    /// The build's "now", for future posts.
    public var now: Date

    public init(includeDrafts: Bool = false, includeFuture: Bool = false, now: Date = Date()) {
        self.includeDrafts = includeDrafts
        self.includeFuture = includeFuture
        self.now = now
    }
}

/// A post read and rendered, before it has a place in the site.
public struct RenderedPost: Sendable {
    /// The post as read.
    public var post: Post
    /// Its rendered body and summary.
    public var rendered: RenderedMarkdown

    public init(post: Post, rendered: RenderedMarkdown) {
        self.post = post
        self.rendered = rendered
    }
}

/// Turns posts into the site model: which posts are in, their order, URLs, tags, archives and
/// the list of pages. Every URL is checked here: two pages that want the same URL are an error
/// naming both sources.
public enum SiteBuilder {
    /// Builds the site model. Throws ``BuildFailure`` when URLs collide.
    /// - Parameters:
    ///   - posts: every post read, in any order.
    ///   - assets: files under `content/` to copy as they are (paths relative to `content/`).
    public static func build(posts: [RenderedPost], assets: [String] = [], config: SiteConfig,
                             options: SiteOptions) throws -> Site {
        let included = posts.filter { item in
            switch item.post.status {
            case .draft: if !options.includeDrafts { return false }
            case .published, .hidden: break
            }
            return options.includeFuture || item.post.date <= options.now
        }
        let ordered = included.sorted(by: newestFirst)
        let sitePosts = ordered.map { item -> SitePost in
            let url = postURL(item.post, config: config)
            return SitePost(post: item.post, rendered: item.rendered, url: url, outputPath: outputPath(for: url))
        }
        let listed = sitePosts.indices.filter { sitePosts[$0].post.status != .hidden }
        let tags = tagGroups(sitePosts, listed: listed, config: config)
        let archives = archiveYears(sitePosts, listed: listed, timeZone: config.timeZone)

        var pages: [Page] = sitePosts.indices.map { Page(kind: .post($0), url: sitePosts[$0].url, outputPath: sitePosts[$0].outputPath) }
        for pagination in paginate(listed, perPage: config.paginate, firstURL: "") {
            let url = pagination.number == 1 ? "" : "page/\(pagination.number)/"
            pages.append(Page(kind: .home(pagination), url: url, outputPath: outputPath(for: url)))
        }
        for (index, group) in tags.enumerated() {
            for pagination in paginate(group.posts, perPage: config.paginate, firstURL: group.url) {
                let url = pagination.number == 1 ? group.url : "\(group.url)page/\(pagination.number)/"
                pages.append(Page(kind: .tag(index, pagination), url: url, outputPath: outputPath(for: url)))
            }
        }
        pages.append(Page(kind: .tagIndex, url: "tags/", outputPath: "tags/index.html"))
        pages.append(Page(kind: .archives, url: "archives/", outputPath: "archives/index.html"))
        pages.append(Page(kind: .notFound, url: "404.html", outputPath: "404.html"))

        let site = Site(config: config, posts: sitePosts, listed: listed, tags: tags, archives: archives,
                        pages: pages, assets: assets)
        let collisions = urlCollisions(site)
        if !collisions.isEmpty { throw BuildFailure(collisions) }
        return site
    }

    /// Newest first; ties broken by title, then source path, so the order never depends on input order.
    static func newestFirst(_ a: RenderedPost, _ b: RenderedPost) -> Bool {
        if a.post.date != b.post.date { return a.post.date > b.post.date }
        if a.post.title != b.post.title { return a.post.title < b.post.title }
        return a.post.source < b.post.source
    }

    /// The post's URL from the permalink pattern (`posts/{slug}/`).
    static func postURL(_ post: Post, config: SiteConfig) -> String {
        let fields = CivilTime(post.date, timeZone: config.timeZone)
        var url = config.permalinks.post
        let values: [(String, String)] = [
            ("{year}", String(format: "%04d", fields.year)),
            ("{month}", String(format: "%02d", fields.month)),
            ("{day}", String(format: "%02d", fields.day)),
            ("{slug}", post.slug),
            ("{category}", post.category?.slug.nilIfEmpty ?? "uncategorized"),
        ]
        for (placeholder, value) in values where url.contains(placeholder) {
            url = url.replacingOccurrences(of: placeholder, with: value)
        }
        return url
    }

    /// `posts/x/` -> `posts/x/index.html`; a URL ending in `.html` is its own file.
    static func outputPath(for url: String) -> String {
        if url.isEmpty { return "index.html" }
        return url.hasSuffix("/") ? url + "index.html" : url
    }

    /// Tags of the listed posts, by slug; the display name is the first spelling in date order.
    static func tagGroups(_ posts: [SitePost], listed: [Int], config: SiteConfig) -> [TagGroup] {
        var groups: [String: TagGroup] = [:]
        for index in listed.reversed() {  // oldest first, so the oldest spelling names the tag
            for tag in posts[index].post.tags where !tag.slug.isEmpty {
                if groups[tag.slug] == nil {
                    let url = config.permalinks.tag.replacingOccurrences(of: "{slug}", with: tag.slug)
                    groups[tag.slug] = TagGroup(tag: tag, posts: [], url: url)
                }
                groups[tag.slug]!.posts.append(index)
            }
        }
        return groups.values
            .map { group in var g = group; g.posts.reverse(); return g }  // newest first
            .sorted { $0.tag.slug < $1.tag.slug }
    }

    /// Listed posts by year and month in the site's time zone, newest first.
    static func archiveYears(_ posts: [SitePost], listed: [Int], timeZone: TimeZone) -> [ArchiveYear] {
        var years: [ArchiveYear] = []
        for index in listed {  // newest first already
            let fields = CivilTime(posts[index].post.date, timeZone: timeZone)
            if years.last?.year != fields.year {
                years.append(ArchiveYear(year: fields.year, months: []))
            }
            if years[years.count - 1].months.last?.month != fields.month {
                years[years.count - 1].months.append(ArchiveMonth(month: fields.month, posts: []))
            }
            let y = years.count - 1, m = years[y].months.count - 1
            years[y].months[m].posts.append(index)
        }
        return years
    }

    /// Splits a list into pages; page 1 lives at `firstURL`, page N at `firstURL + "page/N/"`.
    /// An empty list still has one (empty) page.
    static func paginate(_ items: [Int], perPage: Int, firstURL: String) -> [Pagination] {
        let size = max(1, perPage)
        let count = max(1, (items.count + size - 1) / size)
        func url(_ n: Int) -> String { n == 1 ? firstURL : "\(firstURL)page/\(n)/" }
        return (1...count).map { n in
            let start = (n - 1) * size
            let slice = Array(items[min(start, items.count)..<min(start + size, items.count)])
            return Pagination(number: n, count: count, posts: slice,
                              newerURL: n > 1 ? url(n - 1) : nil,
                              olderURL: n < count ? url(n + 1) : nil)
        }
    }

    /// Every output path wanted twice (pages and copied assets), as errors naming both sources.
    static func urlCollisions(_ site: Site) -> [Diagnostic] {
        var owners: [String: String] = [:]   // output path -> who wants it
        var diagnostics: [Diagnostic] = []
        func describe(_ page: Page) -> String {
            switch page.kind {
            case .post(let i): return site.posts[i].post.source
            case .home: return "the home page list"
            case .tag(let i, _): return "the page of tag \"\(site.tags[i].tag.name)\""
            case .tagIndex: return "the tags index"
            case .archives: return "the archives page"
            case .notFound: return "the 404 page"
            }
        }
        func claim(_ path: String, by owner: String, blameNewcomer: Bool) {
            if let first = owners[path] {
                let shownURL = "/" + (path.hasSuffix("/index.html") ? String(path.dropLast("index.html".count)) : path)
                let location = blameNewcomer ? owner : first
                let other = blameNewcomer ? first : owner
                diagnostics.append(.error(location, "URL \(shownURL) is also wanted by \(other): two pages can't share a URL; give one of them another `slug`"))
            } else {
                owners[path] = owner
            }
        }
        // Generated pages first, so a post that collides with one is the one named at fault.
        for page in site.pages where !isPost(page) { claim(page.outputPath, by: describe(page), blameNewcomer: false) }
        for page in site.pages where isPost(page) { claim(page.outputPath, by: describe(page), blameNewcomer: true) }
        for asset in site.assets { claim(asset, by: "content/" + asset, blameNewcomer: true) }
        return diagnostics.sortedForDisplay()
    }

    private static func isPost(_ page: Page) -> Bool {
        if case .post = page.kind { return true }
        return false
    }
}

extension String {
    /// nil when empty.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
