import BlogConfig
import BlogContent
import BlogCore
import BlogSite
import Foundation

/// Builds the dictionary of one post.
struct PostValues {
    let config: SiteConfig
    let links: SiteLinks
    /// The site's dictionaries of each taxonomy's terms, and their index by the slug in their URLs.
    let terms: [Taxonomy: [[String: Any]]]
    let termIndex: [Taxonomy: [String: Int]]
    let shown: DatePattern

    init(site: Site, links: SiteLinks, terms: [Taxonomy: [[String: Any]]]) {
        self.config = site.config
        self.links = links
        self.terms = terms
        termIndex = Dictionary(uniqueKeysWithValues: Taxonomy.allCases.map { taxonomy in
            (taxonomy, Dictionary(site.terms(taxonomy).enumerated().map { (SiteBuilder.tagSlug($1.tag, site.config.permalinks), $0) },
                                  uniquingKeysWith: { a, _ in a }))
        })
        shown = DatePattern(config.dateFormat, timeZone: config.timeZone)
    }

    /// The post's values; `html` is what templates see as `html` (its body, or its marker).
    func values(of sitePost: SitePost, html: Any) -> [String: Any] {
        let post = sitePost.post
        var values: [String: Any] = [
            "title": post.title, "slug": post.slug, "url": links.href(sitePost.url), "kind": post.kind.rawValue,
            "tags": post.tags.map { termValues(.tag, $0) }, "html": html,
            // Lists show the summary on other pages: its relative links must point where they did on the post's page.
            "summaryHTML": AbsoluteURLs.rewrite(html: sitePost.rendered.summaryHTML, base: links.href(sitePost.url)),
            "truncated": sitePost.rendered.summaryHTML != sitePost.rendered.html,
            "headings": sitePost.rendered.headings.map { ["level": $0.level, "id": $0.id, "text": $0.text] as [String: Any] },
            "meta": TemplateValue.map(post.meta, timeZone: config.timeZone),
            "hidden": post.status == .hidden, "dated": post.dated,
            // Only in a site that shows them (`--drafts`, `--future`, `blog serve`): a theme marks them.
            "draft": post.status == .draft, "future": sitePost.future,
            "description": post.meta["description"]?.text
                ?? WebText.plainText(fromHTML: sitePost.rendered.summaryHTML, limit: 160),
        ]
        values.setIfPresent("permalink", links.absolute(sitePost.url))
        if post.dated {
            // A Hugo-form post's own offset, when blog.yml names no zone (see SiteConfig.timeZone(of:)).
            let zone = config.timeZone(of: post)
            let time = CivilTime(post.date, timeZone: zone)
            values["date"] = zone == config.timeZone ? shown.format(post.date) : DatePattern(config.dateFormat, timeZone: zone).format(post.date)
            values["datetime"] = DateText.iso8601(post.date, timeZone: zone)
            values["year"] = time.year
            values["month"] = time.month
            values["monthName"] = DateFormat.monthName(time.month)
            values["day"] = time.day
        }
        let categories = SiteBuilder.terms(.category, of: post, config: config).map { termValues(.category, $0) }
        values.setIfPresent("category", categories.first)
        if !categories.isEmpty { values["categories"] = categories }
        values.setIfPresent("lang", post.lang)
        let author = post.author ?? config.author
        values.setIfPresent("author", author.isEmpty ? nil : author)
        // Always set: a post without authors must not show the page's.
        values["authors"] = SiteBuilder.terms(.author, of: post, config: config).enumerated().map { number, name in
            var author = termValues(.author, name)
            author["separator"] = number == 0 ? "" : ", "
            return author
        }
        if let modified = post.modified {
            values["modified"] = shown.format(modified)
            values["modifiedDatetime"] = iso8601(modified)
        }
        return values
    }

    /// What a post shows of one of its translations: `lang` (the site's language when the
    /// translation's header names none), `title`, `url`, and `permalink` when the base URL is absolute.
    func translationValues(of sitePost: SitePost) -> [String: Any] {
        var values: [String: Any] = ["lang": sitePost.post.lang ?? config.language, "title": sitePost.post.title,
                                     "url": links.href(sitePost.url)]
        values.setIfPresent("permalink", links.absolute(sitePost.url))
        return values
    }

    /// The site's dictionary of the term, or an unlinked one when no page shows it.
    private func termValues(_ taxonomy: Taxonomy, _ term: Tag) -> [String: Any] {
        if let index = termIndex[taxonomy]![SiteBuilder.tagSlug(term, config.permalinks)] { return terms[taxonomy]![index] }
        return ["name": term.name, "slug": term.slug, "linked": false]
    }

    private func iso8601(_ date: Date) -> String {
        DateText.iso8601(date, timeZone: config.timeZone)
    }
}
