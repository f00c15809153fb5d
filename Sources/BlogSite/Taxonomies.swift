import BlogConfig
import BlogContent
import BlogCore
import Foundation

/// Tags, categories, authors and sections: one way of grouping posts (``Taxonomy``), whatever the kind. Each
/// term with listed posts gets list pages (paginated as the home list) at its permalink pattern,
/// and the taxonomy an index of every term; a taxonomy without a page pattern
/// (``TermPatterns/page`` nil, as Jekyll's categories) gets neither.
extension SiteBuilder {
    /// The terms of `taxonomy` among the `listed` posts (for sections, the listed posts and pages), by
    /// the slug in their URLs (``tagSlug(_:_:)``: terms whose URLs are the same are one term, as in
    /// Pelican and Hugo; the display name is the first spelling in date order), each with its posts
    /// newest first; empty when the taxonomy has no pages, or for authors when the only one is the
    /// site's or wrote every post (unless ``Permalinks/siteAuthorPages``).
    static func termGroups(_ taxonomy: Taxonomy, _ posts: [SitePost], listed: [Int], config: SiteConfig) -> [TagGroup] {
        let permalinks = config.permalinks
        guard let pattern = permalinks.terms(taxonomy).page else { return [] }
        // The groups in the order met, each found by its key once per post that has it (three lookups were
        // 3.7 M instructions for 1,000 posts).
        var groups: [TagGroup] = []
        var groupOf: [String: Int] = [:]
        // The posts read in place: an array's element passed as an argument was copied, every string retained.
        posts.withUnsafeBufferPointer { posts in
            for index in listed.reversed() {  // oldest first, so the oldest spelling names the term
                // A post's terms from its fields, read in place (a call with the post copied it, even inlined).
                let post = posts.baseAddress! + index
                let terms = taxonomy == .tag ? post.pointee.post.tags
                    : terms(taxonomy, tags: post.pointee.post.tags, categories: post.pointee.post.categories,
                            authors: post.pointee.post.authors, contentPath: post.pointee.post.contentPath,
                            isBundle: post.pointee.post.isBundle, config: config)
                for term in terms where !term.slug.isEmpty {
                    let key = tagSlug(term, permalinks)
                    let group: Int
                    if let found = groupOf[key] {
                        group = found
                    } else {
                        group = groups.count
                        groupOf[key] = group
                        groups.append(TagGroup(tag: term, posts: [], url: termPath(pattern, term, permalinks)))
                    }
                    // A post with two spellings of one term (`スマホSMS` and `SMS` under `pelican`) is listed once.
                    if groups[group].posts.last != index { groups[group].posts.append(index) }
                }
            }
        }
        if taxonomy == .author, !permalinks.siteAuthorPages, groups.count <= 1,
           groups.allSatisfy({ $0.tag.slug == Tag(name: config.author).slug || $0.posts.count == listed.count }) {
            return []  // a blog by one person: an author page would repeat the post list
        }
        for group in groups.indices { groups[group].posts.reverse() }  // newest first
        return groups.sorted { $0.tag.slug < $1.tag.slug }
    }

    /// The sections (Hugo's), when ``Permalinks/section`` has a page pattern: they list pages too
    /// (not translations, hidden posts or `_index.md`), and a content page at a section's URL
    /// (its `_index.md`) takes its place. Without the pattern no post is looked at: the path
    /// functions alone cost 1% of a clean build of 1,000 posts (callgrind).
    static func sectionGroups(_ posts: [SitePost], translated: Set<Int>, config: SiteConfig) -> [TagGroup] {
        guard config.permalinks.section.page != nil else { return [] }
        let inSections = posts.indices.filter {
            posts[$0].post.status != .hidden && !translated.contains($0) && !isSectionIndex(posts[$0].post.contentPath)
        }
        let postURLs = Set(posts.map(\.url))
        return termGroups(.section, posts, listed: inSections, config: config).filter { !postURLs.contains($0.url) }
    }

    /// The terms of `taxonomy` that `post` is listed under: its tags; its categories (when it has
    /// none: under ``Permalinks/folderCategories``, its folder's name; else `default_category`,
    /// or `misc` under ``Permalinks/folderCategories``, as Pelican's `DEFAULT_CATEGORY`); its
    /// authors, else the site's; its top folder under content/ (none at the top).
    /// Inlined: called on a post of an array, it then reads the fields it needs in place (a call copied the
    /// whole post first, every one of its strings retained).
    @inline(__always)
    package static func terms(_ taxonomy: Taxonomy, of post: Post, config: SiteConfig) -> [Tag] {
        terms(taxonomy, tags: post.tags, categories: post.categories, authors: post.authors, contentPath: post.contentPath,
              isBundle: post.isBundle, config: config)
    }

    /// ``terms(_:of:config:)`` of a post with these fields.
    static func terms(_ taxonomy: Taxonomy, tags: [Tag], categories: [Tag], authors: [String], contentPath: String,
                      isBundle: Bool, config: SiteConfig) -> [Tag] {
        switch taxonomy {
        case .tag:
            return tags
        case .category:
            guard categories.isEmpty else { return categories }
            let folder = config.permalinks.folderCategories
                ? (folder(contentPath: contentPath, isBundle: isBundle) as NSString).lastPathComponent : ""
            if !folder.isEmpty { return [Tag(name: folder)] }
            let fallback = config.defaultCategory ?? (config.permalinks.folderCategories ? "misc" : "")
            return fallback.isEmpty ? [] : [Tag(name: fallback)]
        case .author:
            let names = authors.isEmpty ? [config.author] : authors
            var seen = Set<Tag>()
            return names.map(Tag.init(name:)).filter { !$0.slug.isEmpty && seen.insert($0).inserted }
        case .section:
            let folders = contentPath.split(separator: "/").dropLast()
            // Named as Hugo titles it: `posts/` is "Posts".
            return folders.first.map { [Tag(name: $0.prefix(1).uppercased() + $0.dropFirst())] } ?? []
        }
    }

    /// A term's slug in its URLs: Pelican's `slugify` of its name under ``Permalinks/asciiSlugs``
    /// (its own slug when that leaves nothing), Hugo's `urlize` of its name under
    /// ``Permalinks/hugoTagSlugs``. Terms with the same one are one term (``termGroups``).
    package static func tagSlug(_ tag: Tag, _ permalinks: Permalinks) -> String {
        if permalinks.hugoTagSlugs, let term = Slug.hugoTerm(tag.name) { return term }
        guard permalinks.asciiSlugs else { return tag.slug }
        let pelican = Slug.pelican(tag.name)
        return pelican.isEmpty ? tag.slug : pelican
    }

    /// A note for each spelling of a term that shares its URL with another spelling (`スマホSMS` and
    /// `SMS`, both `tag/sms.html` under `pelican`; `Swift` and `swift` are one slug and need none),
    /// at the first post that uses it: the two are one term, under the first spelling, as Pelican
    /// and Hugo make them.
    package static func mergedTermNotes(_ site: Site) -> [Diagnostic] {
        let permalinks = site.config.permalinks
        var notes: [Diagnostic] = []
        // The posts read in place: `let post = site.posts[index].post` copied each post, every string retained.
        site.posts.withUnsafeBufferPointer { posts in
            for taxonomy in [Taxonomy.tag, .category, .author] {
                for group in site.terms(taxonomy) {
                    let key = tagSlug(group.tag, permalinks)
                    var noted: Set<String> = [group.tag.slug]
                    for index in group.posts.reversed() {  // oldest first, as the name was chosen
                        for term in terms(taxonomy, of: posts[index].post, config: site.config)
                        where tagSlug(term, permalinks) == key && noted.insert(term.slug).inserted {
                            notes.append(.note(posts[index].post.source, "\(taxonomy.rawValue) \"\(term.name)\" has the URL /\(group.url) of \(taxonomy.rawValue) \"\(group.tag.name)\": they are one \(taxonomy.rawValue), named \"\(group.tag.name)\"; rename one to keep them apart"))
                        }
                    }
                }
            }
        }
        return notes.sortedForDisplay()
    }

    /// `pattern` (a term's page or feed pattern) with the term's slug in its URLs for `{slug}`.
    package static func termPath(_ pattern: String, _ term: Tag, _ permalinks: Permalinks) -> String {
        // Byte for byte, as the permalinks' placeholders (``fill(_:_:config:)``): Foundation's search through NSString
        // cost ~1,800 instructions a term.
        ByteSearch.replacing("{slug}", with: tagSlug(term, permalinks), in: pattern)
    }

    /// The list pages of every term of `taxonomy` (`groups`), then, for a taxonomy other than tags
    /// (whose index is a ``GeneratedPage`` made even when empty), its index when it has terms.
    static func termPages(_ taxonomy: Taxonomy, groups: [TagGroup], config: SiteConfig) -> [Page] {
        let permalinks = config.permalinks
        var pages: [Page] = []
        for (index, group) in groups.enumerated() {
            for pagination in paginate(group.posts, perPage: config.paginate, firstURL: group.url, style: permalinks.listPages) {
                let url = listPageURL(group.url, pagination.number, style: permalinks.listPages)
                pages.append(Page(kind: .term(taxonomy, index, pagination), url: url, outputPath: outputPath(for: url)))
            }
        }
        if taxonomy != .tag, !groups.isEmpty, let url = permalinks.terms(taxonomy).index {
            pages.append(Page(kind: .termIndex(taxonomy), url: url, outputPath: outputPath(for: url)))
        }
        return pages
    }
}

extension Taxonomy {
    /// How messages name one term's page (`the page of category "Notes"`).
    func pageName(_ term: Tag) -> String { "the page of \(rawValue) \"\(term.name)\"" }

    /// How messages name the index (`the tags index`).
    var indexName: String { self == .tag ? GeneratedPage.tagIndex.name : "the \(plural) index" }
}
