import BlogConfig
import BlogContent
import BlogCore
import BlogSite
import Foundation

/// Builds the dictionary of one post.
struct PostValues {
    let config: SiteConfig
    let links: SiteLinks
    /// The site's records of each taxonomy's terms (in ``termLayout``), and their index by the slug in their URLs.
    let terms: [Taxonomy: [TemplateRecord]]
    let termIndex: [Taxonomy: [String: Int]]
    let shown: DatePattern
    let site: Site
    /// ``entryValues(of:in:config:links:shown:)`` of each post of ``Site/posts``.
    let entries: [TemplateRecord]

    /// `kept`: by index into ``Site/posts``, a post's entry as the last build made it, for a post that is the one of
    /// that build (``PostDigestMemo/keptValues(site:terms:layout:)``); nil: made.
    init(site: Site, links: SiteLinks, terms: [Taxonomy: [TemplateRecord]], kept: [TemplateRecord?]? = nil) {
        self.site = site
        self.config = site.config
        self.links = links
        self.terms = terms
        termIndex = Dictionary(uniqueKeysWithValues: Taxonomy.allCases.map { taxonomy in
            (taxonomy, Dictionary(site.terms(taxonomy).enumerated().map { (SiteBuilder.tagSlug($1.tag, site.config.permalinks), $0) },
                                  uniquingKeysWith: { a, _ in a }))
        })
        shown = DatePattern(config.dateFormat, timeZone: config.timeZone)
        // What other posts show of each (related posts, series), made once, not once per post that shows it.
        let (config, links, shown) = (config, links, shown)
        entries = Parallel.map(site.posts.count) { index in
            if let kept, index < kept.count, let entry = kept[index] { return entry }
            return Self.entryValues(of: index, in: site.posts, config: config, links: links, shown: shown)
        }
    }

    /// Every key ``values(of:index:html:layout:)`` may set: a layout of post values holds them, and the keys its
    /// caller adds.
    static let keys = [
        "title", "slug", "url", "kind", "tags", "html", "summaryHTML", "truncated", "headings", "meta", "hidden", "dated",
        "draft", "future", "description", "permalink", "words", "reading_minutes", "toc", "toc_html", "show_toc", "has_math",
        "has_diagrams", "related", "series", "date", "datetime", "year", "month", "monthName", "day", "category", "categories",
        "lang", "author", "authors", "modified", "modifiedDatetime",
    ]

    /// The layout of post values with ``keys`` and `extra`, the keys a caller adds.
    static func layout(adding extra: [String] = []) -> RecordLayout {
        RecordLayout(keys: keys + extra)
    }

    /// The post's values, in `layout` (``layout(adding:)``): one layout for every post, so that a template finds a
    /// name at the same slot in each; `html` is what templates see as `html` (its body, or its marker).
    /// `index` is the post's in ``Site/posts``, for its related posts and its series.
    func values(of sitePost: SitePost, index: Int, html: Any, layout: RecordLayout) -> TemplateRecord.Builder {
        let post = sitePost.post
        let url = links.href(sitePost.url)
        var values = TemplateRecord.Builder(layout)
        values.set("title", post.title)
        values.set("slug", post.slug)
        values.set("url", url)
        values.set("kind", post.kind.rawValue)
        values.set("tags", post.tags.map { termValues(.tag, $0) })
        values["html"] = html
        // Lists show the summary on other pages: its relative links must point where they did on the post's page.
        values.set("summaryHTML", AbsoluteURLs.rewrite(html: sitePost.rendered.summaryHTML, base: url))
        values.set("truncated", sitePost.rendered.summaryHTML != sitePost.rendered.html)
        values.set("headings", LazyValue { [headings = sitePost.rendered.headings] in
            headings.map { ["level": $0.level, "id": $0.id, "text": $0.text] as [String: Any] }
        })
        values.set("meta", LazyValue { [meta = post.meta, zone = config.timeZone] in TemplateValue.map(meta, timeZone: zone) })
        values.set("hidden", post.status == .hidden)
        values.set("dated", post.dated)
        // Only in a site that shows them (`--drafts`, `--future`, `blog serve`): a theme marks them.
        values.set("draft", post.status == .draft)
        values.set("future", sitePost.future)
        values.set("description", post.meta["description"]?.text ?? sitePost.rendered.summaryText)
        values.set("permalink", links.absolute(sitePost.url))
        let words = sitePost.rendered.words
        values.set("words", words)
        if words > 0 { values.set("reading_minutes", BodyText.readingMinutes(words: words, perMinute: config.wordsPerMinute)) }
        addTableOfContents(of: sitePost, to: &values)
        // Which renderers the page loads (the default theme: `mermaid_script`, `math_script`).
        values.set("has_math", sitePost.rendered.math)
        values.set("has_diagrams", sitePost.rendered.diagrams)
        // Always set: a post without related posts must not show another's.
        values.set("related", index < site.related.count ? site.related[index].map { entries[$0] } : [])
        if let (series, number) = site.series(of: index) {
            values.set("series", seriesValues(series, number: number, current: index))
        }
        if post.dated {
            // A Hugo-form post's own offset, when blog.yml names no zone (see SiteConfig.timeZone(writtenOffset:)).
            let zone = config.timeZone(writtenOffset: post.writtenOffset)
            let time = CivilTime(post.date, timeZone: zone)
            values.set("date", zone == config.timeZone ? shown.format(post.date) : DatePattern(config.dateFormat, timeZone: zone).format(post.date))
            values.set("datetime", DateText.iso8601(post.date, timeZone: zone))
            values.set("year", time.year)
            values.set("month", time.month)
            values.set("monthName", DateFormat.monthName(time.month))
            values.set("day", time.day)
        }
        let categories = SiteBuilder.terms(.category, of: post, config: config).map { termValues(.category, $0) }
        values.set("category", categories.first)
        if !categories.isEmpty { values.set("categories", categories) }
        values.set("lang", post.lang)
        let author = post.author ?? config.author
        values.set("author", author.isEmpty ? nil : author)
        // Always set: a post without authors must not show the page's.
        values.set("authors", SiteBuilder.terms(.author, of: post, config: config).enumerated().map { number, name -> TemplateRecord in
            var author = TemplateRecord.Builder(copying: termValues(.author, name))
            author.set("separator", number == 0 ? "" : ", ")
            return author.record
        })
        if let modified = post.modified {
            values.set("modified", shown.format(modified))
            values.set("modifiedDatetime", iso8601(modified))
        }
        return values
    }

    /// What a post shows of another (a related post, a post of its series): `title`, `url`, `dated`,
    /// and `date` and `datetime` when it has a date.
    /// Read in place, field by field: the post taken from the array as an argument was copied, every string retained,
    /// and released again.
    private static func entryValues(of index: Int, in posts: [SitePost], config: SiteConfig, links: SiteLinks,
                                    shown: DatePattern) -> TemplateRecord {
        var values = TemplateRecord.Builder(entryLayout)
        values.set("title", posts[index].post.title)
        values.set("url", links.href(posts[index].url))
        values.set("dated", posts[index].post.dated)
        if posts[index].post.dated {
            let (date, zone) = (posts[index].post.date, config.timeZone(writtenOffset: posts[index].post.writtenOffset))
            values.set("date", zone == config.timeZone ? shown.format(date) : DatePattern(config.dateFormat, timeZone: zone).format(date))
            values.set("datetime", DateText.iso8601(date, timeZone: zone))
        }
        return values.record
    }

    /// The keys of what a post shows of another (``entryValues(of:in:config:links:shown:)``), and of a part of a series.
    static let entryLayout = RecordLayout(keys: ["title", "url", "dated", "date", "datetime", "number", "current"])

    /// `series`: its `name`, `count`, this post's `number` (1-based), its `posts` oldest first (each
    /// with `number` and `current`), and the `previous` and `next` parts when there are.
    private func seriesValues(_ series: SeriesGroup, number: Int, current: Int) -> [String: Any] {
        let parts = series.posts.enumerated().map { place, index -> TemplateRecord in
            var values = TemplateRecord.Builder(copying: entries[index])
            values.set("number", place + 1)
            values.set("current", index == current)
            return values.record
        }
        var values: [String: Any] = ["name": series.name, "count": series.posts.count, "number": number, "posts": parts]
        if number > 1 { values["previous"] = parts[number - 2] }
        if number < parts.count { values["next"] = parts[number] }
        return values
    }

    /// `toc` (the headings of `toc_levels`, nested), `toc_html` (the same as nested lists) and `show_toc`:
    /// whether a theme shows it, which a `toc` header decides (`true`: whenever there is a heading,
    /// `false`: never), else three headings or more; never when the body holds one already (`[TOC]`, `{{< toc >}}`).
    private func addTableOfContents(of sitePost: SitePost, to values: inout TemplateRecord.Builder) {
        let (headings, levels) = (sitePost.rendered.headings, config.tocLevels)
        let toc = TableOfContents(headings, levels: levels)
        // Made when a page shows them (see LazyValue).
        values.set("toc", LazyValue { Self.entries(TableOfContents(headings, levels: levels).entries) })
        values.set("toc_html", LazyValue { TableOfContents(headings, levels: levels).listHTML })
        let asked: Bool?
        switch sitePost.post.meta["toc"] {
        case .bool(let flag): asked = flag
        case let value?: asked = ["true", "yes", "on"].contains(value.text?.lowercased() ?? "") ? true
            : ["false", "no", "off"].contains(value.text?.lowercased() ?? "") ? false : nil
        case nil: asked = nil
        }
        values.set("show_toc", toc.count > 0 && (asked ?? (toc.count >= 3))
            && !sitePost.rendered.holdsTableOfContents)
    }

    private static func entries(_ entries: [TableOfContents.Entry]) -> [[String: Any]] {
        entries.map { ["level": $0.heading.level, "id": $0.heading.id, "text": $0.heading.text, "children": Self.entries($0.children)] }
    }

    /// What a post shows of one of its translations: `lang` (the site's language when the
    /// translation's header names none), `title`, `url`, and `permalink` when the base URL is absolute.
    func translationValues(of sitePost: SitePost) -> [String: Any] {
        var values: [String: Any] = ["lang": sitePost.post.lang ?? config.language, "title": sitePost.post.title,
                                     "url": links.href(sitePost.url)]
        values.setIfPresent("permalink", links.absolute(sitePost.url))
        return values
    }

    /// The keys of a term's values: `name`, `slug`, `linked`, and `href` and `count` when a page shows it; an
    /// author's `separator`.
    static let termLayout = RecordLayout(keys: ["name", "slug", "href", "count", "linked", "separator"])

    /// The site's record of the term, or an unlinked one when no page shows it.
    private func termValues(_ taxonomy: Taxonomy, _ term: Tag) -> TemplateRecord {
        if let index = termIndex[taxonomy]![SiteBuilder.tagSlug(term, config.permalinks)] { return terms[taxonomy]![index] }
        var values = TemplateRecord.Builder(Self.termLayout)
        values.set("name", term.name)
        values.set("slug", term.slug)
        values.set("linked", false)
        return values.record
    }

    private func iso8601(_ date: Date) -> String {
        DateText.iso8601(date, timeZone: config.timeZone)
    }
}
