import BlogConfig
import BlogContent
import BlogCore
import Foundation

/// A post placed in the site: its URL and its rendered body.
package struct SitePost: Sendable {
    /// The post as read.
    package var post: Post
    /// The rendered body and summary.
    package var rendered: RenderedMarkdown
    /// Site-relative URL, no leading `/`, ending in `/` (`posts/my-post/`).
    package var url: String
    /// Output file, relative to the output folder (`posts/my-post/index.html`).
    package var outputPath: String
    /// Indices into ``Site/posts`` of the same post in other languages (Pelican's translations:
    /// same kind, status and slug, another `lang`), ordered by language.
    package var translations: [Int] = []
    /// Dated after the build's "now" (in the site with `--future`, or in `blog serve`).
    package var future = false
}

/// One tag, category or author (a term of a ``Taxonomy``) and its posts.
package struct TagGroup: Sendable {
    /// The term (first spelling seen, in date order oldest first, is the display name).
    package var tag: Tag
    /// Indices into ``Site/posts`` of its listed posts, newest first.
    package var posts: [Int]
    /// Site-relative URL of its first list page (`tags/swift/`).
    package var url: String
}

/// A file under `content/` copied to the output.
package struct SiteAsset: Sendable, Equatable {
    /// Its path under `content/`.
    package var source: String
    /// Its path in the output folder: the same, or beside its post's page (bundles, `{attach}`).
    package var path: String

    package init(source: String, path: String) {
        self.source = source
        self.path = path
    }
}

/// A page at an old URL that sends readers to a post's page.
package struct Redirect: Sendable, Equatable {
    /// The old URL, site-relative (`0-19/`).
    package var url: String
    /// The file written there.
    package var outputPath: String
    /// Index into ``Site/posts`` of the post it sends to; nil for a `redirects:` entry of
    /// blog.yml that names a URL.
    package var target: Int?
    /// Where it sends when ``target`` is nil: a site-relative URL, or an absolute address.
    package var location: String = ""
    /// The `redirects:` entry of blog.yml that asks for it; nil for a header's `aliases`.
    package var rule: RedirectRule?
}

/// A month in the archives.
package struct ArchiveMonth: Sendable {
    /// 1...12.
    package var month: Int
    /// Indices into ``Site/posts``, newest first.
    package var posts: [Int]
}

/// A year in the archives.
package struct ArchiveYear: Sendable {
    /// The year, in the site's time zone.
    package var year: Int
    /// Months, newest first.
    package var months: [ArchiveMonth]
}

/// One page of a paginated list.
package struct Pagination: Sendable, Equatable {
    /// 1-based page number.
    package var number: Int
    /// How many pages the list has.
    package var count: Int
    /// Indices into ``Site/posts`` shown on this page, newest first.
    package var posts: [Int]
    /// Site-relative URL of the page with newer posts, if any.
    package var newerURL: String?
    /// Site-relative URL of the page with older posts, if any.
    package var olderURL: String?
}

/// A page the build makes that a content file can take the place of, by naming its URL in its
/// header (`save_as: index.html`, `url: /tags/`, `permalink: /`), as Pelican's `save_as`
/// overrides a generated file.
package enum GeneratedPage: String, Sendable, CaseIterable {
    /// The first page of the post list, at the site's root.
    case home
    /// Every tag with its post count.
    case tagIndex
    /// Every post by year and month.
    case archives
    /// The "not found" page.
    case notFound

    /// Its site-relative URL with blog's own permalinks.
    package var url: String { url(in: Permalinks()) }

    /// Its output file with blog's own permalinks.
    package var outputPath: String { outputPath(in: Permalinks()) }

    /// Its site-relative URL under `permalinks` (a preset moves the tags index and the archives).
    package func url(in permalinks: Permalinks) -> String {
        switch self {
        case .home: return ""
        case .tagIndex: return permalinks.tagIndex
        case .archives: return permalinks.archives
        case .notFound: return "404.html"
        }
    }

    /// Its output file under `permalinks`.
    package func outputPath(in permalinks: Permalinks) -> String {
        SiteBuilder.outputPath(for: url(in: permalinks))
    }

    /// How messages name it (`home page`).
    package var noun: String {
        switch self {
        case .home: return "home page"
        case .tagIndex: return "tags index"
        case .archives: return "archives page"
        case .notFound: return "404 page"
        }
    }

    /// How messages name it (`the home page`).
    package var name: String { "the " + noun }
}

/// A page to render.
package struct Page: Sendable, Equatable {
    /// What the page shows.
    package enum Kind: Sendable, Equatable {
        /// A post's own page: index into ``Site/posts``.
        case post(Int)
        /// A page of the home list.
        case home(Pagination)
        /// A page of a term's list: its taxonomy, and index into ``Site/terms(_:)`` of it.
        case term(Taxonomy, Int, Pagination)
        /// Every term of a taxonomy with its post count.
        case termIndex(Taxonomy)
        /// Every post by year and month.
        case archives
        /// The "not found" page.
        case notFound
    }

    /// What it shows.
    package var kind: Kind
    /// Site-relative URL, no leading `/` (`""` is the home page, `page/2/`, `404.html`).
    package var url: String
    /// Output file, relative to the output folder.
    package var outputPath: String
}

/// The whole site, ready to render: every decision about order, grouping and URLs is made here.
package struct Site: Sendable {
    /// The settings.
    package var config: SiteConfig
    /// Every post that gets a page, newest first (ties: title, then source path).
    package var posts: [SitePost]
    /// Indices into ``posts`` of the posts shown in lists (not hidden), newest first.
    package var listed: [Int]
    /// Tags with listed posts, ordered by slug.
    package var tags: [TagGroup]
    /// Categories with listed posts, ordered by slug; none when the categories have no pages.
    package var categories: [TagGroup] = []
    /// Authors with listed posts, ordered by slug; none when the authors have no pages.
    package var authors: [TagGroup] = []
    /// Sections (top folders of content/) with listed posts or pages, ordered by slug; none
    /// without section pages (Hugo's preset has them).
    package var sections: [TagGroup] = []
    /// Listed posts by year and month, newest first.
    package var archives: [ArchiveYear]
    /// Every page to render, in a stable order.
    package var pages: [Page]
    /// Files under `content/` that are not posts, copied as they are.
    package var assets: [SiteAsset]
    /// With `output_sources`, the published posts' and pages' own files, each copied beside its page
    /// (see ``SiteBuilder/sourceCopies(_:config:)``); `source` is its path under `content/`.
    package var sources: [SiteAsset] = []
    /// Redirect pages at the posts' old URLs (`aliases`).
    package var redirects: [Redirect] = []
    /// Indices into ``posts`` of translations (in another language than an original of the same
    /// slug, or marked `translation: true`; see ``SiteBuilder``): they have a page but are in no list.
    package var translations: Set<Int> = []
    /// The generated pages that a content file replaces, each with the index into ``posts`` of
    /// the post or page written in its place; those generated pages are not in ``pages``.
    package var replacements: [GeneratedPage: Int] = [:]
    /// The series of the listed posts (`series` headers), in the order of their oldest post.
    package var series: [SeriesGroup] = []
    /// The index into ``series`` of each post in one, by index into ``posts``.
    package var seriesOf: [Int: Int] = [:]
    /// Each post's related posts (`related_posts` of them), by index into ``posts``; see
    /// ``SiteBuilder/related(posts:listed:limit:)``.
    package var related: [[Int]] = []
    /// Site-relative URL of the post list's first page: `""` (the home page), or
    /// `permalinks.home_list` when a content page replaces the home page.
    package var listURL: String = ""
    /// The drafts and future posts the build left out.
    package var leftOut = LeftOut()

    /// The terms of `taxonomy`: ``tags``, ``categories`` or ``authors``.
    package func terms(_ taxonomy: Taxonomy) -> [TagGroup] {
        switch taxonomy {
        case .tag: return tags
        case .category: return categories
        case .author: return authors
        case .section: return sections
        }
    }

    /// The generated page whose place the post `index` takes, if any.
    package func replaced(by index: Int) -> GeneratedPage? {
        replacements.first { $0.value == index }?.key
    }

    /// Whether `page` is the 404 page: the generated one, or a content page in its place.
    package func isNotFound(_ page: Page) -> Bool {
        switch page.kind {
        case .notFound: return true
        case .post(let index): return replaced(by: index) == .notFound
        default: return false
        }
    }

    /// The previous (older) and next (newer) listed post around `index`, for post pages.
    package func neighbours(of index: Int) -> (older: Int?, newer: Int?) {
        // `listed` is ascending (a filter of `posts`' indices), so a binary search finds the post:
        // a linear search on every post page made a 10,000-post site quadratic.
        var low = 0, high = listed.count
        while low < high {
            let middle = (low + high) / 2
            if listed[middle] < index { low = middle + 1 } else { high = middle }
        }
        guard low < listed.count, listed[low] == index else { return (nil, nil) }
        let position = low
        let newer: Int? = position > 0 ? listed[position - 1] : nil
        let older: Int? = position + 1 < listed.count ? listed[position + 1] : nil
        return (older, newer)
    }
}
