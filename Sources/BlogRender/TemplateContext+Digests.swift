import BlogConfig
import BlogContent
import BlogCore
import BlogSite
import Foundation

/// The digests of a context built with them (see ``PageInputs``): what a page's values were made from, so that
/// a build can tell which pages would come out as they are.
extension TemplateContext {
    /// A post's values, its real body (`html`, before its marker stood for it) standing for `html`.
    static func postDigest(_ values: [String: Any], html: String) -> Digest {
        postDigest(values, html: html, own: nil).digest
    }

    /// A post's `related` (``PostValues/entries``, by index into ``Site/posts``) as its digest walks them: each
    /// entry (what a post shows of another) summed once for the build, not once for each of the (5) posts that
    /// list it. The digest is the one the entries walked give.
    struct RelatedEntries {
        /// By index into ``Site/posts``: each post's entry's count of keys and sum (``PageInputs/entries(of:replacing:)``),
        /// for the posts whose digests are made; zero for the others.
        let sums: [(count: Int, entries: Digest)]
        /// The indices of each post's related posts (``Site/related``).
        let related: [[Int]]

        /// `making`: whether each post's digest is made (nil: every post's); the entries summed are those their
        /// `related` show.
        init(entries: [TemplateRecord], related: [[Int]], making: [Bool]? = nil) {
            self.related = related
            // Without related posts (`related_posts: 0`), nothing to sum.
            guard related.contains(where: { !$0.isEmpty }) else {
                sums = []
                return
            }
            guard let making else {
                sums = Parallel.map(entries.count) { PageInputs.entries(of: entries[$0]) }
                return
            }
            var shown = [Bool](repeating: false, count: entries.count)
            for (index, made) in making.enumerated() where made && index < related.count {
                for other in related[index] { shown[other] = true }
            }
            sums = Parallel.map(entries.count) { shown[$0] ? PageInputs.entries(of: entries[$0]) : (0, .zero) }
        }

        /// Adds post `index`'s `related`, as ``PageInputs/add(_:to:)`` adds the array of its entries.
        func add(_ index: Int, to input: inout DigestInput) {
            let list = index < related.count ? related[index] : []
            input.add(7 as UInt8)
            input.add(list.count)
            for other in list { PageInputs.add(count: sums[other].count, entries: sums[other].entries, to: &input) }
        }
    }

    /// The keys of a post's values made from nothing but the post as read, its rendered markdown, its address and
    /// whether it is in the future, with `blog.yml` (see ``PostValues/values(of:index:html:)``). Every other key
    /// (its terms with their counts, related posts, series, translations, and any key added later) shows other
    /// posts: it is digested again on every build.
    static let ownKeys: Set<String> = [
        "title", "slug", "url", "kind", "html", "summaryHTML", "truncated", "headings", "meta", "hidden", "dated", "draft",
        "future", "description", "permalink", "words", "reading_minutes", "toc", "toc_html", "show_toc", "has_math",
        "has_diagrams", "date", "datetime", "year", "month", "monthName", "day", "lang", "author", "modified", "modifiedDatetime",
    ]

    /// The digest of a post's values as ``postDigest(_:html:)`` makes it, with the part of it made of
    /// ``ownKeys``: `own`, when given, stands for that part (kept from the last build: ``PostDigestMemo``), whose
    /// values are then not walked. A dictionary's digest is the sum of its entries' (``PageInputs/add(_:to:replacing:)``),
    /// so the two parts add up to the same digest.
    /// With `related` and `index`, the post's `related` is added from ``RelatedEntries``, not walked.
    static func postDigest(_ values: [String: Any], html: String, own: Digest?, related: RelatedEntries? = nil,
                           index: Int = 0) -> (digest: Digest, own: Digest) {
        var ownHigh: UInt64 = own?.high ?? 0, ownLow: UInt64 = own?.low ?? 0
        var high: UInt64 = 0, low: UInt64 = 0
        var entry = DigestInput(capacity: 256)
        for (key, value) in values {
            let isOwn = ownKeys.contains(key)
            if isOwn, own != nil { continue }
            entry.removeAll()
            entry.add(key)
            if key == "html" {
                entry.add(Digest.of(html))
            } else if key == "related", let related {
                related.add(index, to: &entry)
            } else {
                PageInputs.add(value, to: &entry)
            }
            let digest = entry.digest
            if isOwn {
                ownHigh &+= digest.high
                ownLow &+= digest.low
            } else {
                high &+= digest.high
                low &+= digest.low
            }
        }
        var input = DigestInput()
        input.add(6 as UInt8)
        input.add(values.count)
        input.add(Digest(high: high &+ ownHigh, low: low &+ ownLow))
        return (input.digest, Digest(high: ownHigh, low: ownLow))
    }

    /// The digest of the values of every term of every taxonomy (name, address, count): a post shows its terms'.
    static func termsDigest(_ terms: [Taxonomy: [TemplateRecord]]) -> Digest {
        var input = DigestInput()
        for taxonomy in Taxonomy.allCases {
            input.add(taxonomy.rawValue)
            PageInputs.add(terms[taxonomy] ?? [], to: &input)
        }
        return input.digest
    }

    /// The digests of `values`, values many pages show, each made once, and of `archives`, made from the digests of
    /// the posts it lists (``postDigest(_:html:)``, by index into ``Site/posts``). `values` come in the same order
    /// in every build (``SharedDigests/values``).
    static func sharedDigests(site: Site, postDigests: [Digest], values: [Any], archives: [[String: Any]]) -> SharedDigests {
        var archiveInput = DigestInput()
        for year in site.archives {
            archiveInput.add(year.year)
            archiveInput.add(year.months.count)
            for month in year.months {
                archiveInput.add(month.month)
                archiveInput.add(month.posts.count)
                for index in month.posts { archiveInput.add(postDigests[index]) }
            }
        }
        var shared = SharedDigests()
        var all = DigestInput()
        for value in values {
            let digest = PageInputs.digest(value)
            shared.add(value, digest: digest)
            all.add(digest)
        }
        shared.values = all.digest
        shared.archives = archiveInput.digest
        shared.add(archives, digest: shared.archives)
        return shared
    }
}

/// The part of each post's digest made of its own values (``TemplateContext/ownKeys``), kept from one build of a
/// process to its next (`blog serve`) with what it was made from: the post as read, its rendered markdown, its
/// address and whether it is in the future. A post equal in all four (a title edit leaves 9,999 of 10,000 so)
/// has the same own values, which are then neither walked nor digested again: they were a fifth of a title
/// edit's work at 10,000 posts. Whatever shows other posts is digested on every build.
///
/// It also keeps each post's search words with the body they were read from (``searchWords(path:html:make:)``), and
/// the sitemap's entries with the address and date each was made of (``sitemap``), and each feed of posts with the channel
/// it was made of (``feeds``).
///
/// One memo is about one blog folder and one set of inputs (`blog.yml`, the options, the theme), which its
/// owner (BlogIncremental's build memo) empties when they change. It holds the posts of the last build only.
package final class PostDigestMemo: @unchecked Sendable {
    /// A class: looking one up copies a reference, not every string of its post.
    fileprivate final class Kept {
        let post: Post
        let rendered: RenderedMarkdown
        let url: String
        let future: Bool
        let own: Digest

        init(post: Post, rendered: RenderedMarkdown, url: String, future: Bool, own: Digest) {
            self.post = post
            self.rendered = rendered
            self.url = url
            self.future = future
            self.own = own
        }

        /// Whether `sitePost` is the one this was made from. Strings and arrays kept from the last build (the
        /// build memo's posts and markdown) compare by their storage first, so this is cheap.
        func isMade(from sitePost: SitePost) -> Bool {
            withUnsafePointer(to: sitePost) { isMade(at: $0) }
        }

        /// ``isMade(from:)`` of the post at `item`, read in place: an element of an array passed as an argument was
        /// copied, every string retained.
        func isMade(at item: UnsafePointer<SitePost>) -> Bool {
            future == item.pointee.future && url == item.pointee.url && rendered == item.pointee.rendered && Self.same(post, item)
        }

        /// Whether a post is the one of `item` in every stored property (``Tag`` compares by slug alone: names are
        /// compared too). PostDigestMemoTests checks that the number of properties is the one compared here.
        static func same(_ a: Post, _ item: UnsafePointer<SitePost>) -> Bool {
            a.source == item.pointee.post.source && a.contentPath == item.pointee.post.contentPath
                && a.title == item.pointee.post.title && a.kind == item.pointee.post.kind
                && a.isBundle == item.pointee.post.isBundle && a.headerFormat == item.pointee.post.headerFormat
                && a.date == item.pointee.post.date && a.dated == item.pointee.post.dated
                && a.writtenOffset == item.pointee.post.writtenOffset && a.modified == item.pointee.post.modified
                && Tag.spelledAlike(a.tags, item.pointee.post.tags) && Tag.spelledAlike(a.categories, item.pointee.post.categories)
                && a.lang == item.pointee.post.lang && a.permalink == item.pointee.post.permalink
                && a.saveAs == item.pointee.post.saveAs && a.aliases == item.pointee.post.aliases
                && a.slug == item.pointee.post.slug && a.author == item.pointee.post.author
                && a.authors == item.pointee.post.authors && a.summary == item.pointee.post.summary
                && a.html == item.pointee.post.html && a.status == item.pointee.post.status && a.meta == item.pointee.post.meta
                && a.body == item.pointee.post.body && a.bodyLine == item.pointee.post.bodyLine
        }
    }

    /// The number of stored properties of ``Post`` that ``Kept/same(_:_:)`` compares.
    static let comparedPostProperties = 25

    private let lock = NSLock()
    /// By content path, from the last build that made digests.
    private var kept: [String: Kept] = [:]
    /// What the last ``keptValues(site:terms:layout:)`` found, by index into its site's posts: each post's entry, and
    /// whether the post is the one it was made from; for the ``keep(_:own:)`` that follows it.
    private var found: [(entry: Kept?, same: Bool)]?
    /// How many posts' entries the last ``keep(_:own:)`` left as they were.
    private(set) var postsKept = 0
    /// Each post's search words (``BodyText/searchWords(html:)``, a twentieth of a title edit's instructions at
    /// 1,000 posts when its shard is made again) with the body they were read from, by content path.
    private var words: [String: (html: String, words: String)] = [:]
    /// Each post's feed entry (``Feeds``: made of the post as read, its rendered markdown and address, with
    /// `blog.yml`) with what it was made from, by content path.
    private var feedEntries: [String: (made: Kept, entry: FeedEntry)] = [:]

    package init() {}

    /// The own part of the digest of `sitePost`'s values as the last build made it; nil when the post is not the
    /// one it was made from.
    func own(of sitePost: SitePost) -> Digest? {
        let known = lock.withLock { kept[sitePost.post.contentPath] }
        guard let known, known.isMade(from: sitePost) else { return nil }
        return known.own
    }

    /// The build's posts and the own parts of their digests, for the next build;
    /// what the last build kept is let go.
    ///
    /// After ``keptValues(site:terms:layout:)`` of the same posts, in the last build's order, each post as it was
    /// keeps its entry and only the others are made: a new entry for each of 10,000 posts (a copy of the post, a
    /// dictionary made anew, the old entries freed) was a tenth of a title edit's work at 10,000 posts.
    func keep(_ posts: [SitePost], own: [Digest]) {
        let found = lock.withLock { () -> [(entry: Kept?, same: Bool)]? in
            defer { self.found = nil }
            return self.found
        }
        if let found, found.count == posts.count, own.count == posts.count {
            // An entry is made of its post alone, so the one found for a post as it was has its own part.
            let made = posts.indices.compactMap { index -> (path: String, kept: Kept)? in
                if found[index].same, let entry = found[index].entry, entry.own == own[index] { return nil }
                return (posts[index].post.contentPath, Kept(post: posts[index].post, rendered: posts[index].rendered, url: posts[index].url,
                                                            future: posts[index].future, own: own[index]))
            }
            let exact = lock.withLock { () -> Bool in
                for (path, entry) in made { kept[path] = entry }
                postsKept = posts.count - made.count
                return kept.count == posts.count
            }
            // The same paths (no post gone): nothing to let go.
            if exact { return }
        }
        var next: [String: Kept] = [:]
        next.reserveCapacity(posts.count)
        // By index: `zip` gave each post copied, every string retained.
        for index in posts.indices where index < own.count {
            next[posts[index].post.contentPath] = Kept(post: posts[index].post, rendered: posts[index].rendered, url: posts[index].url,
                                                       future: posts[index].future, own: own[index])
        }
        lock.withLock {
            kept = next
            postsKept = 0
            words = words.filter { next[$0.key] != nil }
            feedEntries = feedEntries.filter { next[$0.key] != nil }
        }
    }

    /// The feed entry of `sitePost`: kept from an earlier build when the post, its markdown and address are as they
    /// were, else `make()`, kept.
    func feedEntry(of sitePost: SitePost, make: () -> FeedEntry) -> FeedEntry {
        let path = sitePost.post.contentPath
        if let known = lock.withLock({ feedEntries[path] }), known.made.isMade(from: sitePost) { return known.entry }
        let made = make()
        let kept = Kept(post: sitePost.post, rendered: sitePost.rendered, url: sitePost.url, future: sitePost.future, own: .zero)
        lock.withLock { feedEntries[path] = (kept, made) }
        return made
    }

    /// The search words of the post at `path` whose body is `html`: kept from an earlier build when it had this
    /// body (a body kept by the build memo is the same string, compared at once), else `make()`, kept.
    func searchWords(path: String, html: String, make: () -> String) -> String {
        if let known = lock.withLock({ words[path] }), known.html == html { return known.words }
        let made = make()
        lock.withLock { words[path] = (html, made) }
        return made
    }

    /// The last build's posts' values (before the texts rendered from them), their digests and what they were made
    /// from beyond the post itself, by index into that build's ``Site/posts``; nil before a build with digests.
    private var last: LastValues?
    /// How many posts' values the last ``keptValues(site:terms:layout:)`` gave back.
    private(set) var valuesKept = 0
    /// How many posts' entries (``PostValues/entries``) the last ``keptValues(site:terms:layout:)`` gave back.
    private(set) var entriesKept = 0

    /// What ``keptValues(site:terms:layout:)`` compares a post's values with: beside the post as read, a post's values show
    /// its terms (with their counts), its related posts, its series and its translations (``PostValues``).
    fileprivate struct LastValues {
        /// Each post's content path, in the order of ``Site/posts``.
        var paths: [String]
        var related: [[Int]]
        var translations: [[Int]]
        /// Each post's series: its name and posts; nil for a post in none.
        var series: [(name: String, posts: [Int])?]
        /// The digest of every term's values (``TemplateContext/termsDigest(_:)``).
        var terms: Digest
        /// Nil for a post whose values were not kept.
        var values: [TemplateRecord?]
        var digests: [Digest]
        var own: [Digest]
        /// Each post's entry (``PostValues/entries``): what other posts' values show of it.
        var entries: [TemplateRecord]
    }

    /// What ``keptValues(site:terms:layout:)`` gives back, by index into the site's posts.
    struct KeptValues {
        /// The values, digest and own part of the digest of each post whose values come out as the last build's.
        var values: [(values: TemplateRecord, digest: Digest, own: Digest)?]
        /// The entry (``PostValues/entries``) of each post that is the one of the last build: made of its post and
        /// address alone (with `blog.yml`, which the memo is about), it is the last build's.
        var entries: [TemplateRecord?]
    }

    /// By index into `site.posts`, the values, digest and own part of the digest of each post whose values the last
    /// build made and that come out the same now, else nil (made again): the post is the one they were made from, so
    /// are the posts its values show, which are the same posts (by index, in a site whose posts are in the same order:
    /// related, series, translations), and every term's values are as they were (`terms`: a post shows its terms with
    /// their counts). A title edit then makes the values of the edited post and of the few posts that show it.
    /// The values hold the post's real body as `html`, where the caller puts its marker (``BodyMarks``).
    /// Each post that is the one of the last build keeps its entry too, whatever its values.
    func keptValues(site: Site, terms: Digest, layout: RecordLayout) -> KeptValues {
        let (last, kept) = lock.withLock { (self.last, self.kept) }
        let posts = site.posts
        guard let last, last.paths.count == posts.count,
              last.paths.indices.allSatisfy({ last.paths[$0] == posts[$0].post.contentPath }) else {
            lock.withLock {
                valuesKept = 0
                entriesKept = 0
                self.found = nil
                samePosts = nil
            }
            return KeptValues(values: Array(repeating: nil, count: posts.count), entries: Array(repeating: nil, count: posts.count))
        }
        let same = posts.withUnsafeBufferPointer { posts in
            Parallel.map(posts.count) { index -> (entry: Kept?, same: Bool) in
                let entry = kept[posts[index].post.contentPath]
                return (entry, entry?.isMade(at: posts.baseAddress! + index) ?? false)
            }
        }
        let entries = posts.indices.map { index in same[index].same && index < last.entries.count ? last.entries[index] : nil }
        let entryCount = entries.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
        lock.withLock { entriesKept = entryCount }
        // A post shows its terms with their counts: with other terms, no post's values are the last build's.
        guard last.terms == terms else {
            lock.withLock {
                valuesKept = 0
                self.found = same
                samePosts = nil
            }
            return KeptValues(values: Array(repeating: nil, count: posts.count), entries: entries)
        }
        let found = Parallel.map(posts.count) { index -> (values: TemplateRecord, digest: Digest, own: Digest)? in
            // Made in the layout of this build's posts (the same texts rendered from them).
            guard same[index].same, let values = last.values[index], values.layout === layout || values.layout.keys == layout.keys else { return nil }
            let related = index < site.related.count ? site.related[index] : []
            guard related == last.related[index], related.allSatisfy({ same[$0].same }),
                  posts[index].translations == last.translations[index], posts[index].translations.allSatisfy({ same[$0].same })
            else { return nil }
            let series = site.series(of: index)
            guard series?.group.name == last.series[index]?.name, series?.group.posts == last.series[index]?.posts,
                  series?.group.posts.allSatisfy({ same[$0].same }) ?? true else { return nil }
            return (values, last.digests[index], last.own[index])
        }
        let count = found.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
        lock.withLock {
            valuesKept = count
            self.found = same
            samePosts = (same.map(\.same), builds)
        }
        return KeptValues(values: found, entries: entries)
    }

    /// The build's posts' values (before the texts rendered from them, their real body as `html`), their digests and own parts, for
    /// ``keptValues(site:terms:layout:)`` of the next build; what the last build kept is let go.
    func keep(_ site: Site, terms: Digest, values: [TemplateRecord?], digests: [Digest], own: [Digest], entries: [TemplateRecord]) {
        let posts = site.posts
        let next = LastValues(paths: posts.indices.map { posts[$0].post.contentPath },
                              related: posts.indices.map { $0 < site.related.count ? site.related[$0] : [] },
                              translations: posts.indices.map { posts[$0].translations },
                              series: posts.indices.map { index in site.series(of: index).map { ($0.group.name, $0.group.posts) } },
                              terms: terms, values: values, digests: digests, own: own, entries: entries)
        keep(posts, own: own)
        lock.withLock {
            last = next
            builds += 1
        }
    }

    /// How many builds kept their posts' values (``keep(_:terms:values:digests:own:entries:)``): what ``samePosts`` and
    /// ``LastPages/build`` are relative to.
    private var builds = 0
    /// By index into the site's posts, whether each post is the one of the build after `build` builds, in every field
    /// (the last ``keptValues(site:terms:layout:)`` found them so, by the same paths in the same order); nil when the
    /// posts are not the last build's.
    private var samePosts: (posts: [Bool], build: Int)?

    /// The last build's pages with each one's digest (``PageInputs``) and the digest of what its values are made from
    /// (``TemplateContext/source(of:template:reads:)``), and what those sources read of the site besides each page's
    /// own: for the next build, which takes a page's digest when its source is the same.
    struct LastPages {
        /// The site's pages, in its order; `sources` and `inputs` are by index into them.
        let pages: [Page]
        let sources: [Digest]
        let inputs: [Digest]
        /// The site's listed posts (a post page's neighbours) and the generated pages posts stand for.
        let listed: [Int]
        let replacements: [GeneratedPage: Int]
        /// The digests of the values every page shows, of the archives, and of each post's values (by index).
        let values: Digest
        let archives: Digest
        let postDigests: [Digest]
        /// The builds kept before it (``builds``), set by ``keepPages(_:kept:)``.
        fileprivate(set) var build = 0
    }

    /// The last build's pages (``keepPages(_:kept:)``); nil before a build that made them.
    private var pages: LastPages?

    /// The pages' digests and what each was made from, as the last build kept them (``keepPages(_:kept:)``).
    func lastPages() -> LastPages? {
        lock.withLock { pages }
    }

    /// By index into the site's posts, whether each post may show otherwise on a page than in `last`: it is not the
    /// post of that build in every field, or its values' digest (`digests`, this build's) is another. Nil when that is
    /// not known: the posts are not those of `last`'s build by the same paths in the same order.
    func changedPosts(_ digests: [Digest], since last: LastPages) -> [Bool]? {
        let same = lock.withLock { samePosts }
        guard let same, same.build == last.build, same.posts.count == digests.count, last.postDigests.count == digests.count else { return nil }
        return digests.indices.map { !same.posts[$0] || digests[$0] != last.postDigests[$0] }
    }

    /// How many pages' digests the last build took from the build before (``lastPages()``).
    private(set) var pagesKept = 0

    /// The build's pages with their digests and what each was made from, for the next build: a page made from the
    /// same has the same digest, whose values are then neither made nor walked (a title edit at 10,000 posts changes a
    /// few dozen of 14,600 pages). `kept`: how many were the last build's. What the last build kept is let go.
    func keepPages(_ next: LastPages, kept: Int) {
        lock.withLock {
            var next = next
            next.build = builds
            pages = next
            pagesKept = kept
        }
    }

    /// A `<url>` of the sitemap (``Sitemap/sitemap(_:memo:)``): its text, with the site-relative URL of its page and
    /// the date it shows.
    struct SitemapEntry {
        let url: String
        let lastmod: Date?
        let text: String
    }

    /// A feed of posts (``Feeds/render(_:hook:)``) as the last build wrote it: its bytes and where the posts' bodies
    /// are in them, with what they are made of besides `blog.yml` (which the memo is about): its format and channel
    /// (title, page, entries and their posts).
    struct FeedMade {
        let format: FeedFormat
        let channel: FeedChannel
        let bytes: Data
        let holes: [BodyHole]
    }

    /// The parts of one file the last build made (by key, or in order), each with what it was made of: the next
    /// build takes a part made of the same.
    final class Parts<Made>: @unchecked Sendable {
        private let lock = NSLock()
        private let none: Made
        private var parts: Made
        /// How many parts the last build took from the one before.
        private(set) var kept = 0

        /// `none`: the parts before a build made them.
        init(_ none: Made) {
            self.none = none
            parts = none
        }

        /// The parts of the last build that made them.
        func last() -> Made {
            lock.withLock { parts }
        }

        /// The parts for the next build; `kept`: how many were the last build's.
        func keep(_ next: Made, kept: Int) {
            lock.withLock {
                parts = next
                self.kept = kept
            }
        }

        func forget() {
            keep(none, kept: 0)
        }
    }

    /// The sitemap's entries, in its order.
    let sitemap = Parts<[SitemapEntry]>([])
    /// The feeds of posts by path.
    let feeds = Parts<[String: FeedMade]>([:])

    /// Forgets every post (the blog folder or the inputs changed).
    package func forget() {
        lock.withLock {
            last = nil
            pages = nil
            samePosts = nil
            kept = [:]
            found = nil
            words = [:]
            feedEntries = [:]
        }
        sitemap.forget()
        feeds.forget()
    }
}
