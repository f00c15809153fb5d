import BlogCore
import Foundation

/// The site's settings, read from `blog.yml`. Every field has a default, so a blog without a
/// `blog.yml` builds as it is.
package struct SiteConfig: Sendable, Equatable {
    /// The site's name, shown in the header and in feeds.
    package var title: String = "My Blog"
    /// One line about the site, for the home page and `<meta name="description">`.
    package var description: String = ""
    /// The default author of every post.
    package var author: String = ""
    /// Where the site is published, e.g. `https://example.org/blog/`. Its path is the prefix of
    /// every link; the whole URL makes absolute links in feeds. Always ends with `/`.
    package var baseURL: String = "/"
    /// The site's language, for `<html lang>`.
    package var language: String = "en"
    /// The time zone of dates written without an offset.
    package var timeZone: TimeZone = TimeZone(identifier: "UTC")!
    /// Whether blog.yml names the time zone: without it, Hugo-form posts show their dates in the
    /// offset they were written with, as Hugo does.
    package var timeZoneIsSet = false
    /// The theme's folder name under `themes/`; `default` is built into the binary.
    package var theme: String = "default"
    /// Posts per list page (home, tag pages).
    package var paginate: Int = 10
    /// The category of a post that names none (and, under ``Permalinks/folderCategories``, is at
    /// the top of content/): Pelican's `DEFAULT_CATEGORY`; nil: none (`misc` under that preset).
    package var defaultCategory: String?
    /// How dates are shown on pages, in `strftime` form (`%a %-d %B %Y` gives `Fri 25 November 2016`).
    package var dateFormat: String = "%a %-d %B %Y"
    /// The output folder, relative to the blog folder unless absolute.
    package var output: String = "public"
    /// The folder of posts, relative to the blog folder (`_posts` for a Jekyll site as it is).
    package var content: String = "content"
    /// The folder of the build lock and the last build's state (`cache_dir`), relative to the blog folder unless absolute.
    package var cacheDir: String = ".blog-cache"
    /// URL patterns of the generated pages.
    package var permalinks: Permalinks = Permalinks()
    /// How many of the newest listed posts each feed holds (`feed_limit`), 1 or more.
    package var feedLimit: Int = 20
    /// What raw HTML in posts and their summaries may do (`html`): passed as written by default
    /// (authors own their blogs, and tweet embeds need `<script>`).
    package var html: HTMLPolicy = .trusted
    /// `tagfilter: true`, the older spelling of `html: tagfilter`: whether the tags GFM's tagfilter
    /// lists (`<script>`, `<iframe>`, `<style>`…) are kept from running (by `tagfilter` or `sanitize`).
    package var tagfilter: Bool {
        get { html >= .tagfilter }
        set { html = newValue ? max(html, .tagfilter) : html == .tagfilter ? .trusted : html }
    }
    /// Whether every link of a page inside the site is written relative to the page, folders with their
    /// `index.html` (`relative_urls`, or `blog build --relative-urls`), so the site works opened from the
    /// file system; feeds and the sitemap keep absolute URLs. See `RelativeURLs`.
    package var relativeURLs: Bool = false
    /// Whether code blocks in a known language are highlighted at build time (`highlight`).
    package var highlight: Bool = true
    /// The theme's palette for highlighted code (`highlight_style`): `default` follows the
    /// reader's light or dark scheme; another name puts `class="highlight-NAME"` on each `<pre>`.
    package var highlightStyle: String = "default"
    /// Whether the build writes a search index of the posts (`search`), which the default theme's
    /// search box reads in the browser.
    package var search: Bool = true
    /// The size in bytes over which `blog check` warns about a local image (`image_size_warning`).
    package var imageSizeWarning: Int = 1_000_000
    /// Curly quotes, dashes and ellipses from straight ones (`markdown.smart_punctuation`): nil (`auto`)
    /// follows each post's generator (none in Pelican posts, as Python-Markdown without `smarty`).
    package var smartPunctuation: Bool?
    /// Whether feed entries carry the whole post or only its summary (`feed_content`).
    package var feedContent: FeedContent = .full
    /// The header form `blog new` writes (`new_post_format`); nil: the form most posts already use.
    package var newPostFormat: NewPostFormat?
    /// How fast a reader reads, for `post.reading_minutes` (`words_per_minute`), 1 or more.
    package var wordsPerMinute: Int = 200
    /// The heading levels of a post's table of contents (`toc_levels`: `2-4`, or one level).
    package var tocLevels: ClosedRange<Int> = 1...3
    /// How many related posts each post has (`related_posts`), 0 for none.
    package var relatedPosts: Int = 5
    /// Mermaid's script (`mermaid_script`), which the default theme loads on a page with a diagram:
    /// a path in the site (`js/mermaid.min.js`) or a URL; empty for none.
    package var mermaidScript: String = ""
    /// A math renderer's script (`math_script`), which the default theme loads on a page with math
    /// (MathJax's `tex-chtml.js`): a path in the site or a URL; empty for none.
    package var mathScript: String = ""
    /// Redirect pages at old URLs (`redirects:`), in the file's order.
    package var redirects: [RedirectRule] = []
    /// Content files published at another path (`file_paths:`, Pelican's `EXTRA_PATH_METADATA`
    /// `path`): `extra/CNAME` -> `CNAME`.
    package var filePaths: [FilePathRule] = []
    /// Whether each published post's and page's file is copied beside its page, its page's name
    /// with ``outputSourcesExtension`` for `.html` (`output_sources:`, Pelican's `OUTPUT_SOURCES`).
    package var outputSources = false
    /// The ending of those copies' names (`output_sources_extension:`, Pelican's `OUTPUT_SOURCES_EXTENSION`).
    package var outputSourcesExtension = ".text"
    /// `params:`, read once with the file (empty when absent): values for Liquid's `site.x` in Jekyll-form posts.
    package var params: [String: MetaValue] = [:]
    /// A Jekyll site's `_config.yml` and `_data/` files beside the posts, sorted by path: read with
    /// the configuration (see `JekyllSiteFiles` in BlogBuild) so that a change to them, like one
    /// to blog.yml, makes a full build.
    package var jekyllFiles: [ConfigFile] = []

    /// The configuration with every default.
    package init() {}

    /// The path part of `baseURL`, always starting and ending with `/` (`/` or `/blog/`).
    package var basePath: String {
        var path: String
        if let url = URL(string: baseURL), url.scheme != nil {
            path = url.path
        } else {
            path = baseURL
        }
        if !path.hasPrefix("/") { path = "/" + path }
        if !path.hasSuffix("/") { path += "/" }
        return path
    }
}

/// What a feed entry carries besides its summary.
package enum FeedContent: String, Sendable, Equatable, CaseIterable {
    /// The whole rendered post (Atom `<content>`, RSS `<content:encoded>`, JSON Feed `content_html`).
    case full
    /// Only the summary: readers link to the site for the rest.
    case summary
}

/// A header form `blog new` can write (`new_post_format` in blog.yml).
public enum NewPostFormat: String, Sendable, Equatable, CaseIterable {
    /// `Key: value` lines up to the first blank line (Pelican).
    case pelican
    /// YAML between `---` lines (Jekyll, Hugo).
    case yaml
    /// TOML between `+++` lines (Hugo, Zola).
    case toml
}

/// URL patterns, relative to the site root, ending with `/` (the page is `index.html` in that folder).
package struct Permalinks: Sendable, Equatable {
    /// A post's URL: `{year}`, `{month}`, `{day}`, `{slug}` and `{category}` are replaced.
    package var post: String = "posts/{slug}/"
    /// A tag's list page: `{slug}` is the tag's slug.
    package var tag: String = "tags/{slug}/"
    /// A page's URL (a file under `content/pages/`): `{slug}` is replaced.
    package var page: String = "{slug}/"
    /// Where the post list goes when a content page replaces the home page (its `save_as`,
    /// `url` or `permalink` names `index.html` or `/`): a folder, its next pages under `page/N/`.
    package var homeList: String = "blog/"
    /// The generator whose default URLs these are (`permalinks: pelican`), or nil for blog's own.
    package var preset: PermalinkPreset?
    /// The tags index (`tags/`; Pelican's `tags.html`).
    package var tagIndex: String = "tags/"
    /// The archives page (`archives/`; Pelican's `archives.html`).
    package var archives: String = "archives/"
    /// Where page 2 and on of a list go: see ``ListPages``.
    package var listPages: ListPages = .folders
    /// The site's Atom feed.
    package var atomFeed: String = "feed.xml"
    /// The site's RSS feed.
    package var rssFeed: String = "rss.xml"
    /// The site's JSON feed.
    package var jsonFeed: String = "feed.json"
    /// A tag's Atom feed: `{slug}` is the tag's slug; nil puts `feed.xml` in the tag page's folder.
    package var tagFeed: String?
    /// The feed of the tags index (Hugo's `tags/index.xml`); nil: none.
    package var tagIndexFeed: String?
    /// An Atom feed per language of the posts and their translations (Pelican's
    /// `feeds/all-{lang}.atom.xml`); nil: none.
    package var languageFeed: String?
    /// A post in another language than the site's: `{slug}` and `{lang}` are replaced
    /// (Pelican's `{slug}-{lang}.html`); nil puts the post's usual URL under `<lang>/`.
    package var postInLanguage: String?
    /// A page in another language than the site's, as ``postInLanguage``.
    package var pageInLanguage: String?
    /// Whether URLs made from file and folder names are lower-cased (Hugo's, unless `disablePathToLower`).
    package var lowercase: Bool = false
    /// Whether each paginated list also has a `page/1/` that sends readers to its first page, as Hugo's lists do.
    package var firstPageAlias: Bool = false
    /// Whether slugs made from titles and tag names are spelt in ASCII (`café` -> `cafe`), as
    /// Pelican's are; a `slug` a header gives is kept as it is.
    package var asciiSlugs: Bool = false
    /// Whether a tag's URL takes Hugo's `urlize` of its name (`C++` -> `c++`) rather than its slug.
    package var hugoTagSlugs: Bool = false
    /// A category's pages (`categories/{slug}/`, `categories/`); no page pattern: none are made.
    package var category = TermPatterns(page: "categories/{slug}/", index: "categories/")
    /// An author's pages (`authors/{slug}/`, `authors/`); no page pattern: none are made.
    package var author = TermPatterns(page: "authors/{slug}/", index: "authors/")
    /// A section's list pages (Hugo's `posts/`, with its feed and `page/2/`); none by default.
    package var section = TermPatterns(page: nil, index: nil)
    /// Whether the site's `author` has author pages when no post names another, as Pelican makes
    /// them (its `AUTHOR` is every post's author by default); else a blog by one person has none.
    package var siteAuthorPages: Bool = false
    /// Whether a post without a category is in its folder's (`posts` too), or `misc` at the top
    /// of content/, as Pelican's `USE_FOLDER_AS_CATEGORY` and `DEFAULT_CATEGORY` put it.
    package var folderCategories: Bool = false

    /// Where a draft is published, unlisted, in every build (Pelican's `DRAFT_SAVE_AS`,
    /// `drafts/{slug}.html`, in the `pelican` preset); nil: drafts are left out but with `--drafts`.
    package var draft: String?
    /// Where a draft page is published, as ``draft`` (Pelican's `drafts/pages/{slug}.html`).
    package var draftPage: String?

    /// The patterns of `taxonomy`'s pages: for tags, ``tag``, ``tagIndex`` and ``tagFeed``.
    package func terms(_ taxonomy: Taxonomy) -> TermPatterns {
        switch taxonomy {
        case .tag: return TermPatterns(page: tag, index: tagIndex, atomFeed: tagFeed, indexFeed: tagIndexFeed)
        case .category: return category
        case .author: return author
        case .section: return section
        }
    }

    /// The default patterns.
    package init() {}
}

/// A way of grouping posts, each group with its list pages and feed: tags, categories, authors.
package enum Taxonomy: String, Sendable, CaseIterable {
    /// A post's `tags`.
    case tag
    /// A post's `categories` (or `category`).
    case category
    /// A post's `author`, else the site's.
    case author
    /// The top folder under content/ of a post or page (Hugo's section: `posts/`, `notes/`).
    case section

    /// The plural, as keys and templates name the index (`tags`, `categories`, `authors`).
    package var plural: String {
        switch self {
        case .tag: return "tags"
        case .category: return "categories"
        case .author: return "authors"
        case .section: return "sections"
        }
    }
}

/// The URL patterns of one taxonomy's pages.
package struct TermPatterns: Sendable, Equatable {
    /// A term's first list page: `{slug}` is the term's slug; nil: the taxonomy has no pages.
    package var page: String?
    /// The index of every term; nil: none.
    package var index: String?
    /// A feed of the index: an entry per term, at its newest post's date (Hugo's `tags/index.xml`); nil: none.
    package var indexFeed: String?
    /// A term's Atom feed, `{slug}` replaced; nil: `feed.xml` in the folder of the term's page.
    package var atomFeed: String?
    /// A term's RSS feed, `{slug}` replaced; nil: none.
    package var rssFeed: String?

    /// The patterns.
    package init(page: String?, index: String?, atomFeed: String? = nil, rssFeed: String? = nil, indexFeed: String? = nil) {
        self.page = page
        self.index = index
        self.indexFeed = indexFeed
        self.atomFeed = atomFeed
        self.rssFeed = rssFeed
    }
}

/// Where the pages after the first of a paginated list go.
package enum ListPages: String, Sendable, Equatable {
    /// `page/2/` in the list's folder (blog's and Hugo's).
    case folders
    /// The list's file with the number before its extension: `index2.html`, `tag/swift2.html` (Pelican's).
    case numberedFiles
    /// `page2/` in the list's folder (jekyll-paginate's `/page:num/`).
    case numberedFolders
}

/// One entry of `redirects:` in blog.yml: a page at `from` that sends readers on to `to`.
/// An entry of `file_paths:`: the content file `source` (its path under the content folder) is
/// published at `path` (under the output folder) instead of its own path.
package struct FilePathRule: Sendable, Equatable {
    package var source: String
    package var path: String
    /// The entry's line and column in blog.yml.
    package var line: Int, column: Int

    package init(source: String, path: String, line: Int = 1, column: Int = 1) {
        self.source = source
        self.path = path
        self.line = line
        self.column = column
    }
}

package struct RedirectRule: Sendable, Equatable {
    /// The old URL, site-relative, cleaned as header `aliases` are (`old/`, `old.html`).
    package var from: String
    /// Where it sends: a post's file (`posts/x.md`, under content/ or with the content folder's
    /// name first), a site URL (`/new/`), or an absolute address (`https://…`), as written.
    package var to: String
    /// The entry's file (blog.yml as messages name it), line and column.
    package var file: String, line: Int, column: Int

    /// An entry.
    package init(from: String, to: String, file: String = "blog.yml", line: Int = 1, column: Int = 1) {
        self.from = from
        self.to = to
        self.file = file
        self.line = line
        self.column = column
    }
}

/// A settings file read with the configuration: its path and text.
package struct ConfigFile: Sendable, Equatable {
    /// The path from the folder it was found in (`_config.yml`, `_data/authors.yml`).
    package var path: String
    /// Its text.
    package var text: String

    /// A file at `path` holding `text`.
    package init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}
