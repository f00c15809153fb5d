import Foundation

/// The site's settings, read from `blog.yml`. Every field has a default, so a blog without a
/// `blog.yml` builds as it is.
public struct SiteConfig: Sendable, Equatable {
    /// The site's name, shown in the header and in feeds.
    public var title: String = "My Blog"
    /// One line about the site, for the home page and `<meta name="description">`.
    public var description: String = ""
    /// The default author of every post.
    public var author: String = ""
    /// Where the site is published, e.g. `https://example.org/blog/`. Its path is the prefix of
    /// every link; the whole URL makes absolute links in feeds. Always ends with `/`.
    public var baseURL: String = "/"
    /// The site's language, for `<html lang>`.
    public var language: String = "en"
    /// The time zone of dates written without an offset.
    public var timeZone: TimeZone = TimeZone(identifier: "UTC")!
    /// The theme's folder name under `themes/`; `default` is built into the binary.
    public var theme: String = "default"
    /// Posts per list page (home, tag pages).
    public var paginate: Int = 10
    /// How dates are shown on pages, in `strftime` form (`%a %-d %B %Y` gives `Fri 25 November 2016`).
    public var dateFormat: String = "%a %-d %B %Y"
    /// The output folder, relative to the blog folder unless absolute.
    public var output: String = "public"
    /// The folder of posts, relative to the blog folder (`_posts` for a Jekyll site as it is).
    public var content: String = "content"
    /// The folder of the build lock and the last build's state (`cache_dir`), relative to the blog folder unless absolute.
    public var cacheDir: String = ".blog-cache"
    /// URL patterns of the generated pages.
    public var permalinks: Permalinks = Permalinks()
    /// How many of the newest listed posts each feed holds (`feed_limit`), 1 or more.
    public var feedLimit: Int = 20
    /// Whether raw HTML tags that GFM's tagfilter lists (`<script>`, `<iframe>`, `<style>`…) are
    /// escaped in posts (`tagfilter`). Off: authors own their blogs, and tweet embeds need `<script>`.
    public var tagfilter: Bool = false
    /// Whether code blocks in a known language are highlighted at build time (`highlight`).
    public var highlight: Bool = true
    /// The theme's palette for highlighted code (`highlight_style`): `default` follows the
    /// reader's light or dark scheme; another name puts `class="highlight-NAME"` on each `<pre>`.
    public var highlightStyle: String = "default"
    /// Whether feed entries carry the whole post or only its summary (`feed_content`).
    public var feedContent: FeedContent = .full
    /// The header form `blog new` writes (`new_post_format`); nil: the form most posts already use.
    public var newPostFormat: NewPostFormat?
    /// `params:`, as YAML text (empty when absent): values for Liquid's `site.x` in Jekyll-form posts.
    public var params: String = ""
    /// A Jekyll site's `_config.yml` and `_data/` files beside the posts, sorted by path: read with
    /// the configuration (see `JekyllSiteFiles` in BlogBuild) so that a change to them, like one
    /// to blog.yml, makes a full build.
    public var jekyllFiles: [ConfigFile] = []

    /// The configuration with every default.
    public init() {}

    /// The path part of `baseURL`, always starting and ending with `/` (`/` or `/blog/`).
    public var basePath: String {
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
public enum FeedContent: String, Sendable, Equatable, CaseIterable {
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
public struct Permalinks: Sendable, Equatable {
    /// A post's URL: `{year}`, `{month}`, `{day}`, `{slug}` and `{category}` are replaced.
    public var post: String = "posts/{slug}/"
    /// A tag's list page: `{slug}` is the tag's slug.
    public var tag: String = "tags/{slug}/"
    /// A page's URL (a file under `content/pages/`): `{slug}` is replaced.
    public var page: String = "{slug}/"
    /// Where the post list goes when a content page replaces the home page (its `save_as`,
    /// `url` or `permalink` names `index.html` or `/`): a folder, its next pages under `page/N/`.
    public var homeList: String = "blog/"

    /// The default patterns.
    public init() {}
}

/// A settings file read with the configuration: its path and text.
public struct ConfigFile: Sendable, Equatable {
    /// The path from the folder it was found in (`_config.yml`, `_data/authors.yml`).
    public var path: String
    /// Its text.
    public var text: String

    /// A file at `path` holding `text`.
    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}
