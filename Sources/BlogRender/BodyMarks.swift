import BlogCore
import BlogSite
import Foundation
import Mustache
import Synchronization

/// How Render shows a ``RenderHook`` where each post's rendered body lands in the pages,
/// with the bytes of a render without a hook (the feeds and the search index tell it themselves, as they
/// write each body: see ``Feeds``, ``SearchIndex``).
///
/// Templates see each post's `html` as a ``BodyMarker``. The compiled render of a page writes it into a
/// ``MarkedBuffer``, which writes the body in place (escaped where the template escapes it) and notes where it
/// went (a ``BodyHole``), which ``pageBytes(number:marked:)`` tells the hook. Printed into a text (an entry
/// rendered once for many pages, a render by swift-mustache) it is a short marker, which
/// ``pageBytes(number:text:)`` replaces with the body, escaped when the template escaped the marker (`{{html}}`
/// turns the marker's `&` into `&amp;`). Printing is all a template can do with the marker that leaves no trace
/// of it: a transform (`{{lowercased(html)}}`) gets the real body, and the hook is told that the post's body was
/// transformed.
final class BodyMarks: @unchecked Sendable {
    let hook: RenderHook
    /// Markers are ``PlaceholderMarks``: a post's own text can't forge one.
    let marks = PlaceholderMarks.build
    /// Each post's rendered body, by index into ``Site/posts``.
    let bodies: [String]
    /// Each post's marker, by index.
    let markers: [BodyMarker]
    /// Whether a marker was printed into a text (not written in place by ``MarkedBuffer``): a text rendered once
    /// for many pages (``RenderedOnce``, ``SharedPartials``) that shows a body, or a render through swift-mustache.
    private let printed = MarkersPrinted()

    /// The marks of `site`'s posts, reported to `hook`; nil without a hook.
    convenience init?(site: Site, hook: RenderHook?) {
        guard let hook else { return nil }
        self.init(site: site, reportingTo: hook)
    }

    init(site: Site, reportingTo hook: RenderHook) {
        self.hook = hook
        let printed = printed
        // By index, each field read in place: a post taken whole (`map(\.rendered.html)`) is copied, which retains
        // every one of its strings and arrays (5% of a title edit in `blog serve` at 10,000 posts).
        let posts = site.posts
        var bodies: [String] = [], markers: [BodyMarker] = []
        bodies.reserveCapacity(posts.count)
        markers.reserveCapacity(posts.count)
        for index in posts.indices {
            let html = posts[index].rendered.html
            bodies.append(html)
            markers.append(BodyMarker(post: index, html: html, hook: hook, printed: printed))
        }
        self.bodies = bodies
        self.markers = markers
    }

    /// What templates see as the `html` of post `post`.
    func templateBody(post: Int) -> Any { markers[post] }

    /// Whether a text rendered for pages may hold a marker: then a page is rendered into text and filled
    /// (``pageBytes(number:text:)``), not into a ``MarkedBuffer``, which writes the bodies it prints only.
    var markersInTexts: Bool { printed.happened }

    /// The bytes of page `number` rendered into `marked`, whose bodies are in place; the hook hears where they went.
    /// Nil, the buffer freed, when a text the page may show holds a marker (``markersInTexts``): the page is then
    /// rendered into text and filled.
    func pageBytes(number: Int, marked: MarkedBuffer) -> Data? {
        guard !markersInTexts else {
            marked.free()
            return nil
        }
        if !marked.holes.isEmpty { hook.page(number, holds: marked.holes) }
        return marked.buffer.data()
    }

    /// The bytes of page `number` (an index into ``Site/pages``) from its rendered text; the hook
    /// hears where the bodies went.
    func pageBytes(number: Int, text: String) -> Data {
        let (bytes, holes) = fill(text)
        if !holes.isEmpty { hook.page(number, holds: holes) }
        return Data(bytes)
    }

    // MARK: Markers

    /// The page's bytes with every marker replaced by its post's body, and where each body went: as it is where
    /// the marker is, escaped where the template escaped it (its `&` is `&amp;`).
    func fill(_ marked: String) -> (bytes: [UInt8], holes: [BodyHole]) {
        let text = Array(marked.utf8)
        guard marks.mayBeIn(marked) else { return (text, []) }
        let kinds = [Array("&".utf8), Array("&amp;".utf8)]
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
            let form: BodyForm = found.kind == 1 ? .escaped : .html
            let start = out.count
            out.append(contentsOf: form.apply(bodies[found.number]).utf8)
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
    let hook: RenderHook
    /// Told when the marker is printed as text.
    let printed: MarkersPrinted

    /// The marker, made when asked: a page's compiled render writes the body itself (``MarkedBuffer``).
    var marker: String { PlaceholderMarks.build.mark("&", post) }

    /// The marker, in a text whose markers ``BodyMarks`` fills: it hears of it (see ``BodyMarks/markersInTexts``).
    var renderText: String {
        printed.happen()
        return marker
    }
    var isNull: Bool { false }

    /// The body's transform, as a string's; the hook hears that the post's body was transformed.
    func transform(_ name: String) -> Any? {
        hook.bodyTransformed(post: post)
        return html.transform(name)
    }
}

/// Whether something happened once, on any core: a marker printed as text (``BodyMarks/markersInTexts``).
final class MarkersPrinted: Sendable {
    private let flag = Atomic<Bool>(false)

    var happened: Bool { flag.load(ordering: .acquiring) }

    func happen() {
        if !flag.load(ordering: .relaxed) { flag.store(true, ordering: .releasing) }
    }
}
