import BlogCore

/// A generator whose default URLs `permalinks:` can reproduce (`permalinks: pelican`), so that the
/// links, bookmarks and search results of a blog moved to `blog` keep working.
public enum PermalinkPreset: String, Sendable, Equatable, CaseIterable {
    /// Pelican's defaults: `{slug}.html`, `pages/{slug}.html`, `tag/{slug}.html`, `index2.html`,
    /// `feeds/all.atom.xml`, `category/{slug}.html`, `author/{slug}.html`, `feeds/all-{lang}.atom.xml`.
    case pelican
    /// Jekyll's default `permalink: date`: `/:categories/:year/:month/:day/:title.html`, pages
    /// at `{slug}.html`, jekyll-paginate's `page2/`, jekyll-feed's `feed.xml`.
    case jekyll
    /// Jekyll's `permalink: pretty`: `/:categories/:year/:month/:day/:title/`, pages at `{slug}/`.
    case jekyllPretty = "jekyll-pretty"
    /// Hugo's defaults: a post at its folder under `content/` and its slug (`posts/{slug}/`),
    /// lower-cased; `tags/{slug}/`, `categories/{slug}/`, `page/2/` (and `page/1/` sending to the
    /// first), RSS at `index.xml`, a list per section (`posts/`).
    case hugo

    /// The names `permalinks:` accepts, for messages.
    package static var names: String { allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ") }

    /// The preset meant by a mistyped name (`jekyl` → `jekyll`), when one is near.
    static func nearest(_ name: String) -> String? { EditDistance.nearest(name, among: allCases.map(\.rawValue)) }

    /// The patterns of this generator's default URLs.
    package var permalinks: Permalinks {
        var p = Permalinks()
        p.preset = self
        switch self {
        case .pelican:
            p.post = "{slug}.html"
            p.page = "pages/{slug}.html"
            p.tag = "tag/{slug}.html"
            p.tagIndex = "tags.html"
            p.archives = "archives.html"
            p.listPages = .numberedFiles
            p.atomFeed = "feeds/all.atom.xml"
            p.rssFeed = "feeds/all.rss.xml"
            p.tagFeed = "feeds/{slug}.tag.atom.xml"
            p.category = TermPatterns(page: "category/{slug}.html", index: "categories.html", atomFeed: "feeds/{slug}.atom.xml")
            p.author = TermPatterns(page: "author/{slug}.html", index: "authors.html",
                                    atomFeed: "feeds/{slug}.atom.xml", rssFeed: "feeds/{slug}.rss.xml")
            p.siteAuthorPages = true
            p.folderCategories = true
            p.languageFeed = "feeds/all-{lang}.atom.xml"
            p.postInLanguage = "{slug}-{lang}.html"
            p.pageInLanguage = "pages/{slug}-{lang}.html"
            p.asciiSlugs = true
            p.draft = "drafts/{slug}.html"
            p.draftPage = "drafts/pages/{slug}.html"
        case .jekyll, .jekyllPretty:
            let pretty = self == .jekyllPretty
            p.post = "{categories}/{year}/{month}/{day}/{slug}" + (pretty ? "/" : ".html")
            p.page = pretty ? "{slug}/" : "{slug}.html"
            p.listPages = .numberedFolders
            // Jekyll makes no category or author pages by itself (plugins do).
            p.category = TermPatterns(page: nil, index: nil)
            p.author = TermPatterns(page: nil, index: nil)
        case .hugo:
            p.post = "{folder}/{slug}/"
            p.page = "{folder}/{slug}/"
            p.rssFeed = "index.xml"
            p.tagFeed = "tags/{slug}/index.xml"
            p.tagIndexFeed = "tags/index.xml"
            // Hugo's default taxonomies are tags and categories.
            p.category = TermPatterns(page: "categories/{slug}/", index: "categories/", atomFeed: "categories/{slug}/index.xml",
                                      indexFeed: "categories/index.xml")
            p.author = TermPatterns(page: nil, index: nil)
            // Each top folder of content/ is a section, with its list (a content `_index.md` takes its place).
            p.section = TermPatterns(page: "{slug}/", index: nil, atomFeed: "{slug}/index.xml")
            p.lowercase = true
            p.firstPageAlias = true
            p.hugoTagSlugs = true
        }
        return p
    }
}
