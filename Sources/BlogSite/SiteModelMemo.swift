import BlogContent
import BlogCore
import Foundation

/// The related posts and the notes of merged terms of the last site model of a process that builds again
/// (`blog serve`), kept with the inputs they were made from: each post's place in the site's order, its file, kind,
/// date, tags, categories and authors, the listed posts and the number of related posts. A title edit leaves every
/// one of them as it was, so the site model gives back what it made last instead of weighing every post's related
/// posts and walking every term again (together a fourteenth of a title edit's rebuild at 10,000 posts).
///
/// One memo is about one blog and one configuration: its owner (BlogIncremental's build memo) empties it when
/// `blog.yml`, the options or the theme change. The strings and arrays of a post kept by the build memo are the
/// same storage from one build to the next, so comparing an unchanged post costs little.
package final class SiteModelMemo: @unchecked Sendable {
    /// What a post gives the related posts and the term groups (``SiteBuilder/termGroups(_:_:listed:config:)``).
    private struct Inputs {
        var source: String
        var contentPath: String
        var isBundle: Bool
        var kind: PostKind
        var date: Date
        var tags: [Tag]
        var categories: [Tag]
        var authors: [String]

        init(_ post: Post) {
            source = post.source
            contentPath = post.contentPath
            isBundle = post.isBundle
            kind = post.kind
            date = post.date
            tags = post.tags
            categories = post.categories
            authors = post.authors
        }

        /// Whether the post at `item` has these inputs (a ``Tag`` compares by its slug alone: its name is compared too).
        /// Read in place: a post passed as an argument was copied, every string retained.
        func same(as item: UnsafePointer<SitePost>) -> Bool {
            source == item.pointee.post.source && contentPath == item.pointee.post.contentPath && isBundle == item.pointee.post.isBundle
                && kind == item.pointee.post.kind && date == item.pointee.post.date && Self.same(tags, item.pointee.post.tags)
                && Self.same(categories, item.pointee.post.categories) && authors == item.pointee.post.authors
        }

        static func same(_ a: [Tag], _ b: [Tag]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { $0.slug == $1.slug && $0.name == $1.name }
        }
    }

    private let lock = NSLock()
    /// The inputs of the last site model, in the order of its posts.
    private var posts: [Inputs] = []
    private var listed: [Int] = []
    private var limit = -1
    /// What was made from them; the notes are nil until the build that made the related posts made them.
    private var related: [[Int]]?
    private var notes: [Diagnostic]?
    /// Whether the inputs kept are those of the build running: its related posts were compared with them (and kept
    /// or made), and its notes not yet.
    private var current = false
    /// How many of the last build's parts were kept (0, 1 or 2): the tests read it.
    private(set) var kept = 0
    /// The last site model with what it was made from (see ``site(of:assets:options:)``).
    private var last: Made?
    /// Whether the last build's site model was given back, its changed posts put in: the tests read it.
    private(set) var keptSite = false
    /// How many posts' markdown the last build rendered, when not every post's: the tests read it.
    private(set) var renderedPlaces: Int?
    /// The warnings of output paths that differ only by case (``SiteBuilder/caseCollisions(_:)``) of the last site model
    /// made; nil until asked for.
    private var caseNotes: [Diagnostic]?
    /// The links between content files and the images' table of the last site model made (``lookups(make:)``).
    private var lookups: (links: ContentLinks, images: ImageAttributes)?

    /// A site model and its inputs: the posts in the order given, the assets, the options; `placed[i]` is the index in
    /// `site.posts` of the post given at `i` (nil when left out: a draft, a post in the future), `order[k]` the index
    /// of the post given for `site.posts[k]`.
    private struct Made {
        var posts: [RenderedPost]
        var assets: [String]
        var options: SiteOptions
        var placed: [Int?]
        var order: [Int]
        /// nil while the build's markdown is rendered (``markdownPlaces()``).
        var site: Site?
        /// The places whose markdown every build renders again (the markdown memo keeps no post whose HTML depends on
        /// other files: Liquid, `{filename}` links, images); nil when the site's bodies are not rendered (as the site
        /// builder made it, before the pipeline's markdown stage).
        var rerender: [Int]?
        /// The markdown stage's messages of the rendered site's posts, by place (the posts that have any).
        var notes: [Int: [Diagnostic]] = [:]
        /// The places whose markdown this build renders: the changed posts and ``rerender``; nil for every post.
        var render: [Int]?
    }

    package init() {}

    /// The related posts of `posts` (in the site's order) with `listed` and `limit`: the last build's when every input
    /// is as it was, else `make()`, kept with its inputs (which then make the notes of the last build stale).
    func related(of posts: [SitePost], listed: [Int], limit: Int, make: () -> [[Int]]) -> [[Int]] {
        let known: [[Int]]? = lock.withLock {
            kept = 0
            current = true
            guard let related, limit == self.limit, listed == self.listed, posts.count == self.posts.count else { return nil }
            let same = posts.withUnsafeBufferPointer { buffer in
                buffer.indices.allSatisfy { self.posts[$0].same(as: buffer.baseAddress! + $0) }
            }
            guard same else { return nil }
            kept = 1
            return related
        }
        if let known { return known }
        let made = make()
        let inputs = posts.map { Inputs($0.post) }
        lock.withLock {
            self.posts = inputs
            self.listed = listed
            self.limit = limit
            related = made
            notes = nil
        }
        return made
    }

    /// The notes of the terms of `site` that share a URL (``SiteBuilder/mergedTermNotes(_:)``): the last build's when
    /// its related posts were given back from the same inputs (``related(of:listed:limit:make:)``, called for this
    /// site), else `make()`, kept.
    package func mergedTermNotes(_ site: Site, make: () -> [Diagnostic]) -> [Diagnostic] {
        let (known, isCurrent): ([Diagnostic]?, Bool) = lock.withLock {
            defer { current = false }
            let isCurrent = current && posts.count == site.posts.count
            guard isCurrent, kept == 1, let notes else { return (nil, isCurrent) }
            kept = 2
            return (notes, true)
        }
        if let known { return known }
        let made = make()
        // Kept only for the inputs this site's related posts were compared with.
        if isCurrent { lock.withLock { notes = made } }
        return made
    }

    /// The last site model with `posts` put in its posts' places, when every post is where the last one was and reads
    /// as it did for everything the site model takes from it (``placesAlike(_:_:)``); else nil. Given back, its related
    /// posts and notes are the last build's too (``mergedTermNotes(_:make:)`` then keeps the notes).
    func site(of posts: [RenderedPost], assets: [String], options: SiteOptions) -> Site? {
        // Taken out of the memo: the posts put in change the one copy of the site's posts, not a copy of them (no
        // other binding of it is alive while they are put in: one would make the first change copy every post).
        guard var made = lock.withLock({ () -> Made? in
            keptSite = false
            defer { last = nil }
            return last
        }), posts.count == made.posts.count, assets == made.assets,
              options.includeDrafts == made.options.includeDrafts, options.includeFuture == made.options.includeFuture else { return nil }
        let now = made.options.now
        let changed: [Int]? = posts.withUnsafeBufferPointer { new in
            made.posts.withUnsafeBufferPointer { old in
                var changed: [Int] = []
                for index in new.indices {
                    let (a, b) = (old.baseAddress! + index, new.baseAddress! + index)
                    // A post whose side of the build's "now" moved (in the future then, due now) is left out or marked otherwise.
                    guard (a.pointee.post.date > now) == (b.pointee.post.date > options.now) else { return nil }
                    if Self.readAlike(a, b) { continue }
                    guard Self.placesAlike(a, b, among: new) else { return nil }
                    changed.append(index)
                }
                return changed
            }
        }
        // Taken out of `made` too while the posts are put in, for the same reason.
        guard let changed, var site = made.site.take() else { return nil }
        // A rendered site keeps every post's markdown but the changed posts' and those rendered every build, which
        // are put in as read (the kept site's posts hold no body).
        var render = made.rerender.map(Set.init)
        for index in changed {
            guard let place = made.placed[index] else { continue }
            site.posts[place].post = posts[index].post
            site.posts[place].rendered = posts[index].rendered
            render?.insert(place)
        }
        for place in made.rerender ?? [] { site.posts[place].post = posts[made.order[place]].post }
        made.render = render.map { $0.sorted() }
        made.posts = posts
        made.options = options
        made.site = site
        lock.withLock {
            self.last = made
            keptSite = true
            kept = 1
            current = true
        }
        return site
    }

    /// The places of the site model just given back or made whose markdown the build renders: nil for every post.
    /// The memo lets go of the site while they are rendered (another binding would make the first body put in copy
    /// every post); ``keepRendered(_:places:diagnostics:rerender:)`` gives it back.
    package func markdownPlaces() -> [Int]? {
        lock.withLock {
            last?.site = nil
            renderedPlaces = last?.render?.count
            return last?.render
        }
    }

    /// Keeps `site`, the site model of this build with its markdown rendered at `places` (nil: every post), whose
    /// messages are `diagnostics` (one list for each place rendered); `rerender` are the places the next build renders
    /// again though their posts are unchanged. Gives back the markdown messages of every post of the site: those of
    /// the places not rendered are the last build's.
    package func keepRendered(_ site: Site, places: [Int]?, diagnostics: [[Diagnostic]], rerender: [Int]) -> [Diagnostic] {
        lock.withLock {
            guard last != nil, last?.site == nil, places == nil || last?.rerender != nil else {
                last = nil
                return Array(diagnostics.joined())
            }
            if places == nil { last!.notes = [:] }
            for (index, messages) in diagnostics.enumerated() { last!.notes[places?[index] ?? index] = messages.isEmpty ? nil : messages }
            last!.site = site
            last!.rerender = rerender
            last!.render = nil
            return last!.notes.sorted { $0.key < $1.key }.flatMap(\.value)
        }
    }

    /// The warnings of output paths of `site` that differ only by case: the last build's when this build's site model
    /// was given back (``site(of:assets:options:)``: every page, file and source as they were), else `make()`, kept.
    package func caseCollisions(_ site: Site, make: () -> [Diagnostic]) -> [Diagnostic] {
        let known: [Diagnostic]? = lock.withLock { keptSite ? caseNotes : nil }
        if let known { return known }
        let made = make()
        lock.withLock { caseNotes = made }
        return made
    }

    /// The links between content files and the images' table of `site` (``ContentLinks``, ``ImageAttributes``; both
    /// index every post's page and file): the last build's when this build's site model was given back
    /// (``site(of:assets:options:)``: every post's content path and URL, every file, as they were), with no picture's
    /// size read yet; else `make()`, kept.
    package func lookups(make: () -> (ContentLinks, ImageAttributes)) -> (ContentLinks, ImageAttributes) {
        let known = lock.withLock { keptSite ? lookups : nil }
        if let known { return (known.links, known.images.sizesUnread()) }
        let made = make()
        lock.withLock { lookups = made }
        return made
    }

    /// Keeps `site`, made from `posts` (`order[k]` is the index in `posts` of the site's post `k`), `assets` and `options`.
    func keep(_ site: Site, posts: [RenderedPost], order: [Int], assets: [String], options: SiteOptions) {
        var placed = [Int?](repeating: nil, count: posts.count)
        for (place, index) in order.enumerated() { placed[index] = place }
        let made = Made(posts: posts, assets: assets, options: options, placed: placed, order: order, site: site)
        lock.withLock {
            last = made
            caseNotes = nil
            lookups = nil
        }
    }

    /// Whether two readings of a post are the same in every field (cheap for the storage a read memo kept).
    private static func readAlike(_ a: UnsafePointer<RenderedPost>, _ b: UnsafePointer<RenderedPost>) -> Bool {
        a.pointee.post.title == b.pointee.post.title && a.pointee.post.body == b.pointee.post.body
            && a.pointee.post.bodyLine == b.pointee.post.bodyLine && a.pointee.post.summary == b.pointee.post.summary
            && a.pointee.post.meta == b.pointee.post.meta && a.pointee.rendered == b.pointee.rendered && sameForPlacing(a, b)
    }

    /// Whether `b`, a new reading of the post `a` among `posts`, has the same place, URL, terms, order and everything
    /// else the site model reads: it differs at most in its body, its summary, where its body starts and its title, a
    /// title that orders it among the posts of its date as before (``SiteBuilder/newestFirst(_:_:)``) and leaves the
    /// post's ASCII slug.
    private static func placesAlike(_ a: UnsafePointer<RenderedPost>, _ b: UnsafePointer<RenderedPost>,
                                    among posts: UnsafeBufferPointer<RenderedPost>) -> Bool {
        guard sameForPlacing(a, b), sameMeta(a.pointee.post.meta, b.pointee.post.meta) else { return false }
        guard a.pointee.post.title != b.pointee.post.title else { return true }
        guard a.pointee.post.asciiSlug == b.pointee.post.asciiSlug else { return false }
        // Among the posts of its date, the title orders it: before and after the same ones as it was.
        let (dated, date) = (b.pointee.post.dated, b.pointee.post.date)
        return posts.indices.allSatisfy { index in
            guard posts[index].post.dated == dated, posts[index].post.date == date, posts[index].post.source != b.pointee.post.source else { return true }
            return SiteBuilder.newestFirst(a.pointee, posts[index]) == SiteBuilder.newestFirst(b.pointee, posts[index])
        }
    }

    /// The header's fields but the title and summary, which only the pages show.
    private static func sameMeta(_ a: [String: MetaValue], _ b: [String: MetaValue]) -> Bool {
        a.count == b.count && a.allSatisfy { key, value in key == "title" || key == "summary" || b[key] == value }
    }

    /// Every field of a post but its title, body, summary, body line and header fields (``placingFields``), read in place.
    static func sameForPlacing(_ a: UnsafePointer<RenderedPost>, _ b: UnsafePointer<RenderedPost>) -> Bool {
        a.pointee.post.source == b.pointee.post.source && a.pointee.post.contentPath == b.pointee.post.contentPath
            && a.pointee.post.kind == b.pointee.post.kind && a.pointee.post.isBundle == b.pointee.post.isBundle
            && a.pointee.post.headerFormat == b.pointee.post.headerFormat && a.pointee.post.date == b.pointee.post.date
            && a.pointee.post.dated == b.pointee.post.dated && a.pointee.post.writtenOffset == b.pointee.post.writtenOffset
            && a.pointee.post.modified == b.pointee.post.modified && Inputs.same(a.pointee.post.tags, b.pointee.post.tags)
            && Inputs.same(a.pointee.post.categories, b.pointee.post.categories) && a.pointee.post.lang == b.pointee.post.lang
            && a.pointee.post.permalink == b.pointee.post.permalink && a.pointee.post.saveAs == b.pointee.post.saveAs
            && a.pointee.post.aliases == b.pointee.post.aliases && a.pointee.post.slug == b.pointee.post.slug
            && a.pointee.post.author == b.pointee.post.author && a.pointee.post.authors == b.pointee.post.authors
            && a.pointee.post.html == b.pointee.post.html && a.pointee.post.status == b.pointee.post.status
    }

    /// The fields of ``Post`` that ``sameForPlacing(_:_:)`` compares, and those compared apart (a test checks that
    /// these are all of them: a field added to ``Post`` must be placed in one list or the other).
    static let placingFields = ["source", "contentPath", "kind", "isBundle", "headerFormat", "date", "dated", "writtenOffset",
                                "modified", "tags", "categories", "lang", "permalink", "saveAs", "aliases", "slug", "author",
                                "authors", "html", "status"]
    static let shownFields = ["title", "body", "bodyLine", "summary", "meta"]

    /// Forgets the last build (the blog folder or the inputs changed).
    package func forget() {
        lock.withLock {
            last = nil
            keptSite = false
            caseNotes = nil
            lookups = nil
            posts = []
            listed = []
            limit = -1
            related = nil
            notes = nil
            current = false
            kept = 0
        }
    }
}
