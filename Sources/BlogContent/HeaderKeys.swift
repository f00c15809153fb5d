import BlogCore

/// The header keys some part of `blog`, Pelican, Jekyll or Hugo reads (lower-cased, as headers are read), to catch a
/// misspelled one (`dtae:`, `tgas:`, `titel:`) that would otherwise be dropped without a word.
enum HeaderKeys {
    /// Keys `blog` itself reads, plus those of the three generators' documentation (Pelican's "File metadata",
    /// Jekyll's "Front Matter" and its common plugins, Hugo's "Front matter" fields and its `frontmatter` date keys).
    static let known: Set<String> = [
        // blog (PostResolver, the default theme)
        "title", "date", "publishdate", "pubdate", "published", "modified", "lastmod", "slug", "tags", "tag",
        "category", "categories", "author", "authors", "summary", "excerpt", "excerpt_separator", "status", "html",
        "draft", "permalink", "url", "save_as", "aliases", "redirect_from", "lang", "description", "translation",
        // Pelican
        "keywords", "template", "series", "series_index", "subtitle", "image", "cover", "og_image", "thumbnail",
        // Jekyll and its usual plugins
        "layout", "render_with_liquid", "last_modified_at", "redirect_to", "sitemap", "comments", "seo",
        "pagination", "hidden", "toc", "math", "mathjax", "header", "share", "related", "feature", "featured",
        // Hugo
        "build", "cascade", "expirydate", "unpublishdate", "headless", "iscjklanguage", "linktitle", "markup", "menu",
        "menus", "outputs", "params", "resources", "translationkey", "type", "weight", "images", "audio", "videos",
        "showtoc", "tocopen",
    ]

    /// ``known`` in a fixed order, for the nearest of equals to be the same every time.
    static let knownSorted = known.sorted()

    /// The warning for `key` when it is unknown yet near a known key (a misspelling); nil for a known key, and for
    /// one near no known key (a field of the blog's own a template may show, as Jekyll's `page.x` and Hugo's
    /// `.Params.x` do). Nearer than for a command's name: one edit (two from 7 letters on), since a header may hold
    /// any word (`about:` is no misspelled `layout:`).
    static func misspelling(_ key: String) -> String? {
        guard !known.contains(key), let meant = EditDistance.nearest(key, among: knownSorted),
              EditDistance.between(key, meant) <= (key.count >= 7 ? 2 : 1) else { return nil }
        return "unknown header key `\(key)` (no part of blog reads it): did you mean `\(meant)`?"
    }
}
