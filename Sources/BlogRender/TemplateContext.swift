import BlogConfig
import BlogContent
import BlogCore
import BlogSite
import Foundation
import Mustache

/// The values templates see, as plain dictionaries and arrays (swift-mustache reads those without
/// reflection). Everything a page shares with others (each post's dictionary, the tags, the
/// archives) is built once here; a page's own dictionary only points at them.
/// docs/templates.md lists every key.
struct TemplateContext {
    let site: Site
    private let links: SiteLinks
    /// Holds the dictionary of each post of ``Site/posts``, which the texts rendered once per post
    /// render from too.
    private let table: PostTable
    /// One record per post of ``Site/posts``.
    private var posts: [TemplateRecord] { table.posts }
    /// One record per term of each taxonomy (``Site/terms(_:)``), in ``PostValues/termLayout``.
    private let terms: [Taxonomy: [TemplateRecord]]
    /// What every page sees: `config`, `links`, `tags`, `archives`, the site's `feeds`; in ``pageLayout``, which
    /// each page's values start from a copy of.
    private let shared: TemplateRecord.Builder
    /// The keys of every page's values (``page(_:)``), at the same slots on every page: a template finds a page's
    /// value by its name's number, not by hashing its text (see ``TemplateRecord``).
    let pageLayout: RecordLayout
    /// ``noAbout`` and ``aboutTemplates``, held here: each read of a static is a call (`swift_once`) on every page.
    private let emptyAbout = Self.noAbout, pageTemplates = Self.aboutTemplates
    /// The site menu (`nav`) of each page template, its own entry marked current.
    private let navs: [String: [[String: Any]]]
    /// The `feeds` of each term's pages, by index into ``Site/terms(_:)``.
    private let termFeeds: [Taxonomy: [[[String: Any]]]]
    /// `taxonomy` of each taxonomy's pages.
    private let taxonomies: [Taxonomy: [String: Any]]
    /// The content paths of the site's other files (``Site/assets``), where a post's image may be.
    private let bundleFiles: Set<String>
    /// With digests (see ``PageInputs``): each post's values, by index into ``Site/posts``, its
    /// real body standing for `html`; else empty.
    let postDigests: [Digest]
    /// With digests: the digests of the values many pages show, by their identity (see ``SharedDigests``).
    private(set) var sharedDigests = SharedDigests()

    /// Builds the dictionaries of `site`, the posts' on every core. Each post's `html` is its
    /// rendered body, or with `marks` its marker (see ``BodyMarks/templateBody(post:)``).
    /// Each of `postPartials` adds to every post the text it renders from the post's values,
    /// under its key (see ``ListSummaries/postPartials``); so does `listEntry`, the post's entry in
    /// the lists, under ``ListSummaries/key``. With `digests`, it also makes the digests that
    /// ``inputs(of:template:values:reads:)`` reads, with the part of each post's digest that `memo` kept where
    /// the post is as it was (see ``PostDigestMemo``). `pageKeys` are keys a page's values may take besides
    /// those ``page(_:)`` sets (the texts of ``SharedPartials``).
    init(site: Site, marks: BodyMarks? = nil, postPartials: [(key: String, render: (Any) -> [UInt8])] = [],
         listEntry: ((Any) -> [UInt8])? = nil, digests: Bool = false, memo: PostDigestMemo? = nil, pageKeys: [String] = []) {
        self.site = site
        let links = SiteLinks(config: site.config)
        self.links = links
        let terms = Dictionary(uniqueKeysWithValues: Taxonomy.allCases.map { taxonomy in
            (taxonomy, site.terms(taxonomy).map { group -> TemplateRecord in
                var values = TemplateRecord.Builder(PostValues.termLayout)
                values.set("name", group.tag.name)
                values.set("slug", group.tag.slug)
                values.set("href", links.href(group.url))
                values.set("count", group.posts.count)
                values.set("linked", true)
                return values.record
            })
        })
        self.terms = terms
        let tags = terms[.tag]!
        let table = PostTable()
        var rendered = postPartials
        if let listEntry { rendered.append((ListSummaries.key, listEntry)) }
        // In `blog serve`, the values of the posts whose values come out as in the last build (``PostDigestMemo``),
        // and the entries of the posts that are the last build's.
        let termsDigest = digests && memo != nil ? Self.termsDigest(terms) : .zero
        // One layout for every post: the translations and the texts below besides PostValues' keys.
        let layout = PostValues.layout(adding: ["translations"] + rendered.map(\.key))
        // Set by their slots, found once here: by name, each was hashed for every post.
        let htmlSlot = layout.slots["html"]!, renderedSlots = rendered.map { layout.slots[$0.key]! }
        let kept = digests ? memo?.keptValues(site: site, terms: termsDigest, layout: layout) : nil
        let builder = PostValues(site: site, links: links, terms: terms, kept: kept?.entries)
        let related = digests ? RelatedEntries(entries: builder.entries, related: site.related, making: kept?.values.map { $0 == nil }) : nil
        let made = Parallel.map(site.posts.count) { index -> (values: TemplateRecord, base: TemplateRecord?, digest: Digest, own: Digest) in
            let html = site.posts[index].rendered.html
            var values: TemplateRecord.Builder, digest: Digest, own: Digest, base: TemplateRecord?
            if let known = kept?.values[index] {
                (digest, own) = (known.digest, known.own)
                // Kept with the real body as `html` (no build's marker, which holds its build's hook); the copy is
                // made here, with this build's marker, and takes the texts below.
                base = known.values
                values = TemplateRecord.Builder(copying: known.values)
                if let marks { values[slot: htmlSlot] = marks.templateBody(post: index) }
            } else {
                values = builder.values(of: site.posts[index], index: index, html: marks?.templateBody(post: index) ?? html,
                                        layout: layout)
                values["translations"] = site.posts[index].translations.map { builder.translationValues(of: site.posts[$0]) }
                // Before the partials, whose texts are made from these values; walked as the dictionary they stand for.
                (digest, own) = digests ? Self.postDigest(values.dictionary, html: html, own: memo?.own(of: site.posts[index]),
                                                          related: related, index: index) : (.zero, .zero)
                if kept != nil {
                    var kept = values
                    if marks != nil { kept.set(slot: htmlSlot, html) }
                    base = kept.record
                }
            }
            // Rendered when a page first shows it: a build that renders some pages (see PageInputs)
            // needs few of them.
            // Each is rendered from the post's values as they end up, texts included, which the
            // table holds once they are all made: one record per post, not one per text.
            for (partial, slot) in zip(rendered, renderedSlots) {
                values.set(slot: slot, RenderedOnce(partial.render, post: index, of: table))
            }
            return (values.record, base, digest, own)
        }
        let posts = made.map(\.values)
        table.posts = posts
        self.table = table
        postDigests = digests ? made.map(\.digest) : []
        if digests, kept != nil {
            memo?.keep(site, terms: termsDigest, values: made.map(\.base), digests: postDigests, own: made.map(\.own), entries: builder.entries)
        }

        let archives = site.archives.map { year -> [String: Any] in
            ["year": year.year, "months": year.months.map { month -> [String: Any] in
                ["year": year.year, "month": month.month, "name": DateFormat.monthName(month.month),
                 "posts": month.posts.map { posts[$0] }]
            }]
        }
        // `config` and `links`, read on every page, as records: found by the numbers of their names (see TemplateRecord).
        let pageLayout = RecordLayout(keys: Self.pageKeys + pageKeys.filter { !Self.pageKeys.contains($0) })
        self.pageLayout = pageLayout
        var shared = TemplateRecord.Builder(pageLayout)
        shared["config"] = TemplateRecord(Self.configValues(site.config, links: links))
        shared["tags"] = tags
        shared["archives"] = archives
        var linkValues: [String: Any] = ["home": links.href(""), "posts": links.href(site.listURL), "css": links.href("style.css")]
        if site.config.search {
            linkValues["search"] = links.href(SearchIndex.path)
            linkValues["searchScript"] = links.href("search.js")
        }
        for page in site.pages {
            switch page.kind {
            case .termIndex(let taxonomy): linkValues[taxonomy.plural] = links.href(page.url)
            case .archives: linkValues["archives"] = links.href(page.url)
            default: break
            }
        }
        // A content page in the place of a generated one is where links to that page go.
        for (generated, index) in site.replacements {
            switch generated {
            case .tagIndex: linkValues["tags"] = links.href(site.posts[index].url)
            case .archives: linkValues["archives"] = links.href(site.posts[index].url)
            case .home, .notFound: break
            }
        }
        shared["links"] = TemplateRecord(linkValues)
        shared["feeds"] = Self.feedValues(Feeds.feedLinks(site: site, term: nil))
        self.shared = shared
        termFeeds = Dictionary(uniqueKeysWithValues: Taxonomy.allCases.map { taxonomy in
            (taxonomy, site.terms(taxonomy).map { Self.feedValues(Feeds.feedLinks(site: site, term: (taxonomy, $0))) })
        })
        // Every key present (false when not so): a name a template looks for inside `{{#taxonomy}}`
        // is then found at the top of the stack, not searched for down the whole of it.
        taxonomies = Dictionary(uniqueKeysWithValues: Taxonomy.allCases.map { taxonomy in
            var values: [String: Any] = ["name": taxonomy.rawValue, "plural": taxonomy.plural, "index": linkValues[taxonomy.plural] ?? false]
            for kind in Taxonomy.allCases { values["is" + kind.rawValue.prefix(1).uppercased() + kind.rawValue.dropFirst()] = kind == taxonomy }
            return (taxonomy, values)
        })
        bundleFiles = Set(site.assets.map(\.source))
        // Each entry: its title, its key in `links`, and the menu places (``menuPlace(of:)``) where it is current.
        var menu = [("Home", "home", ["index"]), ("Tags", "tags", ["tags", Self.place(replacing: .tagIndex)]),
                    ("Archives", "archives", ["archives", Self.place(replacing: .archives)])]
        if site.replacements[.home] != nil {
            // The home page is a content page; the post list has an entry of its own.
            menu[0].2 = [Self.place(replacing: .home)]
            menu.insert(("Blog", "posts", ["index"]), at: 1)
        }
        // A page (`page`) is in no menu entry, but has the menu.
        let taxonomyPages = Taxonomy.allCases.filter { $0 != .tag }.flatMap { [$0.rawValue, $0.plural] }
        let places = Theme.pageTemplates + ["page"] + taxonomyPages + GeneratedPage.allCases.map(Self.place(replacing:))
        navs = Dictionary(uniqueKeysWithValues: places.map { place in
            (place, menu.compactMap { title, key, current -> [String: Any]? in
                linkValues[key].map { ["title": title, "href": $0, "current": current.contains(place)] }
            })
        })
        if digests {
            // In an order that is the same in every build: their digests in that order are ``SharedDigests/values``.
            var many: [Any] = [shared["config"]!, shared["links"]!, shared["feeds"]!]
            many += navs.keys.sorted().map { navs[$0]! } as [Any]
            many += Taxonomy.allCases.map { terms[$0]! } as [Any] + Taxonomy.allCases.map { taxonomies[$0]! } as [Any]
            many += Taxonomy.allCases.flatMap { termFeeds[$0]! }.map { $0 } as [Any]
            many.append(bundleFiles.sorted())
            sharedDigests = Self.sharedDigests(site: site, postDigests: postDigests, values: many, archives: archives)
        }
    }

    /// The menu place of a post or page that stands in the place of `generated`.
    private static func place(replacing generated: GeneratedPage) -> String {
        "in place of \(generated.rawValue)"
    }

    /// Where `page` is in the site menu: its template, or for a content page that replaces a
    /// generated page, that page's place (the menu marks the home entry current on a page at `/`).
    private func menuPlace(of page: Page, template: String) -> String {
        if case .post(let index) = page.kind, let generated = site.replaced(by: index) { return Self.place(replacing: generated) }
        return template
    }

    /// The keys of a page's values that may differ between two pages of the same kind
    /// (``kind(of:)``). The others (`config`, `links`, `tags`, `archives`, `nav`, `feeds`) are
    /// the same on every page of a kind, so ``SharedPartials`` that read only them are rendered
    /// once per kind.
    static let variableKeys: Set<String> = ["post", "neighbours", "posts", "pagination", "tag", "term", "page"]

    /// The kind of `page`, as far as the values outside ``variableKeys`` go: its template (`post`
    /// and `page` for posts and pages), and for a term's pages the term, whose feeds they show.
    func kind(of page: Page) -> String {
        switch page.kind {
        case .post(let index):
            let template = template(of: page)
            // Its menu differs from other pages'.
            return site.replaced(by: index).map { "\(template) \(Self.place(replacing: $0))" } ?? template
        case .term(let taxonomy, let index, _): return "\(taxonomy.rawValue) \(index)"
        case .home, .termIndex, .archives, .notFound: return template(of: page)
        }
    }

    /// The template that renders `page`, before a theme's fallbacks (``SiteRenderer``): `post` or `page` for a post,
    /// `index`, the taxonomy for a term's pages, its plural for its index, `archives`, `404`.
    func template(of page: Page) -> String {
        switch page.kind {
        case .post(let index): return site.posts[index].post.kind == .page ? "page" : "post"
        case .home: return "index"
        // A theme without this taxonomy's template shows it with `tag` (``SiteRenderer``).
        case .term(let taxonomy, _, _): return taxonomy.rawValue
        case .termIndex(let taxonomy): return taxonomy.plural
        case .archives: return "archives"
        case .notFound: return "404"
        }
    }

    /// The keys of a page's values, each at its slot of ``pageLayout``: ``page(_:)`` sets a value by its slot.
    private enum PageKey: Int, CaseIterable {
        case config, tags, archives, links, feeds, post, neighbours, posts, pagination, tag, term, taxonomy, terms, nav, page
    }

    private static let pageKeys = PageKey.allCases.map { "\($0)" }

    /// The keys of `page`, each at its slot of ``aboutLayout``, then each page template's `is…`.
    private enum AboutKey: Int, CaseIterable {
        case url, image, kind, title, description, shareTitle, shareType, twitterCard, canonical
    }

    /// The page templates, whose `is…` follow ``AboutKey`` in ``aboutLayout``.
    private static let aboutTemplates = ["post", "page", "index", "archives", "404"] + Taxonomy.allCases.flatMap { [$0.rawValue, $0.plural] }

    /// The keys of `page`.
    private static let aboutLayout = RecordLayout(keys: AboutKey.allCases.map { "\($0)" }
        + aboutTemplates.map { "is" + $0.prefix(1).uppercased() + $0.dropFirst() })

    /// `page` without values, each page's copied from it: a copy of a few empty slots costs less than making them.
    private static let noAbout = TemplateRecord.Builder(aboutLayout)

    /// The template that renders `page`, and the values it sees, in ``pageLayout``.
    func page(_ page: Page) -> (template: String, values: TemplateRecord.Builder) {
        var values = shared
        var about = emptyAbout
        about.set(slot: AboutKey.url.rawValue, links.href(page.url))
        let template = template(of: page)
        var title: String?
        var description = site.config.description
        switch page.kind {
        case .post(let index):
            let post = posts[index]
            values.set(slot: PageKey.post.rawValue, post)
            let (older, newer) = site.neighbours(of: index)
            if older != nil || newer != nil {
                var neighbours = TemplateRecord.Builder(Self.neighboursLayout)
                neighbours.set(slot: 0, older.map { posts[$0] })
                neighbours.set(slot: 1, newer.map { posts[$0] })
                values.set(slot: PageKey.neighbours.rawValue, neighbours.record)
            }
            title = site.posts[index].post.title
            description = post["description"].flatMap { TemplateRenderer.exactly($0, String.self) } ?? description
            about.set(slot: AboutKey.image.rawValue, Post.image(in: site.posts[index].post.meta).flatMap { imageURL($0, of: site.posts[index]) })
        case .home(let pagination):
            add(pagination, to: &values)
            title = pagination.number > 1 ? "Page \(pagination.number)" : nil
        case .term(let taxonomy, let index, let pagination):
            add(pagination, to: &values)
            values.set(slot: PageKey.tag.rawValue, terms[taxonomy]![index])
            values.set(slot: PageKey.term.rawValue, terms[taxonomy]![index])
            values.set(slot: PageKey.taxonomy.rawValue, taxonomies[taxonomy])
            values.set(slot: PageKey.feeds.rawValue, termFeeds[taxonomy]![index])
            let name = site.terms(taxonomy)[index].tag.name
            title = pagination.number > 1 ? "\(name), page \(pagination.number)" : name
        case .termIndex(let taxonomy):
            values.set(slot: PageKey.terms.rawValue, terms[taxonomy]!)
            values.set(slot: PageKey.taxonomy.rawValue, taxonomies[taxonomy])
            title = taxonomy.plural.prefix(1).uppercased() + taxonomy.plural.dropFirst()
        case .archives:
            title = "Archives"
        case .notFound:
            title = "Page not found"
        }
        values.set(slot: PageKey.nav.rawValue, navs[menuPlace(of: page, template: template)])
        about.set(slot: AboutKey.kind.rawValue, template)
        about.set(slot: AboutKey.allCases.count + pageTemplates.firstIndex(of: template)!, true)
        about.set(slot: AboutKey.title.rawValue, title)
        about.set(slot: AboutKey.description.rawValue, description.isEmpty ? nil : description)
        // What the sharing tags (Open Graph, Twitter cards) say, decided here: each section a template
        // opens costs it a run-time type check, and these were three pairs of them on every page.
        about.set(slot: AboutKey.shareTitle.rawValue, title ?? site.config.title)
        about.set(slot: AboutKey.shareType.rawValue, template == "post" ? "article" : "website")
        let image = about[slot: AboutKey.image.rawValue] != nil
        about.set(slot: AboutKey.twitterCard.rawValue, image ? "summary_large_image" : "summary")
        // The 404 page, generated or not, is served at any missing URL: it has no address of its own.
        if !site.isNotFound(page) { about.set(slot: AboutKey.canonical.rawValue, links.absolute(page.url)) }
        values.set(slot: PageKey.page.rawValue, about.record)
        return (template, values)
    }

    /// The keys of `neighbours`, in the slots ``page(_:)`` sets.
    private static let neighboursLayout = RecordLayout(keys: ["older", "newer"])

    /// The keys of `pagination`.
    private static let paginationLayout = RecordLayout(keys: ["number", "count", "hasLinks", "newer", "older"])

    /// The absolute URL of `image`, the picture `sitePost`'s header names (``Post/image``), for
    /// Open Graph; nil without an absolute base URL. A relative path is a file of the post's bundle
    /// when it has one by that name (copied beside its page), else from the site's root, as
    /// jekyll-seo-tag and Hugo's `absURL` read it; `/img/a.png` is from the host, as a browser reads it.
    private func imageURL(_ image: String, of sitePost: SitePost) -> String? {
        guard let root = links.absolute(""), let page = links.absolute(sitePost.url) else { return nil }
        let post = sitePost.post
        if post.isBundle, let folder = post.contentPath.range(of: "/", options: .backwards).map({ post.contentPath[...$0.lowerBound] }),
           bundleFiles.contains(folder + (image.hasPrefix("./") ? String(image.dropFirst(2)) : image)) {
            return AbsoluteURLs.resolve(image, against: page)
        }
        return AbsoluteURLs.resolve(image, against: root)
    }

    /// `feeds`: the `<link rel="alternate">` entries of a page's head.
    private static func feedValues(_ links: [FeedLink]) -> [[String: Any]] {
        links.map { ["type": $0.type, "title": $0.title, "href": $0.href] }
    }

    /// `posts` and `pagination` of a list page.
    private func add(_ pagination: Pagination, to values: inout TemplateRecord.Builder) {
        values.set(slot: PageKey.posts.rawValue, pagination.posts.map { posts[$0] })
        var about = TemplateRecord.Builder(Self.paginationLayout)
        about.set("number", pagination.number)
        about.set("count", pagination.count)
        about.set("hasLinks", pagination.newerURL != nil || pagination.olderURL != nil)
        about.set("newer", pagination.newerURL.map(links.href))
        about.set("older", pagination.olderURL.map(links.href))
        values.set(slot: PageKey.pagination.rawValue, about.record)
    }

    /// The `config` values; empty texts are left out so that `{{#config.author}}` is false.
    private static func configValues(_ config: SiteConfig, links: SiteLinks) -> [String: Any] {
        var values: [String: Any] = [
            "title": config.title, "language": config.language, "baseURL": config.baseURL,
            "basePath": config.basePath, "timeZone": config.timeZone.identifier,
            "dateFormat": config.dateFormat, "paginate": config.paginate,
        ]
        values.setIfPresent("description", config.description.isEmpty ? nil : config.description)
        values.setIfPresent("author", config.author.isEmpty ? nil : config.author)
        // A renderer's script: a URL as written, a path in the site under the base path.
        for (key, script) in [("mermaidScript", config.mermaidScript), ("mathScript", config.mathScript)] where !script.isEmpty {
            values[key] = script.contains("://") || script.hasPrefix("//") ? script
                : links.href(script.hasPrefix("/") ? String(script.dropFirst()) : script)
        }
        return values
    }
}
