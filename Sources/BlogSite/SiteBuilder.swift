import BlogConfig
import BlogContent
import BlogCore
import Foundation

/// Which posts take part in a build.
package struct SiteOptions: Sendable {
    /// Include drafts (`--drafts`).
    var includeDrafts: Bool
    /// Include posts dated after `now` (`--future`).
    var includeFuture: Bool
    /// The build's "now", for future posts.
    var now: Date

    package init(includeDrafts: Bool = false, includeFuture: Bool = false, now: Date = Date()) {
        self.includeDrafts = includeDrafts
        self.includeFuture = includeFuture
        self.now = now
    }
}

/// A post read and rendered, before it has a place in the site.
package struct RenderedPost: Sendable {
    /// The post as read.
    package var post: Post
    /// Its rendered body and summary.
    var rendered: RenderedMarkdown

    package init(post: Post, rendered: RenderedMarkdown) {
        self.post = post
        self.rendered = rendered
    }
}

/// Turns posts into the site model: which posts are in, their order, URLs, tags, archives and
/// the list of pages. Every URL is checked here: two pages that want the same URL are an error
/// naming both sources.
package enum SiteBuilder {
    /// Builds the site model. Throws ``BuildFailure`` when URLs collide.
    /// - Parameters:
    ///   - posts: every post read, in any order.
    ///   - assets: files under `content/` to copy as they are (paths relative to `content/`).
    package static func build(posts: [RenderedPost], assets: [String] = [], config: SiteConfig,
                      options: SiteOptions) throws -> Site {
        let included = posts.filter { item in
            switch item.post.status {
            case .draft: if !options.includeDrafts { return false }
            case .published, .hidden: break
            }
            return options.includeFuture || item.post.date <= options.now
        }
        // Sorting indices moves integers, not whole posts.
        let order = included.indices.sorted { newestFirst(included[$0], included[$1]) }
        var sitePosts = Parallel.map(order.count) { number -> SitePost in
            let item = included[order[number]]
            let (url, outputPath) = placement(of: item.post, config: config)
            return SitePost(post: item.post, rendered: item.rendered, url: url, outputPath: outputPath)
        }
        let permalinks = config.permalinks
        let replacements = self.replacements(sitePosts, permalinks: permalinks)
        for (generated, index) in replacements where outputPath(for: sitePosts[index].url) == generated.outputPath(in: permalinks) {
            // `save_as: index.html` names the home page's file: its links go to `/`, as the home page's do.
            sitePosts[index].url = generated.url(in: permalinks)
        }
        let listURL = replacements[.home] == nil ? "" : config.permalinks.homeList
        let (translated, versions) = translations(sitePosts, config: config)
        for (index, others) in versions { sitePosts[index].translations = others }
        let listed = sitePosts.indices.filter {
            let post = sitePosts[$0].post
            return post.status != .hidden && post.kind == .post && !translated.contains($0)
        }
        let tags = termGroups(.tag, sitePosts, listed: listed, config: config)
        let categories = termGroups(.category, sitePosts, listed: listed, config: config)
        let authors = termGroups(.author, sitePosts, listed: listed, config: config)
        let sections = sectionGroups(sitePosts, translated: translated, config: config)
        let archives = archiveYears(sitePosts, listed: listed.filter { sitePosts[$0].post.dated }, timeZone: config.timeZone)

        var pages: [Page] = sitePosts.indices.map { Page(kind: .post($0), url: sitePosts[$0].url, outputPath: sitePosts[$0].outputPath) }
        for pagination in paginate(listed, perPage: config.paginate, firstURL: listURL, style: permalinks.listPages) {
            let url = listPageURL(listURL, pagination.number, style: permalinks.listPages)
            pages.append(Page(kind: .home(pagination), url: url, outputPath: outputPath(for: url)))
        }
        for (taxonomy, groups) in [(Taxonomy.tag, tags), (.category, categories), (.author, authors), (.section, sections)] {
            pages += termPages(taxonomy, groups: groups, config: config)
        }
        for (generated, kind) in [(GeneratedPage.tagIndex, Page.Kind.termIndex(.tag)), (.archives, .archives), (.notFound, .notFound)]
        where replacements[generated] == nil {
            pages.append(Page(kind: kind, url: generated.url(in: permalinks), outputPath: generated.outputPath(in: permalinks)))
        }

        var redirects: [Redirect] = []
        for (index, item) in sitePosts.enumerated() {
            for alias in item.post.aliases {
                redirects.append(Redirect(url: alias, outputPath: outputPath(for: alias), target: index))
            }
        }
        if permalinks.firstPageAlias {
            for page in pages {
                let first: String
                switch page.kind {
                case .home(let pagination) where pagination.number == 1: first = listURL
                case .term(_, _, let pagination) where pagination.number == 1: first = page.url
                default: continue
                }
                let alias = first + "page/1/"
                redirects.append(Redirect(url: alias, outputPath: outputPath(for: alias), target: nil, location: first))
            }
        }
        var diagnostics: [Diagnostic] = []
        for rule in config.redirects {
            switch redirectTarget(rule.to, posts: sitePosts, content: config.content) {
            case .success(let redirect):
                var redirect = redirect
                redirect.url = rule.from
                redirect.outputPath = outputPath(for: rule.from)
                redirect.rule = rule
                redirects.append(redirect)
            case .failure(let message):
                diagnostics.append(.error(rule.file, line: rule.line, column: rule.column, message.text))
            }
        }

        var site = Site(config: config, posts: sitePosts, listed: listed, tags: tags, archives: archives,
                        pages: pages, assets: placeAssets(assets, posts: sitePosts, allPosts: posts.map(\.post)))
        site.categories = categories
        site.authors = authors
        site.sections = sections
        site.redirects = redirects
        site.translations = translated
        site.replacements = replacements
        site.listURL = listURL
        diagnostics += urlCollisions(site)
        if !diagnostics.isEmpty { throw BuildFailure(diagnostics.sortedForDisplay()) }
        return site
    }

    /// A message for a `redirects:` target that names nothing.
    struct RedirectProblem: Error { var text: String }

    /// Where a `redirects:` entry sends (the old URL is filled in by the caller): the post whose
    /// file `to` names (`posts/x.md` under content/, or `content/posts/x.md`), an absolute
    /// address as it is, or a site URL (`/posts/new/`) cleaned as aliases are.
    static func redirectTarget(_ to: String, posts: [SitePost], content: String) -> Result<Redirect, RedirectProblem> {
        if to.hasPrefix("http://") || to.hasPrefix("https://") {
            return .success(Redirect(url: "", outputPath: "", target: nil, location: to))
        }
        let file = to.hasPrefix("/") ? String(to.drop { $0 == "/" }) : to
        if ContentScanner.postExtensions.contains((file as NSString).pathExtension.lowercased()) {
            let contentPrefix = content.hasSuffix("/") ? content : content + "/"
            let underContent = file.hasPrefix(contentPrefix) ? String(file.dropFirst(contentPrefix.count)) : file
            guard let index = posts.firstIndex(where: { $0.post.contentPath == underContent }) else {
                return .failure(RedirectProblem(text: "`redirects`: no post or page is built from \"\(to)\" (a file under \(contentPrefix), such as posts/x.md; drafts and future posts are built only with --drafts/--future)"))
            }
            return .success(Redirect(url: "", outputPath: "", target: index))
        }
        guard let url = SitePath.clean(to) else {
            return .failure(RedirectProblem(text: "`redirects`: \"\(to)\" is neither a URL inside the site such as /posts/new/, an address such as https://example.org/, nor a post's file"))
        }
        return .success(Redirect(url: "", outputPath: "", target: nil, location: url))
    }

    /// The generated pages that posts replace: a post or page whose header names a generated
    /// page's output (`save_as: index.html`, `url:` empty, `permalink: /`, `url: /tags/`,
    /// `save_as: 404.html`) takes its place, as Pelican's explicit `save_as` overrides a generated
    /// file, for articles and pages alike. A URL that only comes from a slug and a permalink
    /// pattern claims nothing (it collides). When several posts claim one page the first is
    /// kept here; the others then collide with it, an error naming both.
    static func replacements(_ posts: [SitePost], permalinks: Permalinks = Permalinks()) -> [GeneratedPage: Int] {
        var replaced: [GeneratedPage: Int] = [:]
        for (index, item) in posts.enumerated() where hasExplicitURL(item.post) {
            guard let generated = GeneratedPage.allCases.first(where: { $0.outputPath(in: permalinks) == item.outputPath }) else { continue }
            if replaced[generated] == nil { replaced[generated] = index }
        }
        return replaced
    }

    /// Whether the header names the post's URL or output file (`save_as`, `url`, `permalink`).
    static func hasExplicitURL(_ post: Post) -> Bool {
        post.saveAs != nil || post.permalink != nil
    }

    /// A note for each generated page that a post replaces (see ``replacements(_:)``), at the
    /// post's file: intended, so never a warning, but the site then lacks a page it would have.
    package static func replacementNotes(_ site: Site) -> [Diagnostic] {
        site.replacements.sorted { $0.value < $1.value }.map { generated, index in
            let post = site.posts[index].post
            let what = post.kind == .page ? "page" : "post"
            var message = "this \(what) replaces the generated \(generated.noun)"
            switch generated {
            case .home: message += "; the post list is at /\(site.listURL) (`permalinks.home_list`)"
            case .tagIndex: message += "; each tag's page is still generated"
            case .archives, .notFound: break
            }
            return .note(post.source, message)
        }
    }

    /// Newest first, undated posts last; ties broken by title, then source path, so the order
    /// never depends on input order.
    static func newestFirst(_ a: RenderedPost, _ b: RenderedPost) -> Bool {
        if a.post.dated != b.post.dated { return a.post.dated }
        if a.post.date != b.post.date { return a.post.date > b.post.date }
        if a.post.title != b.post.title { return a.post.title < b.post.title }
        return a.post.source < b.post.source
    }

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
        var folder = post.contentPath.folderPart
        if post.isBundle { folder = folder.folderPart }
        return folder
    }

    /// Whether `path` (under content/) is a Hugo section page, `_index.md`.
    package static func isSectionIndex(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent.lowercased()
        return name.hasPrefix("_index.")
    }

    /// `en` and `en-GB`, `EN`: the same language for URLs.
    static func sameLanguage(_ a: String, _ b: String) -> Bool {
        func primary(_ s: String) -> String { String(s.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "") }
        return primary(a) == primary(b)
    }

    /// Pelican's translations. Posts of the same kind, status and slug (Pelican's
    /// `translation_id`) are one post in several languages. In each such group the originals are
    /// the posts not marked `translation: true` (every post, when all are marked) in the site's
    /// language, else all of those: the others are `unlisted`, with a page under `<lang>/` but in
    /// no list. `versions` gives, for each post of a group, the others in another language, by
    /// language then URL, so every translation links every other.
    static func translations(_ posts: [SitePost], config: SiteConfig) -> (unlisted: Set<Int>, versions: [Int: [Int]]) {
        // Versions of a post share its kind, status and slug. (A key made by interpolating the two
        // enums cost a third of the site model: String(describing:) reflects on them.)
        struct Version: Hashable {
            var kind: PostKind, status: PostStatus, slug: String
        }
        var groups: [Version: [Int]] = [:]
        for (index, item) in posts.enumerated() {
            groups[Version(kind: item.post.kind, status: item.post.status, slug: item.post.slug), default: []].append(index)
        }
        func language(_ index: Int) -> String { (posts[index].post.lang ?? config.language).lowercased() }
        var unlisted = Set<Int>()
        var versions: [Int: [Int]] = [:]
        for group in groups.values where group.count > 1 {
            let unmarked = group.filter { !isMarkedTranslation(posts[$0].post) }
            let candidates = unmarked.isEmpty ? group : unmarked
            let inSiteLanguage = candidates.filter { posts[$0].post.lang.map { sameLanguage($0, config.language) } ?? true }
            let originals = Set(inSiteLanguage.isEmpty ? candidates : inSiteLanguage)
            unlisted.formUnion(group.filter { !originals.contains($0) })
            let ordered = group.sorted { (language($0), posts[$0].url) < (language($1), posts[$1].url) }
            for index in group {
                let others = ordered.filter { language($0) != language(index) }
                if !others.isEmpty { versions[index] = others }
            }
        }
        return (unlisted, versions)
    }

    /// Pelican's `translation` header: any value but `false` marks a post as a translation.
    static func isMarkedTranslation(_ post: Post) -> Bool {
        guard let value = post.meta["translation"]?.text else { return false }
        return value.trimmingWhitespaces().lowercased() != "false"
    }

    /// Where each file under content/ is copied. A file in a page bundle (the folder of a post
    /// that is its folder's, see ``PageBundle``, and its subfolders) goes beside the bundle's page,
    /// as Hugo does; a file that a post links with Pelican's `{attach}` goes beside that post's
    /// page; every other file keeps its path. Files of bundles whose post is left out (a draft) are
    /// left out too, and so are a TextBundle's `info.json` and a README at the top of content/.
    static func placeAssets(_ assets: [String], posts: [SitePost], allPosts: [Post]) -> [SiteAsset] {
        // Bundle folder -> the output folder of its page (nil when the post is left out).
        var bundles: [String: String?] = [:]
        for post in allPosts where post.isBundle {
            bundles[post.contentPath.folderPart] = .some(nil)
        }
        for item in posts where item.post.isBundle {
            bundles[item.post.contentPath.folderPart] = item.outputPath.folderPart
        }
        let attached = ContentLinks.attachments(posts)
        var placed: [SiteAsset] = []
        for asset in assets where !PageBundle.isUnpublished(asset) {
            if let target = attached[asset] {
                placed.append(SiteAsset(source: asset, path: target))
                continue
            }
            var folder = asset.folderPart
            var bundle: (folder: String, output: String?)?
            while !folder.isEmpty {
                if let output = bundles[folder] { bundle = (folder, output); break }
                folder = folder.folderPart
            }
            if let bundle {
                guard let output = bundle.output else { continue }
                let inside = String(asset.dropFirst(bundle.folder.count + 1))
                placed.append(SiteAsset(source: asset, path: output.isEmpty ? inside : output + "/" + inside))
            } else {
                placed.append(SiteAsset(source: asset, path: asset))
            }
        }
        return placed
    }

    /// A permalink pattern filled in for `post` (`posts/{slug}/`). A placeholder that is empty
    /// (`{folder}` at the top of content/, `{categories}` of a post without any) takes its `/` with
    /// it, as Jekyll and Hugo leave no empty segment.
    static func fill(_ pattern: String, _ post: Post, config: SiteConfig) -> String {
        var url = pattern
        guard ByteSearch.contains(url, "{") else { return url }
        let fields = CivilTime(post.date, timeZone: config.timeZone)
        let values: [(String, () -> String)] = [
            ("{year}", { DateText.padded(fields.year, 4) }),
            ("{month}", { DateText.padded(fields.month, 2) }),
            ("{day}", { DateText.padded(fields.day, 2) }),
            ("{slug}", { config.permalinks.asciiSlugs && post.meta["slug"] == nil ? Slug.ascii(post.slug) : post.slug }),
            ("{category}", { post.category?.slug.nilIfEmpty ?? "uncategorized" }),
            ("{categories}", { jekyllCategories(post) }),
            ("{folder}", { folder(of: post) }),
        ]
        for (placeholder, value) in values where ByteSearch.contains(url, placeholder) {
            let text = value()
            if text.isEmpty { url = url.replacingOccurrences(of: placeholder + "/", with: "") }
            url = url.replacingOccurrences(of: placeholder, with: text)
        }
        return url
    }

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

    /// Listed posts by year and month in the site's time zone, newest first.
    static func archiveYears(_ posts: [SitePost], listed: [Int], timeZone: TimeZone) -> [ArchiveYear] {
        var years: [ArchiveYear] = []
        for index in listed {  // newest first already
            let fields = CivilTime(posts[index].post.date, timeZone: timeZone)
            if years.last?.year != fields.year {
                years.append(ArchiveYear(year: fields.year, months: []))
            }
            if years[years.count - 1].months.last?.month != fields.month {
                years[years.count - 1].months.append(ArchiveMonth(month: fields.month, posts: []))
            }
            let y = years.count - 1, m = years[y].months.count - 1
            years[y].months[m].posts.append(index)
        }
        return years
    }

    /// The URL of page `number` of a list whose first page is at `first`: `first` itself for page 1;
    /// then `page/N/` in its folder (`.folders`), `pageN/` (`.numberedFolders`), or its file
    /// with the number before the extension, `index2.html`, `tag/swift2.html` (`.numberedFiles`).
    static func listPageURL(_ first: String, _ number: Int, style: ListPages) -> String {
        guard number > 1 else { return first }
        switch style {
        case .folders: return "\(first)page/\(number)/"
        case .numberedFolders: return "\(first)page\(number)/"
        case .numberedFiles:
            if first.isEmpty || first.hasSuffix("/") { return "\(first)index\(number).html" }
            // Substrings share `first`'s indices: the last `.` of the last segment.
            let name = first.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
            guard let dot = name.lastIndex(of: ".") else { return "\(first)\(number)" }
            return "\(first[..<dot])\(number)\(first[dot...])"
        }
    }

    /// Splits a list into pages; page 1 lives at `firstURL`, page N at ``listPageURL(_:_:style:)``.
    /// An empty list still has one (empty) page.
    static func paginate(_ items: [Int], perPage: Int, firstURL: String, style: ListPages = .folders) -> [Pagination] {
        let size = max(1, perPage)
        let count = max(1, (items.count + size - 1) / size)
        func url(_ n: Int) -> String { listPageURL(firstURL, n, style: style) }
        return (1...count).map { n in
            let start = (n - 1) * size
            let slice = Array(items[min(start, items.count)..<min(start + size, items.count)])
            return Pagination(number: n, count: count, posts: slice,
                              newerURL: n > 1 ? url(n - 1) : nil,
                              olderURL: n < count ? url(n + 1) : nil)
        }
    }

    /// Output paths that differ only by case (`posts/Swift/` and `posts/swift/`), as warnings naming both sources: on
    /// a case-insensitive file system (macOS's and Windows' by default, and many hosts') one file would replace the
    /// other, so a page would be missing without a word. Compared with Unicode's simple lower-casing.
    package static func caseCollisions(_ site: Site) -> [Diagnostic] {
        var seen: [String: (path: String, source: String)] = [:]
        var warnings: [Diagnostic] = []
        func source(of page: Page) -> String {
            if case .post(let index) = page.kind { return site.posts[index].post.source }
            return "the generated page /\(page.url)"
        }
        let files = site.pages.map { ($0.outputPath, source(of: $0)) } + site.assets.map { ($0.path, "content/" + $0.source) }
        for (path, owner) in files {
            let folded = path.lowercased()
            if let first = seen[folded] {
                if first.path != path {
                    warnings.append(.warning(owner, "its output /\(path) differs only by case from /\(first.path) of \(first.source): on a case-insensitive file system (macOS, Windows, many web hosts) one replaces the other; rename one of them"))
                }
            } else {
                seen[folded] = (path, owner)
            }
        }
        return warnings.sortedForDisplay()
    }

    /// Every output path wanted twice (pages and copied assets), as errors naming both sources.
    static func urlCollisions(_ site: Site) -> [Diagnostic] {
        /// Who wants a path, whether its header names that URL (then a `slug` can't move it), and
        /// the line that asks for it (a `redirects:` entry of blog.yml).
        typealias Owner = (name: String, explicit: Bool, at: (file: String, line: Int, column: Int)?)
        var owners: [String: Owner] = [:]   // output path -> who wants it
        var diagnostics: [Diagnostic] = []
        func describe(_ page: Page) -> Owner {
            switch page.kind {
            case .post(let i): return (site.posts[i].post.source, hasExplicitURL(site.posts[i].post), nil)
            case .home: return (site.listURL.isEmpty ? "the home page list" : "the post list (`permalinks.home_list`)", false, nil)
            case .term(let taxonomy, let i, _): return (taxonomy.pageName(site.terms(taxonomy)[i].tag), false, nil)
            case .termIndex(let taxonomy): return (taxonomy.indexName, false, nil)
            case .archives: return (GeneratedPage.archives.name, false, nil)
            case .notFound: return (GeneratedPage.notFound.name, false, nil)
            }
        }
        func claim(_ path: String, by owner: Owner, blameNewcomer: Bool) {
            if let first = owners[path] {
                let shownURL = "/" + (path == "index.html" || path.hasSuffix("/index.html") ? String(path.dropLast("index.html".count)) : path)
                let location = blameNewcomer ? owner : first
                let other = blameNewcomer ? first : owner
                let fix = location.at != nil ? "change or remove this `redirects` entry"
                    : location.explicit ? "change the `save_as`, `url` or `permalink` of one of them" : "give one of them another `slug`"
                let message = "URL \(shownURL) is also wanted by \(other.name): two pages can't share a URL; \(fix)"
                if let at = location.at {
                    diagnostics.append(.error(at.file, line: at.line, column: at.column, message))
                } else {
                    diagnostics.append(.error(location.name, message))
                }
            } else {
                owners[path] = owner
            }
        }
        // Generated pages first, so a post that collides with one is the one named at fault.
        for page in site.pages where !isPost(page) { claim(page.outputPath, by: describe(page), blameNewcomer: false) }
        for page in site.pages where isPost(page) { claim(page.outputPath, by: describe(page), blameNewcomer: true) }
        for asset in site.assets { claim(asset.path, by: ("content/" + asset.source, false, nil), blameNewcomer: true) }
        for redirect in site.redirects {
            if let rule = redirect.rule {
                claim(redirect.outputPath, by: ("`redirects` entry /\(redirect.url) of \(rule.file)", false, (rule.file, rule.line, rule.column)), blameNewcomer: true)
            } else if let target = redirect.target {
                claim(redirect.outputPath, by: (site.posts[target].post.source + " (alias /\(redirect.url))", false, nil), blameNewcomer: true)
            } else {
                claim(redirect.outputPath, by: ("the alias /\(redirect.url) of the list's first page", false, nil), blameNewcomer: false)
            }
        }
        return diagnostics.sortedForDisplay()
    }

    private static func isPost(_ page: Page) -> Bool {
        if case .post = page.kind { return true }
        return false
    }
}

extension String {
    /// nil when empty.
    package var nilIfEmpty: String? { isEmpty ? nil : self }
}
