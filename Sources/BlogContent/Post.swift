import BlogCore
import Foundation

/// A tag (or category) with the name the author wrote and the slug used in its URL.
/// Two spellings with the same slug (`iOS`, `ios`) are one tag: the first spelling seen names it.
package struct Tag: Sendable, Hashable {
    /// The display name, as the author wrote it.
    package var name: String
    /// The URL slug.
    package var slug: String

    /// Creates a tag whose slug comes from its name.
    package init(name: String) {
        self.name = name
        self.slug = Slug.make(name)
    }

    /// Tags are equal when their slugs are.
    package static func == (a: Tag, b: Tag) -> Bool { a.slug == b.slug }
    package func hash(into hasher: inout Hasher) { hasher.combine(slug) }

    /// Whether `a` and `b` are the same tags in the same order, each spelled alike (``==`` compares the slugs alone).
    /// Compared in place: comparing `a.map(\.name)` with `b.map(\.name)` made two arrays.
    package static func spelledAlike(_ a: [Tag], _ b: [Tag]) -> Bool {
        a.count == b.count && a.indices.allSatisfy { a[$0].name == b[$0].name && a[$0].slug == b[$0].slug }
    }
}

/// Whether and where a post appears.
package enum PostStatus: String, Sendable, Hashable {
    /// On its page and in every list.
    case published
    /// Left out unless `--drafts`.
    case draft
    /// Has its page but appears in no list (home, tags, archives, feeds).
    case hidden
}

/// What a content file is.
package enum PostKind: String, Sendable, Hashable {
    /// A dated entry of the blog: in the home list, tags, archives and feeds.
    case post
    /// A standalone page (Pelican's `content/pages/`, Hugo's `_index.md` section pages): its own
    /// page only, in no list, no date needed.
    case page
}

/// One post, read from its file: header fields resolved, body still markdown.
package struct Post: Sendable {
    /// The file, relative to the blog folder (`content/posts/x.md`): used in messages and `blog list`.
    package var source: String
    /// The file, relative to `content/` (`posts/x.md`): where its relative links start from.
    package var contentPath: String
    /// The title.
    package var title: String
    /// A post or a page.
    package var kind: PostKind = .post
    /// Whether it is its folder's post (a page bundle, see ``PageBundle``): named by the folder,
    /// whose other files are copied beside its page.
    package var isBundle: Bool = false
    /// How its header was written: Jekyll Liquid and Hugo shortcodes are read in YAML and TOML
    /// posts only, never in Pelican ones.
    package var headerFormat: FrontMatterFormat = .none
    /// When it was published, as an absolute instant (offset-less dates use the site's time zone).
    /// 1970-01-01 when ``dated`` is false.
    package var date: Date
    /// Whether the header (or the file name) gave a date. A post without one (Hugo allows it) is
    /// listed after every dated post, and shows no date.
    package var dated: Bool = true
    /// The offset (seconds east of UTC) a Hugo-form post's date was written with
    /// (`2017-03-01T18:09:00-07:00`): with no `timezone` in blog.yml, its day and time are shown
    /// in it, as Hugo shows them (see `SiteConfig.timeZone(writtenOffset:)`). Nil for other posts.
    package var writtenOffset: Int?
    /// When it was last changed, if the header says.
    package var modified: Date?
    /// Tags in the order written, without duplicates.
    package var tags: [Tag]
    /// Categories in the order written (Jekyll and Hugo allow several), without duplicates.
    package var categories: [Tag] = []
    /// The first category, if any.
    package var category: Tag? { categories.first }
    /// The language (`lang`), when the header names one that differs from nothing; translations
    /// in another language than the site's go under `/<lang>/`.
    package var lang: String?
    /// The URL the header asks for (Jekyll `permalink`, Hugo and Pelican `url`), site-relative
    /// without a leading `/`; nil for the site's permalink pattern.
    package var permalink: String?
    /// The output file the header asks for (Pelican `save_as`), relative to the output folder.
    package var saveAs: String?
    /// Other URLs that redirect to this one (Hugo `aliases`, Jekyll `redirect_from`), site-relative.
    package var aliases: [String] = []
    /// The URL slug: never contains `/`, `..` or anything that could leave the output folder.
    package var slug: String
    /// The author, if the header names one (else the site's author applies).
    package var author: String?
    /// Each author the header names, in order: a list's items, or the one name of ``author``.
    package var authors: [String] = []
    /// The header's `summary`, as markdown.
    package var summary: String?
    /// The header's `html` (`trusted`, `tagfilter`, `sanitize`): applies only when stricter than blog.yml's.
    package var html: HTMLPolicy?
    /// Published, draft or hidden.
    package var status: PostStatus
    /// Every header key as written (lower-cased keys), for templates.
    package var meta: [String: MetaValue]
    /// The markdown body; a build empties it once the body is rendered (see BlogBuild's `Pipeline.loadSite`).
    package var body: String
    /// The 1-based line of the file where the body starts.
    package var bodyLine: Int

    /// Creates a post from its parts.
    package init(source: String, title: String, date: Date, modified: Date? = nil, tags: [Tag] = [],
                 category: Tag? = nil, slug: String, author: String? = nil, summary: String? = nil,
                 status: PostStatus = .published, meta: [String: MetaValue] = [:], body: String, bodyLine: Int = 1) {
        self.init(source: source, contentPath: Post.contentPath(ofSource: source), title: title, date: date, modified: modified,
                  tags: tags, categories: category.map { [$0] } ?? [], slug: slug, author: author, authors: author.map { [$0] } ?? [],
                  summary: summary, status: status, meta: meta, body: body, bodyLine: bodyLine)
    }

    /// Creates a post from every one of its fields: made in one expression where it is returned (PostReader's
    /// resolver), a post is not copied (a post made then set field by field was copied twice, and each copy released:
    /// every string retained and released again).
    package init(source: String, contentPath: String, title: String, kind: PostKind = .post, isBundle: Bool = false,
                 headerFormat: FrontMatterFormat = .none, date: Date, dated: Bool = true, writtenOffset: Int? = nil,
                 modified: Date?, tags: [Tag], categories: [Tag], lang: String? = nil, permalink: String? = nil,
                 saveAs: String? = nil, aliases: [String] = [], slug: String, author: String?, authors: [String],
                 summary: String?, html: HTMLPolicy? = nil, status: PostStatus, meta: [String: MetaValue], body: String,
                 bodyLine: Int) {
        self.source = source
        self.contentPath = contentPath
        self.title = title
        self.kind = kind
        self.isBundle = isBundle
        self.headerFormat = headerFormat
        self.date = date
        self.dated = dated
        self.writtenOffset = writtenOffset
        self.modified = modified
        self.tags = tags
        self.categories = categories
        self.lang = lang
        self.permalink = permalink
        self.saveAs = saveAs
        self.aliases = aliases
        self.slug = slug
        self.author = author
        self.authors = authors
        self.summary = summary
        self.html = html
        self.status = status
        self.meta = meta
        self.body = body
        self.bodyLine = bodyLine
    }

    /// The path under `content/` of a file named from the blog folder (`content/posts/a.md` ->
    /// `posts/a.md`); a path without that prefix is taken as it is.
    static func contentPath(ofSource source: String) -> String {
        source.hasPrefix("content/") ? String(source.dropFirst("content/".count)) : source
    }
}

extension Post {
    /// The post's slug under `Permalinks.asciiSlugs` (the `pelican` preset): the header's `slug` as written;
    /// else Pelican's `slugify` of its title when the slug was made from the title; else its slug
    /// spelt in ASCII.
    package var asciiSlug: String {
        if meta["slug"] != nil { return slug }
        if slug == Slug.make(title) {
            let pelican = Slug.pelican(title)
            if !pelican.isEmpty { return pelican }
        }
        return Slug.ascii(slug)
    }
}
