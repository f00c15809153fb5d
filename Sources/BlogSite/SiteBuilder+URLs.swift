import BlogConfig
import BlogContent
import BlogCore
import Foundation

// Where each post goes: its URL and output file, from its header or a permalink pattern.

extension SiteBuilder {
    /// A post's URL and output file: the header's `save_as` and `permalink`/`url` when given; a
    /// Hugo section page (`news/_index.md`) at its folder's URL; a page from `permalinks.page`; a
    /// post from `permalinks.post`. A post in another language than the site's goes under `<lang>/`.
    static func placement(of post: Post, config: SiteConfig) -> (url: String, outputPath: String) {
        if let saveAs = post.saveAs {
            return (post.permalink ?? saveAs, outputPath(for: saveAs))
        }
        if let permalink = post.permalink { return (permalink, outputPath(for: permalink)) }
        let permalinks = config.permalinks
        var url: String
        let otherLanguage = post.lang.flatMap { sameLanguage($0, config.language) ? nil : Slug.make($0) }
        let sectionIndex = post.kind == .page && isSectionIndex(post.contentPath)
        // Pelican's `{slug}-{lang}.html`; else the usual URL under `<lang>/`.
        let languagePattern = otherLanguage == nil || sectionIndex ? nil : post.kind == .page ? permalinks.pageInLanguage : permalinks.postInLanguage
        if sectionIndex {
            url = post.contentPath.folderPart + "/"
        } else if post.status == .draft, let draft = post.kind == .page ? permalinks.draftPage : permalinks.draft {
            url = fill(draft, post, config: config)
        } else if let languagePattern, let otherLanguage {
            url = fill(languagePattern, post, config: config).replacingOccurrences(of: "{lang}", with: otherLanguage)
        } else {
            url = fill(post.kind == .page ? permalinks.page : permalinks.post, post, config: config)
        }
        if permalinks.lowercase { url = url.lowercased() }
        if let otherLanguage, languagePattern == nil { url = otherLanguage + "/" + url }
        return (url, outputPath(for: url))
    }

    /// The post's folder under content/ for `{folder}` (Hugo's section path): the folder of its
    /// file, or of its bundle's folder; `""` at the top.
    static func folder(of post: Post) -> String {
        folder(contentPath: post.contentPath, isBundle: post.isBundle)
    }

    /// ``folder(of:)`` of a post with these fields.
    static func folder(contentPath: String, isBundle: Bool) -> String {
        var folder = contentPath.folderPart
        if isBundle { folder = folder.folderPart }
        return folder
    }

    /// Whether `path` (under content/) is a Hugo section page, `_index.md`.
    package static func isSectionIndex(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent.lowercased()
        return name.hasPrefix("_index.")
    }

    /// A permalink pattern filled in for `post` (`posts/{slug}/`). A placeholder that is empty
    /// (`{folder}` at the top of content/, `{categories}` of a post without any) takes its `/` with
    /// it, as Jekyll and Hugo leave no empty segment.
    static func fill(_ pattern: String, _ post: Post, config: SiteConfig) -> String {
        var url = pattern
        guard ByteSearch.contains(url, "{") else { return url }
        // Each value made only when its placeholder is there, in this order; no closure per placeholder (each
        // held a copy of the post and of the configuration: 20 k instructions a post).
        var fields: CivilTime?
        func date() -> CivilTime {
            if let fields { return fields }
            let made = CivilTime(post.date, timeZone: config.timeZone(of: post))
            fields = made
            return made
        }
        for placeholder in placeholders where ByteSearch.contains(url, placeholder) {
            let text: String
            switch placeholder {
            case "{year}": text = DateText.padded(date().year, 4)
            case "{month}": text = DateText.padded(date().month, 2)
            case "{day}": text = DateText.padded(date().day, 2)
            case "{slug}": text = config.permalinks.asciiSlugs ? post.asciiSlug : post.slug
            case "{category}": text = terms(.category, of: post, config: config).first?.slug.nilIfEmpty ?? "uncategorized"
            case "{categories}": text = jekyllCategories(post)
            default: text = folder(of: post)
            }
            if text.isEmpty { url = ByteSearch.replacing(placeholder + "/", with: "", in: url) }
            url = ByteSearch.replacing(placeholder, with: text, in: url)
        }
        return url
    }

    /// The placeholders of a post's permalink pattern, in the order ``fill(_:_:config:)`` fills them.
    private static let placeholders = ["{year}", "{month}", "{day}", "{slug}", "{category}", "{categories}", "{folder}"]

    /// Jekyll's `:categories`: the post's categories, lower-cased, repeats dropped, joined by `/`.
    /// A name that is not one safe URL segment (a `/`, `..`) is slugged instead; spaces are kept, as Jekyll keeps them.
    static func jekyllCategories(_ post: Post) -> String {
        var seen = Set<String>()
        return post.categories.compactMap { category -> String? in
            var name = category.name.lowercased()
            if !PathSafety.isSafeSegment(name) { name = category.slug }
            return name.isEmpty || !seen.insert(name).inserted ? nil : name
        }.joined(separator: "/")
    }

    /// `posts/x/` -> `posts/x/index.html`; a URL ending in `.html` is its own file.
    static func outputPath(for url: String) -> String {
        if url.isEmpty { return "index.html" }
        return url.hasSuffix("/") ? url + "index.html" : url
    }
}
