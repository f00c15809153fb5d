import BlogConfig
import BlogCore
import Foundation

/// A tag (or category) with the name the author wrote and the slug used in its URL.
/// Two spellings with the same slug (`iOS`, `ios`) are one tag: the first spelling seen names it.
public struct Tag: Sendable, Hashable {
    /// The display name, as the author wrote it.
    public var name: String
    /// The URL slug.
    public var slug: String

    /// Creates a tag whose slug comes from its name.
    public init(name: String) {
        self.name = name
        self.slug = Slug.make(name)
    }

    /// Tags are equal when their slugs are.
    public static func == (a: Tag, b: Tag) -> Bool { a.slug == b.slug }
    public func hash(into hasher: inout Hasher) { hasher.combine(slug) }
}

/// Whether and where a post appears.
public enum PostStatus: String, Sendable, Hashable {
    /// On its page and in every list.
    case published
    /// Left out unless `--drafts`.
    case draft
    /// Has its page but appears in no list (home, tags, archives, feeds).
    case hidden
}

/// What a content file is.
public enum PostKind: String, Sendable, Hashable {
    /// A dated entry of the blog: in the home list, tags, archives and feeds.
    case post
    /// A standalone page (Pelican's `content/pages/`, Hugo's `_index.md` section pages): its own
    /// page only, in no list, no date needed.
    case page
}

/// One post, read from its file: header fields resolved, body still markdown.
public struct Post: Sendable {
    /// The file, relative to the blog folder (`content/posts/x.md`): used in messages and `blog list`.
    public var source: String
    /// The file, relative to `content/` (`posts/x.md`): where its relative links start from.
    public var contentPath: String
    /// The title.
    public var title: String
    /// A post or a page.
    public var kind: PostKind = .post
    /// Whether it is its folder's post (a page bundle, see ``PageBundle``): named by the folder,
    /// whose other files are copied beside its page.
    public var isBundle: Bool = false
    /// How its header was written: Jekyll Liquid and Hugo shortcodes are read in YAML and TOML
    /// posts only, never in Pelican ones.
    public var headerFormat: FrontMatterFormat = .none
    /// When it was published, as an absolute instant (offset-less dates use the site's time zone).
    /// 1970-01-01 when ``dated`` is false.
    public var date: Date
    /// Whether the header (or the file name) gave a date. A post without one (Hugo allows it) is
    /// listed after every dated post, and shows no date.
    public var dated: Bool = true
    /// When it was last changed, if the header says.
    public var modified: Date?
    /// Tags in the order written, without duplicates.
    public var tags: [Tag]
    /// Categories in the order written (Jekyll and Hugo allow several), without duplicates.
    public var categories: [Tag] = []
    /// The first category, if any.
    public var category: Tag? { categories.first }
    /// The language (`lang`), when the header names one that differs from nothing; translations
    /// in another language than the site's go under `/<lang>/`.
    public var lang: String?
    /// The URL the header asks for (Jekyll `permalink`, Hugo and Pelican `url`), site-relative
    /// without a leading `/`; nil for the site's permalink pattern.
    public var permalink: String?
    /// The output file the header asks for (Pelican `save_as`), relative to the output folder.
    public var saveAs: String?
    /// Other URLs that redirect to this one (Hugo `aliases`, Jekyll `redirect_from`), site-relative.
    public var aliases: [String] = []
    /// The URL slug: never contains `/`, `..` or anything that could leave the output folder.
    public var slug: String
    /// The author, if the header names one (else the site's author applies).
    public var author: String?
    /// Each author the header names, in order: a list's items, or the one name of ``author``.
    public var authors: [String] = []
    /// The header's `summary`, as markdown.
    public var summary: String?
    /// The header's `html` (`trusted`, `tagfilter`, `sanitize`): applies only when stricter than blog.yml's.
    public var html: HTMLPolicy?
    /// Published, draft or hidden.
    public var status: PostStatus
    /// Every header key as written (lower-cased keys), for templates.
    public var meta: [String: MetaValue]
    /// The markdown body.
    public var body: String
    /// The 1-based line of the file where the body starts.
    public var bodyLine: Int

    /// Creates a post from its parts.
    public init(source: String, title: String, date: Date, modified: Date? = nil, tags: [Tag] = [],
                category: Tag? = nil, slug: String, author: String? = nil, summary: String? = nil,
                status: PostStatus = .published, meta: [String: MetaValue] = [:], body: String, bodyLine: Int = 1) {
        self.source = source
        self.contentPath = Post.contentPath(ofSource: source)
        self.title = title
        self.date = date
        self.modified = modified
        self.tags = tags
        self.categories = category.map { [$0] } ?? []
        self.slug = slug
        self.author = author
        self.authors = author.map { [$0] } ?? []
        self.summary = summary
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
