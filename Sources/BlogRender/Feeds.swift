import BlogConfig
import BlogContent
import BlogCore
import BlogSite
import Foundation

/// A feed a page can point to from its `<head>`:
/// `<link rel="alternate" type="{{type}}" title="{{title}}" href="{{href}}">`.
struct FeedLink: Sendable, Equatable {
    /// The media type: `application/atom+xml`, `application/rss+xml` or `application/feed+json`.
    var type: String
    /// A name for people (`My Blog (Atom)`), not escaped.
    var title: String
    /// The feed's address: absolute when `base_url` is, else a path starting with the base path.
    var href: String

    /// Creates a link.
    init(type: String, title: String, href: String) {
        self.type = type
        self.title = title
        self.href = href
    }
}

/// The site's feeds: Atom 1.0 (`feed.xml`), RSS 2.0 (`rss.xml`) and JSON Feed 1.1 (`feed.json`)
/// of the whole site, and an Atom feed per tag, category and author (`tags/<slug>/feed.xml`), with
/// an RSS one too where `permalinks` names it (Pelican's author feeds).
///
/// Each holds the newest `feed_limit` listed posts: hidden posts and drafts are never in a feed.
/// Every address in a feed is absolute (post bodies included), which needs `base_url` to be a
/// full address such as `https://example.org/blog/`; when it is only a path the path is used as it
/// is, and ``warnings(config:path:)`` says so. Output depends on the site alone: no clock is read,
/// and a feed's "updated" time is that of its newest post.
package enum Feeds {
    /// The site's Atom feed, relative to the output folder (`feed.xml`; `permalinks` may move it).
    static func atomPath(_ config: SiteConfig) -> String { config.permalinks.atomFeed }
    /// The site's RSS feed.
    static func rssPath(_ config: SiteConfig) -> String { config.permalinks.rssFeed }
    /// The site's JSON Feed.
    static func jsonPath(_ config: SiteConfig) -> String { config.permalinks.jsonFeed }

    /// Every feed file of the site: Atom, RSS and JSON Feed of the site, then the feeds of each
    /// term (tags, categories, authors, each in the order of ``Site/terms(_:)``).
    /// With `hook`, it hears where the posts' bodies land in each feed (see ``RenderHook``): each feed's
    /// bytes are those made without it, and where each entry's content is is known as the feed is written.
    package static func render(_ site: Site, hook: RenderHook? = nil) -> [OutputFile] {
        let config = site.config
        let siteIndices = feedPosts(site, from: site.listed)
        let terms = Taxonomy.allCases.flatMap { taxonomy in site.terms(taxonomy).map { (taxonomy, $0) } }
        let termIndices = terms.map { feedPosts(site, from: $0.1.posts) }
        let languages = languageFeeds(site)
        // Each post's entry is made once, however many feeds show it.
        let needed = Array(Set(siteIndices + termIndices.joined() + languages.flatMap(\.posts))).sorted()
        // `blog serve` keeps each post's entry from one build to the next while the post is as it was.
        let memo = hook?.postDigests
        let made = Parallel.map(needed.count) { number -> FeedEntry in
            let index = needed[number]
            guard let memo else { return entry(for: site.posts[index], config: config) }
            return memo.feedEntry(of: site.posts[index]) { entry(for: site.posts[index], config: config) }
        }
        let entries = Dictionary(uniqueKeysWithValues: zip(needed, made))
        let siteFeed = FeedChannel(title: config.title, page: site.listURL, entries: siteIndices.map { entries[$0]! }, posts: siteIndices,
                                   config: config)
        let holes = hook != nil
        // A feed: a feed of posts has a channel, the terms' index feeds have none.
        typealias Feed = (path: String, posts: (format: FeedFormat, channel: FeedChannel)?, bytes: () -> (bytes: Data, holes: [BodyHole]))
        func feed(_ path: String, _ format: FeedFormat, _ channel: FeedChannel) -> Feed {
            (path, (format, channel), {
                switch format {
                case .atom: atom(channel, selfPath: path, config: config)
                case .rss: rss(channel, selfPath: path, config: config)
                case .json: json(channel, selfPath: path, config: config, holes: holes)
                }
            })
        }
        var feeds: [Feed] = [
            feed(atomPath(config), .atom, siteFeed), feed(rssPath(config), .rss, siteFeed), feed(jsonPath(config), .json, siteFeed),
        ]
        for ((taxonomy, group), indices) in zip(terms, termIndices) {
            let channel = FeedChannel(title: termFeedTitle(group, config: config), page: group.url,
                                      entries: indices.map { entries[$0]! }, posts: indices, config: config)
            feeds.append(feed(feedPath(for: group, of: taxonomy, config: config), .atom, channel))
            if let rss = rssFeedPath(for: group, of: taxonomy, config: config) {
                feeds.append(feed(rss, .rss, channel))
            }
        }
        for taxonomy in Taxonomy.allCases {
            let groups = site.terms(taxonomy)
            guard let path = config.permalinks.terms(taxonomy).indexFeed, !groups.isEmpty else { continue }
            let index = site.pages.first { if case .termIndex(taxonomy) = $0.kind { return true } else { return false } }
            feeds.append((path, nil, { (indexFeed(groups, title: "\(config.title): \(taxonomy.plural)", page: index?.url ?? "",
                                                  path: path, site: site), []) }))
        }
        for (path, posts) in languages {
            let channel = FeedChannel(title: config.title, page: site.listURL, entries: posts.map { entries[$0]! }, posts: posts, config: config)
            feeds.append(feed(path, .atom, channel))
        }
        // `blog serve` takes the last build's bytes of a feed of posts made of the same channel: a title edit changes
        // the few feeds that show the post (the feeds were a tenth of a title edit's work at 1,000 posts).
        let last = memo?.feeds.last() ?? [:]
        // Each feed on any core.
        let written = Parallel.map(feeds.count) { number -> (bytes: Data, holes: [BodyHole], kept: Bool) in
            let feed = feeds[number]
            if let posts = feed.posts, let known = last[feed.path], known.format == posts.format, known.channel == posts.channel {
                return (known.bytes, known.holes, true)
            }
            let (bytes, holes) = feed.bytes()
            return (bytes, holes, false)
        }
        if let memo {
            var next: [String: PostDigestMemo.FeedMade] = [:]
            for number in feeds.indices {
                guard let posts = feeds[number].posts else { continue }
                next[feeds[number].path] = PostDigestMemo.FeedMade(format: posts.format, channel: posts.channel,
                                                                   bytes: written[number].bytes, holes: written[number].holes)
            }
            memo.feeds.keep(next, kept: written.reduce(0) { $0 + ($1.kept ? 1 : 0) })
        }
        return feeds.indices.map { number in
            if let hook, !written[number].holes.isEmpty { hook.feed(feeds[number].path, holds: written[number].holes) }
            return OutputFile(path: feeds[number].path, contents: .bytes(written[number].bytes))
        }
    }

    /// The feeds a page links to in its `<head>`: the site's Atom, RSS and JSON feeds, and on a
    /// term's page (`term` given) that term's Atom feed (and RSS feed, when it has one) too.
    static func feedLinks(site: Site, term: (Taxonomy, TagGroup)?) -> [FeedLink] {
        let config = site.config
        var links = [
            FeedLink(type: "application/atom+xml", title: "\(config.title) (Atom)", href: AbsoluteURLs.url(atomPath(config), config: config)),
            FeedLink(type: "application/rss+xml", title: "\(config.title) (RSS)", href: AbsoluteURLs.url(rssPath(config), config: config)),
            FeedLink(type: "application/feed+json", title: "\(config.title) (JSON Feed)", href: AbsoluteURLs.url(jsonPath(config), config: config)),
        ]
        if let (taxonomy, group) = term {
            let title = termFeedTitle(group, config: config)
            links.append(FeedLink(type: "application/atom+xml", title: "\(title) (Atom)",
                                  href: AbsoluteURLs.url(feedPath(for: group, of: taxonomy, config: config), config: config)))
            if let rss = rssFeedPath(for: group, of: taxonomy, config: config) {
                links.append(FeedLink(type: "application/rss+xml", title: "\(title) (RSS)", href: AbsoluteURLs.url(rss, config: config)))
            }
        }
        return links
    }

    /// A warning when `base_url` is only a path: feeds, the sitemap and `robots.txt` then carry
    /// paths where readers and crawlers need absolute addresses. Empty when `base_url` is absolute.
    /// - Parameter path: how to name `blog.yml` in the message.
    package static func warnings(config: SiteConfig, path: String = "blog.yml") -> [Diagnostic] {
        guard !AbsoluteURLs.isAbsolute(config) else { return [] }
        return [.warning(path, "`base_url` is only a path (\"\(config.baseURL)\"), but feeds, sitemap.xml and robots.txt need absolute addresses; they get paths that feed readers and crawlers can't follow. Set `base_url` to the full address, such as https://example.org\(config.basePath)")]
    }

    /// The Atom feeds of each language (``Permalinks/languageFeed``), by language: the posts and
    /// their translations in it, as Pelican's `feeds/all-{lang}.atom.xml`; none without the pattern.
    static func languageFeeds(_ site: Site) -> [(path: String, posts: [Int])] {
        guard let pattern = site.config.permalinks.languageFeed else { return [] }
        let listed = Set(site.listed)
        var byLanguage: [String: [Int]] = [:]
        for index in site.posts.indices where listed.contains(index) || (site.translations.contains(index) && site.posts[index].post.kind == .post) {
            byLanguage[(site.posts[index].post.lang ?? site.config.language).lowercased(), default: []].append(index)
        }
        return byLanguage.sorted { $0.key < $1.key }.map { language, posts in
            (pattern.replacingOccurrences(of: "{lang}", with: Slug.make(language)), feedPosts(site, from: posts))
        }
    }

    /// The Atom feed of a taxonomy's index (Hugo's `tags/index.xml`): an entry per term, newest
    /// first by its newest post (terms without a dated, published post are left out), linking to its page.
    static func indexFeed(_ groups: [TagGroup], title: String, page: String, path: String, site: Site) -> Data {
        let config = site.config
        let dated = groups.compactMap { group -> (TagGroup, Date)? in
            feedPosts(site, from: group.posts).first.map { (group, FeedDates.updated(site.posts[$0].post)) }
        }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0.tag.slug < $1.0.tag.slug }
        let entries = dated.prefix(config.feedLimit).map { group, date -> FeedEntry in
            var entry = FeedEntry(title: group.tag.name, permalink: AbsoluteURLs.url(group.url, config: config), author: author(of: nil, config: config),
                                  published: date, updated: date, tags: [],
                                  summaryHTML: group.posts.count == 1 ? "1 post" : "\(group.posts.count) posts", contentHTML: nil)
            (entry.atomXML, entry.summaryXML, entry.contentXML) = atomEntry(entry, dates: FeedDates(timeZone: config.timeZone))
            return entry
        }
        return atom(FeedChannel(title: title, page: page, entries: entries, posts: [], config: config), selfPath: path, config: config).bytes
    }

    /// Where a term's Atom feed goes: `feed.xml` in the folder of the term's page (`tags/swift/feed.xml`);
    /// for a page written as a file (`tags/swift.html`), in a folder of that name (`tags/swift/feed.xml`).
    /// `permalinks` may name it instead (Pelican's `feeds/{slug}.tag.atom.xml`).
    static func feedPath(for term: TagGroup, of taxonomy: Taxonomy, config: SiteConfig) -> String {
        if let pattern = config.permalinks.terms(taxonomy).atomFeed { return SiteBuilder.termPath(pattern, term.tag, config.permalinks) }
        if term.url.hasSuffix("/") { return term.url + "feed.xml" }
        let stem = term.url.hasSuffix(".html") ? String(term.url.dropLast(".html".count)) : term.url
        return stem + "/feed.xml"
    }

    /// Where a term's RSS feed goes, when `permalinks` names one (Pelican's `feeds/{slug}.rss.xml` of authors).
    static func rssFeedPath(for term: TagGroup, of taxonomy: Taxonomy, config: SiteConfig) -> String? {
        config.permalinks.terms(taxonomy).rssFeed.map { SiteBuilder.termPath($0, term.tag, config.permalinks) }
    }

    /// Indices of the posts a feed of `listed` (newest first) shows: published, dated ones only
    /// (drafts are listed in a `--drafts` build, but never in a feed; a feed entry needs a date),
    /// at most `feed_limit`.
    static func feedPosts(_ site: Site, from listed: [Int]) -> [Int] {
        Array(listed.lazy.filter { site.posts[$0].post.status == .published && site.posts[$0].post.dated }.prefix(site.config.feedLimit))
    }

    /// The name shown for a post's author: its own, else the site's, else the site's title
    /// (Atom requires an author).
    static func author(of post: Post?, config: SiteConfig) -> String {
        post?.author?.nilIfEmpty ?? config.author.nilIfEmpty ?? config.title
    }

    private static func termFeedTitle(_ term: TagGroup, config: SiteConfig) -> String {
        "\(config.title): \(term.tag.name)"
    }

    /// A post's body as the feeds hold it, before their format escapes it: its links made absolute
    /// against `base`, the post's address. A body put into a feed later (``BodyForm/apply(_:)``) is made here too.
    static func content(_ html: String, base: String) -> String {
        AbsoluteURLs.rewrite(html: html, base: base)
    }

    /// The encoder of the JSON feed, with `formatting` besides its own.
    static func jsonEncoder(_ formatting: JSONEncoder.OutputFormatting = []) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting.union(.withoutEscapingSlashes)
        return encoder
    }

    /// The characters of `text` as the JSON feed writes them inside a string.
    static func jsonContent(_ text: String) -> String {
        // Text with nothing to escape is its own content; the encoder only for the rest.
        if !needsJSONEscapes(text) { return text }
        let bytes = (try? jsonEncoder().encode([text])) ?? Data("[\"\"]".utf8)
        return String(decoding: bytes.dropFirst(2).dropLast(2), as: UTF8.self)
    }

    /// Whether `text` has a `"`, `\`, control character, DEL, or line or paragraph separator
    /// (U+2028, U+2029: E2 80 A8, E2 80 A9), which the encoder may escape.
    private static func needsJSONEscapes(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for (index, byte) in bytes.enumerated() {
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F { return true }
                if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 { return true }
            }
            return false
        }
    }

    /// A post as every feed format shows it.
    private static func entry(for item: SitePost, config: SiteConfig) -> FeedEntry {
        let permalink = AbsoluteURLs.url(item.url, config: config)
        let full: String?
        switch config.feedContent {
        case .full: full = content(item.rendered.html, base: permalink)
        case .summary: full = nil
        }
        var entry = FeedEntry(title: item.post.title, permalink: permalink, author: author(of: item.post, config: config),
                              published: item.post.date, updated: FeedDates.updated(item.post),
                              tags: item.post.tags.map(\.name),
                              summaryHTML: AbsoluteURLs.rewrite(html: item.rendered.summaryHTML, base: permalink),
                              contentHTML: full)
        (entry.atomXML, entry.summaryXML, entry.contentXML) = atomEntry(entry, dates: FeedDates(timeZone: config.timeZone))
        return entry
    }

    // MARK: Atom 1.0 (RFC 4287)

    /// The feed's text, and where each entry's content is in it (``BodyForm/feedXML(base:)``).
    private static func atom(_ feed: FeedChannel, selfPath: String, config: SiteConfig) -> (bytes: Data, holes: [BodyHole]) {
        let dates = FeedDates(timeZone: config.timeZone)
        let selfURL = AbsoluteURLs.url(selfPath, config: config)
        var xml = XMLWriter()
        var root = [("xmlns", "http://www.w3.org/2005/Atom")]
        if !config.language.isEmpty { root.append(("xml:lang", config.language)) }
        xml.open("feed", root)
        xml.element("title", text: feed.title)
        if !config.description.isEmpty { xml.element("subtitle", text: config.description) }
        xml.element("link", [("rel", "alternate"), ("type", "text/html"), ("href", feed.pageURL)], text: nil)
        xml.element("link", [("rel", "self"), ("type", "application/atom+xml"), ("href", selfURL)], text: nil)
        xml.element("id", text: selfURL)
        // A feed without posts has no date to tell; the epoch keeps the output free of the clock.
        xml.element("updated", text: dates.rfc3339(feed.updated ?? Date(timeIntervalSince1970: 0)))
        xml.open("author")
        xml.element("name", text: feed.author)
        xml.close()
        xml.reserve(feed.entries.reduce(64) { $0 + $1.atomXML.count })
        var holes: [BodyHole] = []
        for (number, entry) in feed.entries.enumerated() {
            let start = xml.count
            xml.append(fragment: entry.atomXML)
            if let content = entry.contentXML, number < feed.posts.count {
                holes.append(BodyHole(post: feed.posts[number], offset: start + content.lowerBound, length: content.count,
                                      form: .feedXML(base: entry.permalink)))
            }
        }
        xml.close()
        return (xml.data(), holes)
    }

    /// The `<entry>` of a post in every Atom feed, made once however many feeds show the post, and
    /// where its escaped summary and content are in it (for the RSS feeds: see ``FeedEntry/summaryXML``).
    private static func atomEntry(_ entry: FeedEntry, dates: FeedDates) -> (xml: [UInt8], summary: Range<Int>, content: Range<Int>?) {
        var xml = XMLWriter(fragmentDepth: 1)
        // The summary and body escaped in place: most HTML grows by less than half. The rest of the entry is a few
        // lines: one allocation of about its size.
        let html = entry.summaryHTML.utf8.count + (entry.contentHTML?.utf8.count ?? 0)
        xml.reserve(html + html / 2 + entry.title.utf8.count + entry.author.utf8.count
                    + 2 * entry.permalink.utf8.count + entry.tags.reduce(0) { $0 + $1.utf8.count + 32 } + 512)
        xml.open("entry")
        xml.element("title", text: entry.title)
        xml.element("link", [("rel", "alternate"), ("type", "text/html"), ("href", entry.permalink)], text: nil)
        xml.element("id", text: entry.permalink)
        xml.element("published", text: dates.rfc3339(entry.published))
        xml.element("updated", text: dates.rfc3339(entry.updated))
        xml.open("author")
        xml.element("name", text: entry.author)
        xml.close()
        for tag in entry.tags { xml.element("category", [("term", tag)], text: nil) }
        let summaryRange = xml.element("summary", [("type", "html")], escaping: entry.summaryHTML)
        let contentRange = entry.contentHTML.map { xml.element("content", [("type", "html")], escaping: $0) }
        xml.close()
        return (xml.bytes(), summaryRange, contentRange)
    }

    // MARK: RSS 2.0

    /// The feed's text, and where each entry's content is in it (``BodyForm/feedXML(base:)``).
    private static func rss(_ feed: FeedChannel, selfPath: String, config: SiteConfig) -> (bytes: Data, holes: [BodyHole]) {
        let dates = FeedDates(timeZone: config.timeZone)
        var xml = XMLWriter()
        xml.open("rss", [("version", "2.0"), ("xmlns:atom", "http://www.w3.org/2005/Atom"),
                         ("xmlns:content", "http://purl.org/rss/1.0/modules/content/"),
                         ("xmlns:dc", "http://purl.org/dc/elements/1.1/")])
        xml.open("channel")
        xml.element("title", text: feed.title)
        xml.element("link", text: feed.pageURL)
        xml.element("description", text: config.description.nilIfEmpty ?? feed.title)
        if !config.language.isEmpty { xml.element("language", text: config.language) }
        if let updated = feed.updated { xml.element("lastBuildDate", text: dates.rfc822(updated)) }
        xml.element("atom:link", [("href", AbsoluteURLs.url(selfPath, config: config)), ("rel", "self"),
                                  ("type", "application/rss+xml")], text: nil)
        xml.reserve(feed.entries.reduce(0) { $0 + $1.summaryXML.count + ($1.contentXML?.count ?? 0) + 1024 })
        var holes: [BodyHole] = []
        for (number, entry) in feed.entries.enumerated() {
            xml.open("item")
            xml.element("title", text: entry.title)
            xml.element("link", text: entry.permalink)
            xml.element("guid", [("isPermaLink", "true")], text: entry.permalink)
            xml.element("pubDate", text: dates.rfc822(entry.published))
            // RSS's own <author> must be an e-mail address; Dublin Core's creator is a name.
            xml.element("dc:creator", text: entry.author)
            for tag in entry.tags { xml.element("category", text: tag) }
            // The summary and body as the entry's Atom element escaped them, not escaped again.
            entry.withEscaped(entry.summaryXML) { _ = xml.element("description", escapedUTF8: $0) }
            if let content = entry.contentXML {
                let range = entry.withEscaped(content) { xml.element("content:encoded", escapedUTF8: $0) }
                if number < feed.posts.count {
                    holes.append(BodyHole(post: feed.posts[number], offset: range.lowerBound, length: range.count,
                                          form: .feedXML(base: entry.permalink)))
                }
            }
            xml.close()
        }
        xml.close()
        xml.close()
        return (xml.data(), holes)
    }

    // MARK: JSON Feed 1.1

    /// The feed's text, and with `holes` where each entry's content is in it (``BodyForm/feedJSON(base:)``).
    private static func json(_ feed: FeedChannel, selfPath: String, config: SiteConfig, holes: Bool) -> (bytes: Data, holes: [BodyHole]) {
        let dates = FeedDates(timeZone: config.timeZone)
        let document = JSONFeed(
            title: feed.title, homePageURL: feed.pageURL, feedURL: AbsoluteURLs.url(selfPath, config: config),
            description: config.description.nilIfEmpty, language: config.language.nilIfEmpty,
            authors: [.init(name: feed.author)],
            items: feed.entries.map { entry in
                JSONFeed.Item(id: entry.permalink, url: entry.permalink, title: entry.title,
                              contentHTML: entry.contentHTML ?? entry.summaryHTML,
                              summary: WebText.plainText(fromHTML: entry.summaryHTML, limit: 500),
                              datePublished: dates.rfc3339(entry.published), dateModified: dates.rfc3339(entry.updated),
                              tags: entry.tags.isEmpty ? nil : entry.tags, authors: [.init(name: entry.author)])
            })
        let encoder = jsonEncoder([.sortedKeys, .prettyPrinted])
        // Strings, arrays and objects only: encoding cannot fail.
        let text = String(decoding: try! encoder.encode(document), as: UTF8.self) + "\n"
        guard holes else { return (Data(text.utf8), []) }
        return (Data(text.utf8), contentHoles(in: text, feed: feed))
    }

    /// Where each item's `content_html` of a post's whole body is in the JSON feed `text`: the items in order, each with
    /// one `"content_html" : "` (a string's own quotes are `\"`, so no string holds it), its string up to the quote
    /// that ends it.
    private static func contentHoles(in text: String, feed: FeedChannel) -> [BodyHole] {
        var text = text
        return text.withUTF8 { bytes -> [BodyHole] in
            let key = Array("\"content_html\" : \"".utf8)
            var holes: [BodyHole] = []
            var from = 0
            for (number, entry) in feed.entries.enumerated() {
                guard let found = key.withUnsafeBufferPointer({ ByteSearch.firstIndex(of: $0, in: bytes, from: from) }) else { break }
                var end = found + key.count
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                from = end
                guard entry.contentHTML != nil, number < feed.posts.count else { continue }
                holes.append(BodyHole(post: feed.posts[number], offset: found + key.count, length: end - found - key.count,
                                      form: .feedJSON(base: entry.permalink)))
            }
            return holes
        }
    }
}

/// A post in a feed: addresses absolute, HTML with absolute links.
struct FeedEntry: Sendable, Equatable {
    var title: String
    var permalink: String
    var author: String
    var published: Date
    var updated: Date
    /// Display names.
    var tags: [String]
    var summaryHTML: String
    /// The whole post; nil with `feed_content: summary`.
    var contentHTML: String?
    /// Its `<entry>` element, as every Atom feed has it (UTF-8).
    var atomXML: [UInt8] = []
    /// Where in ``atomXML`` ``summaryHTML`` is, escaped (UTF-8 bytes): the RSS feeds take it from there.
    var summaryXML = 0..<0
    /// Where in ``atomXML`` ``contentHTML`` is, escaped; nil without content.
    var contentXML: Range<Int>?

    /// `body` given the bytes of ``atomXML`` at `range` (one of ``summaryXML`` and ``contentXML``): text between
    /// a `>` and a `<`, so whole characters.
    func withEscaped<Result>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        atomXML.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }
}

/// The format of a feed of posts.
enum FeedFormat: Sendable {
    case atom, rss, json
}

/// One feed: what it is about and its entries, newest first.
struct FeedChannel: Sendable, Equatable {
    var title: String
    /// The address of the page the feed follows (the home page, a tag's page).
    var pageURL: String
    var author: String
    var entries: [FeedEntry]
    /// The post of each entry, by index into ``Site/posts``; empty for entries of no post (terms).
    var posts: [Int]
    /// The newest entry's update time.
    var updated: Date?

    /// - Parameter page: the site-relative URL of the page the feed follows.
    init(title: String, page: String, entries: [FeedEntry], posts: [Int], config: SiteConfig) {
        self.title = title
        self.pageURL = AbsoluteURLs.url(page, config: config)
        self.author = Feeds.author(of: nil, config: config)
        self.entries = entries
        self.posts = posts
        self.updated = entries.map(\.updated).max()
    }
}

/// The JSON Feed 1.1 document (https://jsonfeed.org/version/1.1).
private struct JSONFeed: Encodable {
    struct Author: Encodable {
        var name: String
    }

    struct Item: Encodable {
        var id: String
        var url: String
        var title: String
        var contentHTML: String
        /// Plain text.
        var summary: String
        var datePublished: String
        var dateModified: String
        var tags: [String]?
        var authors: [Author]

        enum CodingKeys: String, CodingKey {
            case id, url, title, summary, tags, authors
            case contentHTML = "content_html", datePublished = "date_published", dateModified = "date_modified"
        }
    }

    var version = "https://jsonfeed.org/version/1.1"
    var title: String
    var homePageURL: String
    var feedURL: String
    var description: String?
    var language: String?
    var authors: [Author]
    var items: [Item]

    enum CodingKeys: String, CodingKey {
        case version, title, description, language, authors, items
        case homePageURL = "home_page_url", feedURL = "feed_url"
    }
}
