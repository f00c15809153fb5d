import BlogConfig
import BlogCore
import BlogSite
import Foundation
import Mustache

/// How Render shows a ``RenderHook`` where each post's rendered body lands in the pages and feeds,
/// with the bytes of a render without a hook.
///
/// Templates see each post's `html` as a ``BodyMarker``, which prints a short marker instead of
/// the body. ``pageBytes(number:text:)`` then puts each body where its marker is, escaped when the
/// template escaped the marker (`{{html}}` turns the marker's `&` into `&amp;`), and tells the hook
/// each place as a ``BodyHole``; feeds the same, in their own forms. Printing is all a template
/// can do with the marker that leaves no trace of it: a transform (`{{lowercased(html)}}`) gets
/// the real body, and the hook is told that the post's body was transformed.
final class BodyMarks: @unchecked Sendable {
    let hook: RenderHook
    /// Markers are ``PlaceholderMarks``: a post's own text can't forge one.
    let marks = PlaceholderMarks.build
    /// Each post's rendered body, by index into ``Site/posts``.
    let bodies: [String]
    /// Each post's marker, by index.
    let markers: [BodyMarker]
    /// Each post's address in the site, from which ``permalink(_:)`` makes the one feeds make its body's links
    /// absolute against: only for the posts a feed shows.
    private let urls: [String]
    private let config: SiteConfig
    /// Each post's content path, under which ``PostDigestMemo`` keeps its search words between builds.
    private let paths: [String]
    private let lock = NSLock()
    /// Each post's body in the form of the XML feeds and of the JSON feed, made the first time a
    /// feed shows it: a post is in the site's feeds and in each of its tags'.
    private var feedXML: [String?], feedJSON: [String?]

    /// The marks of `site`'s posts, reported to `hook`; nil without a hook.
    convenience init?(site: Site, hook: RenderHook?) {
        guard let hook else { return nil }
        self.init(site: site, reportingTo: hook)
    }

    init(site: Site, reportingTo hook: RenderHook) {
        self.hook = hook
        let marks = marks
        // By index, each field read in place: a post taken whole (`map(\.rendered.html)`) is copied, which retains
        // every one of its strings and arrays (5% of a title edit in `blog serve` at 10,000 posts).
        let posts = site.posts
        var bodies: [String] = [], markers: [BodyMarker] = [], urls: [String] = [], paths: [String] = []
        bodies.reserveCapacity(posts.count)
        markers.reserveCapacity(posts.count)
        urls.reserveCapacity(posts.count)
        paths.reserveCapacity(posts.count)
        for index in posts.indices {
            let html = posts[index].rendered.html
            bodies.append(html)
            markers.append(BodyMarker(post: index, html: html, marker: marks.mark("&", index), hook: hook))
            urls.append(posts[index].url)
            paths.append(posts[index].post.contentPath)
        }
        self.bodies = bodies
        self.markers = markers
        self.urls = urls
        self.paths = paths
        config = site.config
        feedXML = Array(repeating: nil, count: site.posts.count)
        feedJSON = feedXML
    }

    /// The body of post `number` in `form`.
    private func body(_ number: Int, in form: BodyForm) -> String {
        let kept: ReferenceWritableKeyPath<BodyMarks, [String?]>
        switch form {
        case .html: return bodies[number]
        case .escaped: return form.apply(bodies[number])
        case .feedXML: kept = \.feedXML
        case .feedJSON: kept = \.feedJSON
        case .searchText:
            // Kept between the builds of `blog serve`: a shard made again reads the words of the changed posts only.
            guard let memo = hook.postDigests else { return form.apply(bodies[number]) }
            return memo.searchWords(path: paths[number], html: bodies[number]) { form.apply(bodies[number]) }
        }
        lock.lock()
        let known = self[keyPath: kept][number]
        lock.unlock()
        if let known { return known }
        // Two cores may make the same text at once; both give the same. `blog serve` keeps it between builds: feeds
        // made again after a title edit then escape only the changed post's body.
        let made = hook.postDigests.map { memo in
            memo.feedBody(path: paths[number], html: bodies[number], form: form) { form.apply(bodies[number]) }
        } ?? form.apply(bodies[number])
        lock.lock()
        self[keyPath: kept][number] = made
        lock.unlock()
        return made
    }

    /// What templates see as the `html` of post `post`.
    func templateBody(post: Int) -> Any { markers[post] }

    /// The bytes of page `number` (an index into ``Site/pages``) from its rendered text; the hook
    /// hears where the bodies went.
    func pageBytes(number: Int, text: String) -> Data {
        let (bytes, holes) = fill(text)
        if !holes.isEmpty { hook.page(number, holds: holes) }
        return Data(bytes)
    }

    /// The address of post `index`, against which a feed makes its body's links absolute.
    private func permalink(_ index: Int) -> String {
        AbsoluteURLs.url(urls[index], config: config)
    }

    /// The bytes of the feed at `path` (`json`: the JSON feed, else Atom or RSS) from its text.
    func feedBytes(path: String, json: Bool, text: String) -> Data {
        generatedBytes(path: path, text: text) { index in json ? .feedJSON(base: permalink(index)) : .feedXML(base: permalink(index)) }
    }

    /// The bytes of a generated file at `path` (a feed, a search index) from its text, each feed
    /// marker replaced by its post's body in `form`; the hook hears where the bodies went.
    func generatedBytes(path: String, text: String, form: (Int) -> BodyForm) -> Data {
        let (bytes, holes) = fillFeed(text, form: form)
        if !holes.isEmpty { hook.feed(path, holds: holes) }
        return Data(bytes)
    }

    // MARK: Markers

    /// What the feed entries of post `index` hold in place of its body (made absolute and escaped
    /// by ``feedBytes(path:json:text:)`` as the feed would).
    func feedMarker(_ index: Int) -> String { marks.mark("F", index) }

    /// The page's bytes with every marker replaced by its post's body, and where each body went.
    func fill(_ marked: String) -> (bytes: [UInt8], holes: [BodyHole]) {
        fill(marked, lead: "&") { $0 ? .escaped : .html }
    }

    /// A feed's bytes with every feed marker replaced by its post's body in the form `form` gives
    /// for the post.
    func fillFeed(_ marked: String, form: (Int) -> BodyForm) -> (bytes: [UInt8], holes: [BodyHole]) {
        withoutActuallyEscaping(form) { form in fill(marked, lead: "F", post: form) { _ in .html } }
    }

    private func fill(_ marked: String, lead letter: Character, post postForm: ((Int) -> BodyForm)? = nil,
                      form: (Bool) -> BodyForm) -> (bytes: [UInt8], holes: [BodyHole]) {
        let text = Array(marked.utf8)
        guard marks.mayBeIn(marked) else { return (text, []) }
        // An escaped page marker's `&` is `&amp;`.
        let kinds = letter == "&" ? [Array("&".utf8), Array("&amp;".utf8)] : [Array(String(letter).utf8)]
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 4096)
        var holes: [BodyHole] = []
        var index = 0
        var copied = 0
        while let found = marks.next(in: text, from: index, kinds: kinds) {
            guard found.number < bodies.count else {
                index = found.range.lowerBound + 1
                continue
            }
            out.append(contentsOf: text[copied..<found.range.lowerBound])
            let form = postForm?(found.number) ?? form(found.kind == 1)
            let start = out.count
            out.append(contentsOf: body(found.number, in: form).utf8)
            holes.append(BodyHole(post: found.number, offset: start, length: out.count - start, form: form))
            copied = found.range.upperBound
            index = copied
        }
        out.append(contentsOf: text[copied...])
        return (out, holes)
    }
}

/// Where one post's body went in a page or feed: `length` bytes at `offset`.
package struct BodyHole: Sendable, Equatable {
    /// Index into ``Site/posts``.
    package var post: Int
    package var offset: Int
    package var length: Int
    /// How the body was written there.
    package var form: BodyForm

    package init(post: Int, offset: Int, length: Int, form: BodyForm) {
        self.post = post
        self.offset = offset
        self.length = length
        self.form = form
    }
}

/// How a body is written where it lands.
package enum BodyForm: Sendable, Equatable {
    /// As it is (`{{{html}}}`).
    case html
    /// HTML-escaped (`{{html}}`).
    case escaped
    /// In a feed: links made absolute against the post's address, then XML-escaped.
    case feedXML(base: String)
    /// In the JSON feed: links made absolute, then as a JSON string's content.
    case feedJSON(base: String)
    /// In the search index: the words of its text, each once (``BodyText/searchWords(html:)``),
    /// which are a JSON string's content as they are: letters, digits and spaces only.
    case searchText

    /// `html` in this form: the one place a body becomes the text of a page or feed.
    package func apply(_ html: String) -> String {
        switch self {
        case .html: return html
        case .escaped: return Escaping.template(html)
        case .feedXML(let base): return Escaping.xml(Feeds.content(html, base: base))
        case .feedJSON(let base): return Feeds.jsonContent(Feeds.content(html, base: base))
        case .searchText: return BodyText.searchWords(html: html)
        }
    }
}

/// A post's `html` as templates see it: printed, it is a marker that ``BodyMarks`` replaces.
struct BodyMarker: MustacheCustomRenderable, MustacheTransformable, @unchecked Sendable {
    let post: Int
    /// The rendered body.
    let html: String
    let marker: String
    let hook: RenderHook

    var renderText: String { marker }
    var isNull: Bool { false }

    /// The body's transform, as a string's; the hook hears that the post's body was transformed.
    func transform(_ name: String) -> Any? {
        hook.bodyTransformed(post: post)
        return html.transform(name)
    }
}
