import BlogConfig
import BlogCore
import BlogSite
import Foundation

/// `sitemap.xml` (https://www.sitemaps.org/protocol.html) and a `robots.txt` that points to it.
///
/// The sitemap lists every page meant to be found: post pages of published posts, every page of
/// the home list and of each tag's, category's and author's, their indexes and the archives. Hidden posts (they have a page but
/// are in no list), drafts (in a `--drafts` build) and the 404 page (generated, or a content page
/// in its place) are left out. Each address is absolute when `base_url` is (see
/// ``Feeds/warnings(config:path:)``).
///
/// `<lastmod>` is a post's last change (`modified` when later than `date`), a list page's newest
/// post, and for the indexes and archives the site's newest post; with no published post at
/// all it is left out. No clock is read: the same site gives the same bytes.
package enum Sitemap {
    /// The sitemap, relative to the output folder.
    package static let path = "sitemap.xml"
    /// The robots file, relative to the output folder. Crawlers only read it at the root of a
    /// host: under a base path (`/blog/robots.txt`) it is written all the same, for the host's own
    /// robots.txt to copy from.
    static let robotsPath = "robots.txt"

    /// `sitemap.xml` and `robots.txt`. The sitemap's bytes are made when the writer writes it, on
    /// one of the cores that write the pages, rather than before on one core alone. With `hook`'s memo of the
    /// last build (`blog serve`), each `<url>` whose page has the address and date it had then is the last build's
    /// text (see ``sitemap(_:memo:)``).
    package static func render(_ site: Site, hook: RenderHook? = nil) -> [OutputFile] {
        let memo = hook?.postDigests
        return [OutputFile(path: path, contents: .made(by: OutputFile.Maker { sitemap(site, memo: memo) })),
                OutputFile(path: robotsPath, contents: .bytes(Data(robots(site.config).utf8)))]
    }

    /// The bytes of `sitemap.xml`: a `<url>` per page, in the order of ``Site/pages``, each line indented as an
    /// ``XMLWriter`` indents it and each value escaped by ``Escaping/xml(_:)``, written in place into one buffer (made
    /// with `XMLWriter`'s appends to a `String`, an entry took ~15,000 instructions; 22 M at 1,000 posts).
    ///
    /// A `<url>` is made of the page's address and its `<lastmod>` alone (with `blog.yml`, which `memo` is about:
    /// see ``PostDigestMemo``). With `memo`, each is the last build's text when its page had the same address and
    /// date, else made and kept for the next build: a title edit makes none again (at 1,000 posts the sitemap made
    /// whole was 7% of a title edit's instructions, and it grows with the pages).
    static func sitemap(_ site: Site, memo: PostDigestMemo? = nil) -> Data {
        let config = site.config
        let dates = FeedDates(timeZone: config.timeZone)
        // The posts alone: the closures below would copy the whole site.
        let posts = site.posts
        func isPublished(_ index: Int) -> Bool { posts[index].post.status == .published }
        func newest(_ indices: [Int]) -> Date? {
            FeedDates.newest(indices.lazy.filter { isPublished($0) && posts[$0].post.dated }.map { posts[$0].post })
        }
        let siteNewest = newest(site.listed)
        let links = SiteLinks(config: config)
        // About 120 bytes a page; the buffer grows when the addresses are longer.
        var out = RenderBuffer(capacity: 160 + 128 * site.pages.count)
        func entry(_ url: String, _ lastmod: Date?) {
            out.write("  <url>\n    <loc>")
            out.write(Escaping.xml(links.address(url)))
            out.write("</loc>\n")
            if let lastmod {
                out.write("    <lastmod>")
                out.write(Escaping.xml(dates.rfc3339(lastmod)))
                out.write("</lastmod>\n")
            }
            out.write("  </url>\n")
        }

        // The last build's entries, found where they were (the pages in the same order: no URL hashed), else by URL.
        let last = memo?.sitemap.last() ?? []
        var byURL: [String: Int]?
        func known(_ url: String, at position: Int) -> PostDigestMemo.SitemapEntry? {
            if position < last.count, last[position].url == url { return last[position] }
            if byURL == nil { byURL = Dictionary(last.indices.map { (last[$0].url, $0) }, uniquingKeysWith: { a, _ in a }) }
            return byURL?[url].map { last[$0] }
        }
        var next: [PostDigestMemo.SitemapEntry] = []
        if memo != nil { next.reserveCapacity(site.pages.count) }
        var kept = 0
        out.write(XMLWriter.declaration)
        out.write("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
        for page in site.pages where !site.isNotFound(page) {
            let lastmod: Date?
            switch page.kind {
            case .post(let index):
                guard isPublished(index) else { continue }
                let post = posts[index].post
                lastmod = post.dated ? FeedDates.updated(post) : post.modified
            case .home(let pagination), .term(_, _, let pagination):
                lastmod = newest(pagination.posts) ?? siteNewest
            case .termIndex, .archives:
                lastmod = siteNewest
            case .notFound:
                continue
            }
            guard memo != nil else {
                entry(page.url, lastmod)
                continue
            }
            let text: String
            if let known = known(page.url, at: next.count), known.lastmod == lastmod {
                text = known.text
                out.write(text)
                kept += 1
            } else {
                let start = out.count
                entry(page.url, lastmod)
                text = String(decoding: UnsafeBufferPointer(rebasing: out.bytes[start...]), as: UTF8.self)
            }
            next.append(PostDigestMemo.SitemapEntry(url: page.url, lastmod: lastmod, text: text))
        }
        out.write("</urlset>\n")
        memo?.sitemap.keep(next, kept: kept)
        return out.data()
    }

    /// The text of `robots.txt`: every crawler may read everything, and the sitemap's address.
    static func robots(_ config: SiteConfig) -> String {
        "User-agent: *\nAllow: /\nSitemap: \(AbsoluteURLs.url(path, config: config))\n"
    }
}
